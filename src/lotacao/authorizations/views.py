"""The screens of the authorizations (`/autorizacoes-de-servico/`): the register of táxi, escolar and fretado
authorizations (Esteio arts. 12 to 17), a request, the authorization's page with its conditions
(the taxi's fare, art. 14, p.ú.; no fare at boarding, art. 17, p.ú.; the doors, art. 52) and the
buttons of its state table. Staff only; rows come through the scoped managers (a row outside the
scope is a 404). Where the law has no such register, or the agency did not turn it on, the screen
says so and nothing can be created."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.authorizations import permissions, rules, services, states
from lotacao.authorizations.models import Authorization
from lotacao.authorizations.selectors import conditions
from lotacao.core.dateinputs import DateField
from lotacao.registry.models import Company, Person, Vehicle


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _codes(request: HttpRequest, roles: tuple[str, ...]) -> list[str]:
    return permissions.jurisdictions_for(_access(request), roles)


def _require(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    if not permissions.roles_in(_access(request), code) & set(roles):
        raise PermissionDenied("Seu perfil não permite esta ação.")


class RequestForm(forms.Form):
    kind = forms.ChoiceField(label="Serviço")
    holder = forms.ChoiceField(label="Autorizatário (pessoa física ou jurídica do cadastro)")
    vehicle = forms.ChoiceField(label="Veículo do cadastro")
    requested_on = DateField(label="Pedido recebido em")
    vehicle_acquired_on = DateField(
        label="Veículo adquirido em (exigido para táxi de duas portas)", required=False
    )
    replaces = forms.ChoiceField(label="Substitui o veículo da autorização (opcional)", required=False)
    reason = forms.CharField(label="Observação", required=False, max_length=300)

    def __init__(self, *args: Any, codes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        today = timezone.localdate()
        kinds: list[str] = []
        for code in codes:
            kinds.extend(k for k in rules.enabled_kinds(code, today) if k not in kinds)
        cast(forms.ChoiceField, self.fields["kind"]).choices = [
            (k, Authorization.Kind(k).label) for k in kinds
        ]
        people = [
            (f"p{p.pk}", f"{p} — CPF {p.cpf_display}")
            for p in Person.objects.filter(jurisdiction_id__in=codes)[:500]
        ]
        companies = [
            (f"c{c.pk}", f"{c} — CNPJ {c.cnpj_display}")
            for c in Company.objects.filter(jurisdiction_id__in=codes)[:500]
        ]
        cast(forms.ChoiceField, self.fields["holder"]).choices = [("", "Escolha"), *people, *companies]
        cast(forms.ChoiceField, self.fields["vehicle"]).choices = [("", "Escolha")] + [
            (str(v.pk), f"{v} — {v.make_model or v.get_category_display()}, {v.doors} portas")
            for v in Vehicle.objects.filter(jurisdiction_id__in=codes, deregistered_on__isnull=True)[:1000]
        ]
        cast(forms.ChoiceField, self.fields["replaces"]).choices = [("", "Nenhuma (primeira inclusão)")] + [
            (str(a.pk), f"{a} — {a.vehicle}")
            for a in Authorization.objects.filter(
                jurisdiction_id__in=codes, status__in=Authorization.LIVE
            ).select_related("vehicle")[:500]
        ]


class GrantForm(forms.Form):
    number = forms.CharField(label="Número da autorização", max_length=40)
    act = forms.CharField(label="Ato do órgão que concede (ex.: Portaria SMOVT nº 12/2026)", max_length=300)
    starts_on = DateField(label="Início da autorização")


class DecisionForm(forms.Form):
    act = forms.CharField(label="Ato da decisão (portaria, despacho)", max_length=300, required=False)
    reasons = forms.CharField(label="Razões", widget=forms.Textarea(attrs={"rows": 3}))
    until = DateField(label="Suspensa até (opcional)", required=False)


DONE = {
    "grant": "Autorização concedida.",
    "refuse": "Pedido indeferido.",
    "suspend": "Autorização suspensa.",
    "reinstate": "Suspensão encerrada.",
    "revoke": "Autorização cassada.",
    "withdraw": "Desistência registrada.",
}


class AuthorizationList(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        codes = _codes(request, permissions.VIEW_ROLES)
        if not codes:
            raise PermissionDenied("Seu perfil não tem acesso às autorizações.")
        today = timezone.localdate()
        applies = [c for c in codes if rules.applies(c, today)]
        rows = Authorization.objects.filter(jurisdiction_id__in=applies).select_related(
            "person", "company", "vehicle"
        )[:300]
        return render(
            request,
            "authorizations/list.html",
            {
                "title": "Autorizações de táxi, escolar e fretado",
                "rows": [(r, r.effective_status_label(today)) for r in rows],
                "applies": applies,
                "off": [rules.off_message(c, today) for c in codes if c not in applies],
                "can_record": any(
                    permissions.roles_in(_access(request), c) & set(permissions.RECORD_ROLES) for c in applies
                ),
            },
        )


class AuthorizationCreate(LoginRequiredMixin, View):
    def _codes(self, request: HttpRequest) -> list[str]:
        today = timezone.localdate()
        return [c for c in _codes(request, permissions.RECORD_ROLES) if rules.applies(c, today)]

    def _render(
        self, request: HttpRequest, form: RequestForm, errors: list[str], status: int = 200
    ) -> HttpResponse:
        return render(
            request,
            "authorizations/new.html",
            {"title": "Registrar pedido de autorização", "form": form, "errors": errors},
            status=status,
        )

    def _allowed(self, request: HttpRequest) -> list[str]:
        codes = self._codes(request)
        if not codes:
            raise PermissionDenied(
                "Seu perfil não permite registrar autorizações, ou o órgão não ativou este cadastro."
            )
        return codes

    def get(self, request: HttpRequest) -> HttpResponse:
        codes = self._allowed(request)
        form = RequestForm(codes=codes, initial={"requested_on": timezone.localdate()})
        return self._render(request, form, [])

    def post(self, request: HttpRequest) -> HttpResponse:
        codes = self._allowed(request)
        form = RequestForm(request.POST, codes=codes)
        if not form.is_valid():
            return self._render(request, form, [], status=422)
        data = form.cleaned_data
        raw = str(data["holder"])
        person = (
            Person.objects.filter(jurisdiction_id__in=codes, pk=raw[1:]).first() if raw[:1] == "p" else None
        )
        company = (
            Company.objects.filter(jurisdiction_id__in=codes, pk=raw[1:]).first() if raw[:1] == "c" else None
        )
        vehicle = get_object_or_404(Vehicle.objects.filter(jurisdiction_id__in=codes), pk=data["vehicle"])
        replaces = (
            Authorization.objects.filter(jurisdiction_id__in=codes, pk=data["replaces"]).first()
            if data.get("replaces")
            else None
        )
        try:
            row = services.request_authorization(
                actor=request.user,
                jurisdiction_code=vehicle.jurisdiction_id,
                kind=data["kind"],
                vehicle=vehicle,
                person=person,
                company=company,
                requested_on=data["requested_on"],
                vehicle_acquired_on=data.get("vehicle_acquired_on"),
                replaces=replaces,
                reason=data.get("reason") or "Pedido de autorização recebido",
            )
        except ValidationError as error:
            return self._render(request, form, error.messages, status=422)
        messages.success(request, "Pedido de autorização registrado.")
        return HttpResponseRedirect(reverse("authorizations:detail", args=[row.pk]))


class AuthorizationDetail(LoginRequiredMixin, View):
    model = Authorization

    def _render(
        self,
        request: HttpRequest,
        row: Authorization,
        errors: list[str],
        status: int = 200,
        grant_form: GrantForm | None = None,
        decision_form: DecisionForm | None = None,
    ) -> HttpResponse:
        roles = permissions.roles_in(_access(request), row.jurisdiction_id)
        today = timezone.localdate()
        context = {
            "title": str(row),
            "row": row,
            "status_label": row.effective_status_label(today),
            "actions": states.actions(row, roles),
            "grant_form": grant_form or GrantForm(initial={"starts_on": today}),
            "decision_form": decision_form or DecisionForm(),
            "events": history(row)[:20],
            "errors": errors,
            "enabled": row.kind in rules.enabled_kinds(row.jurisdiction_id, today),
        }
        context.update(conditions(row))
        return render(request, "authorizations/detail.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        row = get_object_or_404(Authorization.objects.select_related("person", "company", "vehicle"), pk=pk)
        return self._render(request, row, [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        row = get_object_or_404(Authorization.objects.select_related("person", "company", "vehicle"), pk=pk)
        action = request.POST.get("acao", "")
        transition = states.BY_NAME.get(action)
        if transition is None or not transition.button:
            raise PermissionDenied("Ação desconhecida.")
        _require(request, row.jurisdiction_id, transition.roles)
        grant_form = GrantForm(request.POST) if action == "grant" else None
        decision_form = DecisionForm(request.POST) if action != "grant" else None
        form: forms.Form = grant_form or decision_form  # type: ignore[assignment]
        if not form.is_valid():
            return self._render(request, row, [], 422, grant_form, decision_form)
        data = form.cleaned_data
        try:
            if action == "grant":
                services.grant(
                    actor=request.user,
                    authorization=row,
                    number=data["number"],
                    act=data["act"],
                    starts_on=data["starts_on"],
                )
            elif action == "suspend":
                services.suspend(
                    actor=request.user,
                    authorization=row,
                    act=data.get("act", ""),
                    reasons=data["reasons"],
                    until=data.get("until"),
                )
            elif action == "revoke":
                services.revoke(
                    actor=request.user, authorization=row, act=data.get("act", ""), reasons=data["reasons"]
                )
            elif action == "refuse":
                services.refuse(
                    actor=request.user, authorization=row, act=data.get("act", ""), reasons=data["reasons"]
                )
            elif action == "reinstate":
                services.reinstate(actor=request.user, authorization=row, reasons=data["reasons"])
            else:
                services.withdraw(actor=request.user, authorization=row, reasons=data["reasons"])
        except ValidationError as error:
            return self._render(request, row, error.messages, 422, grant_form, decision_form)
        messages.success(request, DONE[action])
        return HttpResponseRedirect(reverse("authorizations:detail", args=[row.pk]))
