from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Count as DbCount
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from lotacao.accounts.models import Role
from lotacao.chartering import selectors as chartering_selectors
from lotacao.chartering.rules import regulates_chartering
from lotacao.core.models import Jurisdiction
from lotacao.core.vehicle_verdict import has_permits
from lotacao.registry.models import Holder, Line, Person, Vehicle
from lotacao.web import dashboard, menu

Count = tuple[str, int, str]  # (label, figure, url name or "name?query")



def _counts(jurisdiction: Jurisdiction, roles: set[str]) -> list[Count]:
    """The figures each role opens the day on, counted in the database (never placeholders); each
    opens its list, filtered to it where the list takes the filter."""
    from lotacao.documents.models import Document
    from lotacao.inspections.models import Inspection
    from lotacao.permits.models import Permit

    code = jurisdiction.code
    law_permits = has_permits(code)  # lines, agents and permits exist only where the law has them
    by_status: dict[str, int] = {}
    if law_permits:  # one query for every figure of permits below
        by_status = {
            key: n or 0
            for key, n in Permit.objects.filter(jurisdiction_id=code)
            .aggregate(
                active=DbCount("pk", filter=Q(status="active")),
                open=DbCount("pk", filter=Q(status__in=Permit.OPEN)),
                suspended=DbCount("pk", filter=Q(status="suspended")),
                revoked=DbCount("pk", filter=Q(status="revoked")),
            )
            .items()
        }
    counts: list[Count] = []
    if law_permits:
        counts.append(("Permissões ativas", by_status["active"], "permits:list?situacao=active"))
    counts.append(("Veículos", Vehicle.objects.filter(jurisdiction_id=code).count(), "registry:vehicles"))
    if regulates_chartering(code):
        counts += chartering_selectors.home_counts(code, timezone.localdate())
    office = roles & {"gestor", "atendente"} or not roles  # the operator sees the office's figures
    if office:
        counts += [
            (QUEUE, _open_items(code), "workqueue:queue"),
            (
                "Documentos a analisar",
                Document.objects.filter(jurisdiction_id=code, status="pendente").count(),
                "workqueue:queue?tipo=document.review",
            ),
        ]
        if law_permits:
            counts += [
                ("Requerimentos em análise", by_status["open"], "permits:list"),
                ("Permissionários", Holder.objects.filter(jurisdiction_id=code).count(), "registry:holders"),
                ("Pessoas cadastradas", Person.objects.filter(jurisdiction_id=code).count(), "registry:persons"),  # noqa: E501
                ("Linhas", Line.objects.filter(jurisdiction_id=code, active=True).count(), "lines:list"),
            ]
    if "fiscal" in roles or office:
        counts.append(
            (
                "Vistorias agendadas",
                Inspection.objects.filter(jurisdiction_id=code, status="scheduled").count(),
                "inspections:agenda",
            )
        )
    if "comissao" in roles or "gestor" in roles:
        from lotacao.enforcement.models import Filing

        waiting = Filing.objects.filter(jurisdiction_id=code, status__in=["pending", "diligence"]).count()
        counts.append(("Defesas e recursos a julgar", waiting, "enforcement:bodies"))
        if law_permits:
            for label, status in (("Permissões suspensas", "suspended"), ("Permissões cassadas", "revoked")):
                counts.append((label, by_status[status], f"permits:list?situacao={status}"))
    return counts


QUEUE = "Itens na fila de trabalho"


def _open_items(code: str) -> int:
    from lotacao.workqueue.models import WorkItem

    return WorkItem.objects.filter(jurisdiction_id=code, status="aberto").count()


def _figures(jurisdiction: Jurisdiction, roles: set[str], today: dt.date, stamp: int) -> list[Count]:
    """`_counts`, kept in the cache under the audit log's last id (`dashboard.audit_stamp`: every
    record they count is written with an audit event, so a new one gives a new key); the work
    queue's items are written unaudited by the nightly run, so their figure is counted live."""
    from django.core.cache import cache

    key = f"lotacao:inicio:{jurisdiction.code}:{today.isoformat()}:{','.join(sorted(roles))}:{stamp}"
    counts: list[Count] | None = cache.get(key)
    if counts is None:
        counts = _counts(jurisdiction, roles)
        cache.set(key, counts, dashboard.CACHE_SECONDS)
        return counts
    return [(label, _open_items(jurisdiction.code) if label == QUEUE else n, url) for label, n, url in counts]


def _linked(counts: list[Count], open_names: set[str]) -> list[tuple[str, int, str]]:
    """Each figure with the address it opens, or "" where the list is not the role's (the figure
    is shown, the link is not: a menu item and a link appear only to whom may use them)."""
    linked = []
    for label, figure, target in counts:
        name, _, query = target.partition("?")
        url = ""
        if name in open_names or name not in menu.ALL_NAMES:
            url = reverse(name) + (f"?{query}" if query else "")
        linked.append((label, figure, url))
    return linked


@login_required
def home(request: HttpRequest) -> HttpResponse:
    access = request.access  # type: ignore[attr-defined]
    context: dict[str, Any] = {"access": access}
    if access.is_holder:
        # The holder's home is the portal's (lotacao.portal): what they owe and must do, by when.
        return HttpResponseRedirect(reverse("portal:home"))
    today = timezone.localdate()
    stamp = dashboard.audit_stamp()
    panels = []
    for jurisdiction in Jurisdiction.objects.filter(active=True):
        held = access.roles.get(jurisdiction.code, set())
        roles = sorted(held)
        items = menu.staff_items(access, [jurisdiction.code])
        manager = "gestor" in held or access.operator
        panels.append(
            {
                "jurisdiction": jurisdiction,
                "roles": [Role(r).label for r in roles],
                "actions": [i for i in items if i.primary],
                "counts": _linked(
                    _figures(jurisdiction, set(roles), today, stamp), {i.url_name for i in items}
                ),
                "charts": dashboard.manager_charts_html(jurisdiction.code, today, stamp) if manager else [],
            }
        )
    context["panels"] = panels
    return render(request, "web/home.html", context)


def health(request: HttpRequest) -> JsonResponse:
    """Liveness (and the benchmarks' bare JSON baseline): no database. `/saude/vivo/` is the same
    check with a Portuguese body; readiness is `/saude/pronto/` (lotacao.ops.health)."""
    return JsonResponse({"status": "ok"})


@login_required
def search(request: HttpRequest) -> HttpResponse:
    """The header's search (web/search.py): the records the user may see, grouped by kind."""
    from django.core.exceptions import ValidationError

    from lotacao.web import search as finder

    raw = request.GET.get("q", "")
    error = ""
    groups: list[finder.Group] = []
    try:
        query = finder.clean(raw)
        groups = finder.search(query)
    except ValidationError as refusal:
        query, error = "", " ".join(refusal.messages)
    access = getattr(request, "access", None)
    context = {
        "title": "Busca",
        "query": query,
        "groups": groups,
        "error": error,
        "total": sum(len(g.hits) for g in groups),
        "staff": bool(access and (access.is_staff_member or access.operator)),
    }
    return render(request, "web/search.html", context, status=400 if error else 200)
