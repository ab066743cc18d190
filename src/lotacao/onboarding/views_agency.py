"""The operator's screen for an agency coming in (`/implantacao/orgao/`): the form behind
`manage.py setup_agency`. Operators (superusers) only: anyone else signed in gets 403."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.views import View

from lotacao.accounts.models import Role, StaffMembership
from lotacao.core.models import Jurisdiction
from lotacao.onboarding.agency import set_up_agency, summary
from lotacao.onboarding.forms_agency import AgencyForm


class AgencyView(LoginRequiredMixin, View):
    template_name = "onboarding/agency_form.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated and not request.user.is_superuser:
            raise PermissionDenied("Só o operador da instalação implanta um órgão gestor.")
        return super().dispatch(request, *args, **kwargs)

    def _render(self, request: HttpRequest, form: AgencyForm, status: int = 200) -> HttpResponse:
        managers: dict[str, list[str]] = {}
        memberships = StaffMembership.objects.filter(role=Role.MANAGER.value, active=True)
        for membership in memberships.select_related("user"):
            managers.setdefault(membership.jurisdiction_id, []).append(str(membership.user))
        agencies = [(j, sorted(managers.get(j.code, []))) for j in Jurisdiction.unscoped.order_by("name")]
        return render(request, self.template_name, {"form": form, "agencies": agencies}, status=status)

    def get(self, request: HttpRequest) -> HttpResponse:
        return self._render(request, AgencyForm())

    def post(self, request: HttpRequest) -> HttpResponse:
        form = AgencyForm(request.POST)
        if not form.is_valid():
            return self._render(request, form, status=422)
        data = form.cleaned_data
        try:
            result = set_up_agency(
                actor=request.user if request.user.is_authenticated else None,
                pack_id=data["jurisdiction"],
                manager=data["manager"],
                email=data["email"],
                manager_name=data["manager_name"],
                agency=form.agency_values(),
                reset_password=data["reset_password"],
            )
        except ValidationError as error:
            fields = set(form.fields)
            for name, messages in error.message_dict.items():
                form.add_error(name if name in fields else None, messages)
            return self._render(request, form, status=422)
        # The one-time password is shown on this answer only (never stored in the session).
        context = {"result": result, "lines": summary(result, screen=True)}
        return render(request, "onboarding/agency_done.html", context)
