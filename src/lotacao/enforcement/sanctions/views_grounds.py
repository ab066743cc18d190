"""The grounds of revocation a manager establishes for a permit (see sanctions/grounds.py)."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from lotacao.enforcement import permissions
from lotacao.enforcement.models import RevocationProcess
from lotacao.enforcement.sanctions import grounds
from lotacao.enforcement.views_base import ObjectView, access_of
from lotacao.permits.models import Permit


class PermitRevocationGrounds(ObjectView):
    model = Permit

    def _render(
        self, request: HttpRequest, permit: Permit, errors: list[str], status: int = 200
    ) -> HttpResponse:
        today = timezone.localdate()
        access = access_of(request)
        context = {
            "title": f"Hipóteses de cassação — {permit}",
            "permit": permit,
            "grounds": grounds.agency_grounds(permit.jurisdiction_id, today),
            "processes": RevocationProcess.objects.filter(permit=permit).order_by("-opened_on"),
            "can_open": permissions.allowed(access, permit.jurisdiction_id, permissions.MANAGER_ROLES),
            "errors": errors,
            "today": today,
        }
        return render(request, "enforcement/sanctions/revocation_grounds.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, self.get_object(pk), [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        permit = self.get_object(pk)
        permissions.require(request, permit.jurisdiction_id, permissions.MANAGER_ROLES)
        try:
            on = dt.date.fromisoformat(request.POST.get("on", "").strip())
        except ValueError:
            return self._render(request, permit, ["Informe a data em que o fato foi constatado."], 422)
        try:
            process = grounds.open_on_ground(
                actor=request.user,
                permit=permit,
                ground_id=request.POST.get("ground", ""),
                facts=request.POST.get("facts", ""),
                on=on,
            )
        except ValidationError as error:
            return self._render(request, permit, list(error.messages), status=422)
        messages.success(request, f"Processo de cassação aberto em {process.opened_on:%d/%m/%Y}.")
        return HttpResponseRedirect(reverse("enforcement:revocation_process", args=[process.pk]))
