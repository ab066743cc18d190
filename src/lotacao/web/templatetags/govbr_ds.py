"""The gov.br Design System's breadcrumb (`br-breadcrumb`) of every page, drawn by the base
templates: Início, then the menu item whose screen contains this page (the longest menu address
the page's address starts with), then the page itself when the view named it (`title`)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

register = template.Library()


@register.inclusion_tag("web/_breadcrumb.html", takes_context=True)
def breadcrumb(context: Any) -> dict[str, Any]:
    request = context.get("request")
    if request is None:
        return {"crumbs": []}
    user = getattr(request, "user", None)
    home = reverse("web:home") if user is not None and user.is_authenticated else reverse("public:home")
    path = request.path
    if path in (home, "/"):
        return {"crumbs": []}
    links = list(context.get("menu_links") or [])
    for _group, group_links in context.get("menu_groups") or []:
        links += list(group_links)
    section = max(
        (link for link in links if link.url not in (home, "/") and path.startswith(link.url)),
        key=lambda link: len(link.url),
        default=None,
    )
    crumbs: list[dict[str, Any]] = []
    title = context.get("title")
    if section is not None and section.url == path:
        crumbs.append({"label": section.label, "url": None})
    else:
        if section is not None:
            crumbs.append({"label": section.label, "url": section.url})
        if isinstance(title, str) and title.strip():
            crumbs.append({"label": title, "url": None})
    return {"crumbs": crumbs, "home": home}
