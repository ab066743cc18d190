"""The holder's home (`/portal/`; `/` leads a signed-in holder here): what they must do and by
when, what they owe, and their permits, vehicles, agents, documents and notices — or, for a
chartering company, its CRC, fleet and trips. Only the signed-in holder's own rows
(`portal.selectors.summary` is asked for `access.holder_id`, never an id from the address)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from lotacao.portal.selectors import summary
from lotacao.registry.models import Holder


@login_required
def home(request: HttpRequest) -> HttpResponse:
    access = request.access  # type: ignore[attr-defined]
    if not access.is_holder:
        return HttpResponseRedirect(reverse("web:home"))  # staff have their own home
    holder = Holder.objects.select_related("person", "company").get(pk=access.holder_id)
    data = summary(holder, timezone.localdate())
    title = "Minha empresa" if data.chartering else "Meu cadastro"
    return render(
        request,
        "portal/home.html",
        {"title": title, "s": data, "holder": holder, "jurisdiction": data.jurisdiction, "today": data.on},
    )
