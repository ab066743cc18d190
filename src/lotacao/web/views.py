from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from lotacao.accounts.models import Role
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Holder, Line, Person, Vehicle


def _counts(jurisdiction: Jurisdiction) -> list[tuple[str, int, str]]:
    code = jurisdiction.code
    return [
        ("Permissionários", Holder.objects.filter(jurisdiction_id=code).count(), "registry:holders"),
        ("Pessoas cadastradas", Person.objects.filter(jurisdiction_id=code).count(), "registry:persons"),
        ("Veículos", Vehicle.objects.filter(jurisdiction_id=code).count(), "registry:vehicles"),
        ("Linhas", Line.objects.filter(jurisdiction_id=code, active=True).count(), "registry:lines"),
    ]


@login_required
def home(request: HttpRequest) -> HttpResponse:
    access = request.access  # type: ignore[attr-defined]
    context: dict[str, Any] = {"access": access}
    if access.is_holder:
        holder = Holder.objects.select_related("person", "company").get(pk=access.holder_id)
        context.update(
            holder=holder,
            vehicles=Vehicle.objects.filter(holder=holder),
            jurisdiction=Jurisdiction.objects.get(pk=access.holder_jurisdiction),
        )
        return render(request, "web/home_holder.html", context)
    panels = []
    for jurisdiction in Jurisdiction.objects.filter(active=True):
        roles = sorted(access.roles.get(jurisdiction.code, set()))
        panels.append(
            {
                "jurisdiction": jurisdiction,
                "roles": [Role(r).label for r in roles],
                "counts": _counts(jurisdiction),
            }
        )
    context["panels"] = panels
    return render(request, "web/home.html", context)


def health(request: HttpRequest) -> JsonResponse:
    """Liveness for the operator's monitoring (and the benchmarks' bare JSON baseline): no database."""
    return JsonResponse({"status": "ok"})
