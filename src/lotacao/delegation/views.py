"""The screens of the delegation (`/delegacao/`): the contracts of the permits with their essential
clauses and term, the interruption and immediate suspension, the caducidade inquiry step by step,
the extinction (encampação and the other causes), the reversible assets and the indemnity's
deadline. Staff only; rows come through the scoped managers (a row outside the scope is a 404).
Where the jurisdiction's law has no such procedure the screen says so."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.councils import gates
from lotacao.councils.models import Resolution
from lotacao.delegation import intervention, permissions, rules, services, states, takeover
from lotacao.delegation.models import (
    Consortium,
    Contract,
    Extinction,
    FormerEmployee,
    Inquiry,
    ReversibleAsset,
)
from lotacao.enforcement.models import Intervention
from lotacao.permits.models import Permit


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _codes(request: HttpRequest, roles: tuple[str, ...]) -> list[str]:
    return permissions.jurisdictions_for(_access(request), roles)


def _require(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    if not permissions.roles_in(_access(request), code) & set(roles):
        raise PermissionDenied("Seu perfil não permite esta ação.")


def date_from(raw: str, label: str, required: bool = True) -> dt.date | None:
    """A date typed as ISO (the browser's date input) or dd/mm/aaaa."""
    raw = (raw or "").strip()
    if not raw and not required:
        return None
    try:
        if "/" in raw:
            day, month, year = (int(part) for part in raw.split("/"))
            return dt.date(year, month, day)
        return dt.date.fromisoformat(raw)
    except ValueError as error:
        raise ValidationError(f"Informe {label} (dd/mm/aaaa).") from error


def money_from(raw: str, label: str) -> Decimal | None:
    raw = (raw or "").strip().replace("R$", "").strip()
    if not raw:
        return None
    if "," in raw:
        raw = raw.replace(".", "").replace(",", ".")
    try:
        return Decimal(raw)
    except InvalidOperation as error:
        raise ValidationError(f"Informe {label} em reais (ex.: 1.500,00).") from error


def _resolution(code: str, raw: str) -> Resolution | None:
    """The council's act chosen in the form (None: none chosen; the gate says what is missing)."""
    if not (raw or "").strip().isdigit():
        return None
    return Resolution.objects.filter(jurisdiction_id=code, pk=int(raw)).select_related("council").first()


def _must(value: dt.date | None) -> dt.date:
    assert value is not None
    return value


class ContractList(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        codes = _codes(request, permissions.VIEW_ROLES)
        if not codes:
            raise PermissionDenied("Seu perfil não tem acesso à delegação do serviço.")
        today = timezone.localdate()
        applies = [c for c in codes if rules.applies(c, today)]
        return render(
            request,
            "delegation/contracts.html",
            {
                "title": "Delegação do serviço",
                "rows": Contract.objects.select_related("permit__holder__person", "permit__holder__company")[
                    :200
                ],
                "applies": applies,
                "not_applicable": [rules.not_applicable(c) for c in codes if c not in applies],
                "can_record": any(
                    permissions.roles_in(_access(request), c) & set(permissions.RECORD_ROLES) for c in applies
                ),
            },
        )


class ContractCreate(LoginRequiredMixin, View):
    def _codes(self, request: HttpRequest) -> list[str]:
        today = timezone.localdate()
        return [c for c in _codes(request, permissions.RECORD_ROLES) if rules.applies(c, today)]

    def _render(self, request: HttpRequest, errors: list[str], data: Any, status: int = 200) -> HttpResponse:
        codes = self._codes(request)
        today = timezone.localdate()
        clauses = rules.clauses(codes[0], today) if codes else {}
        return render(
            request,
            "delegation/contract_form.html",
            {
                "title": "Registrar contrato de delegação",
                "permits": Permit.objects.filter(
                    jurisdiction_id__in=codes, status__in=Permit.LIVE
                ).select_related("holder__person", "holder__company"),
                "clauses": [(k, v, data.get(f"clausula_{k}", "")) for k, v in clauses.items()],
                "citation": rules.clauses_citation(codes[0], today) if codes else "",
                "predecessors": Contract.objects.filter(
                    jurisdiction_id__in=codes, status=Contract.Status.EXTINCT, successor__isnull=True
                ).select_related("permit"),
                "takeover_citation": rules.cited(codes[0], "art. 49") if codes else "",
                "errors": errors,
                "data": data,
            },
            status=status,
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        if not self._codes(request):
            raise PermissionDenied("Seu perfil não permite registrar contratos de delegação.")
        return self._render(request, [], {})

    def post(self, request: HttpRequest) -> HttpResponse:
        codes = self._codes(request)
        if not codes:
            raise PermissionDenied("Seu perfil não permite registrar contratos de delegação.")
        data = request.POST
        try:
            permit = Permit.objects.filter(jurisdiction_id__in=codes, pk=data.get("permissao") or 0).first()
            if permit is None:
                raise ValidationError("Escolha a permissão do contrato.")
            predecessor = None
            if (data.get("anterior") or "").strip():
                predecessor = Contract.objects.filter(
                    jurisdiction_id__in=codes, pk=data.get("anterior") if data["anterior"].isdigit() else 0
                ).first()
                if predecessor is None:
                    raise ValidationError("Escolha o contrato extinto que este substitui.")
            contract = services.record_contract(
                actor=request.user,
                permit=permit,
                number=data.get("numero", ""),
                signed_on=_must(date_from(data.get("assinado_em", ""), "a data da assinatura")),
                starts_on=date_from(data.get("inicio", ""), "o início da vigência", required=False),
                clauses={k[len("clausula_") :]: data.get(k, "") for k in data if k.startswith("clausula_")},
                predecessor=predecessor,
                reason=data.get("motivo", "") or "Registro do contrato assinado",
            )
        except ValidationError as error:
            return self._render(request, error.messages, data, status=422)
        messages.success(request, "Contrato registrado.")
        return HttpResponseRedirect(reverse("delegation:contract", args=[contract.pk]))


class ContractDetail(LoginRequiredMixin, View):
    model = Contract

    def _render(
        self, request: HttpRequest, contract: Contract, errors: list[str], status: int = 200
    ) -> HttpResponse:
        code = contract.jurisdiction_id
        roles = permissions.roles_in(_access(request), code)
        extinction = Extinction.objects.filter(contract=contract).first()
        clauses = rules.clauses(code, contract.signed_on)
        causes = rules.causes(code, timezone.localdate())
        return render(
            request,
            "delegation/contract.html",
            {
                "title": str(contract),
                "row": contract,
                "clauses": [(k, v, contract.clauses.get(k, "")) for k, v in clauses.items()],
                "missing": services.missing_clauses(contract),
                "citation": rules.clauses_citation(code, contract.signed_on),
                "inquiries": Inquiry.objects.filter(contract=contract),
                "interruptions": contract.interruptions.all(),
                "assets": ReversibleAsset.objects.filter(contract=contract),
                "asset_kinds": ReversibleAsset.Kind.choices,
                "extinction": extinction,
                "indemnity": services.indemnity_state(extinction) if extinction else "",
                "indemnity_citation": rules.cited(code, "art. 46, § 2º"),
                "staff_takeover": rules.staff_takeover(
                    code, timezone.localdate(), 1 if contract.permit.vehicle_id else 0
                ),
                "employees": takeover.employees_in_words(extinction) if extinction else [],
                "successor": Contract.objects.filter(predecessor=contract).first(),
                "takeover": takeover.obligation(contract) if contract.predecessor_id else None,
                "offered": self._offered(contract),
                "takeover_citation": rules.cited(code, "art. 49"),
                "interventions": [
                    (row, intervention.deadline_words(row), intervention.TABLE.actions(row.status, roles))
                    for row in intervention.of_contract(contract)
                ],
                "intervention_citation": rules.cited(code, "arts. 43 a 45"),
                "causes": [
                    (k, Extinction.Cause(k).label, v)
                    for k, v in causes.items()
                    if k not in services.THROUGH_INQUIRY
                ],
                "actions": {t.name for t in states.contract_actions(contract, roles)},
                "can_record": bool(roles & set(permissions.RECORD_ROLES)),
                "can_decide": bool(roles & set(permissions.DECIDE_ROLES)),
                "events": history(contract)[:20],
                "errors": errors,
            },
            status=status,
        )

    @staticmethod
    def _offered(contract: Contract) -> list[dict[str, Any]]:
        """The predecessor's employees the successor is to hire (entitled ones), with their record."""
        if contract.predecessor_id is None:
            return []
        extinction = Extinction.objects.filter(contract_id=contract.predecessor_id).first()
        if extinction is None:
            return []
        return [e for e in takeover.employees_in_words(extinction) if e["entitled"]]

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        contract = get_object_or_404(Contract.objects.select_related("permit__holder"), pk=pk)
        return self._render(request, contract, [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        contract = get_object_or_404(Contract.objects.select_related("permit__holder"), pk=pk)
        code = contract.jurisdiction_id
        data = request.POST
        action = data.get("acao", "")
        try:
            if action == "interrupt":
                _require(request, code, permissions.DECIDE_ROLES)
                services.record_interruption(
                    actor=request.user,
                    contract=contract,
                    interrupted_on=_must(date_from(data.get("interrompido_em", ""), "a data da interrupção")),
                    facts=data.get("fatos", ""),
                    until=_must(date_from(data.get("ate", ""), "a data final da suspensão")),
                    excuse=data.get("excludente", ""),
                )
                done = "Interrupção registrada e permissão suspensa."
            elif action == "open_inquiry":
                _require(request, code, permissions.DECIDE_ROLES)
                inquiry = services.open_inquiry(
                    actor=request.user,
                    contract=contract,
                    number=data.get("numero", ""),
                    opening_act=data.get("ato", ""),
                    facts=data.get("fatos", ""),
                )
                messages.success(request, "Inquérito de caducidade instaurado.")
                return HttpResponseRedirect(reverse("delegation:inquiry", args=[inquiry.pk]))
            elif action == "extinguish":
                _require(request, code, permissions.DECIDE_ROLES)
                services.extinguish(
                    actor=request.user,
                    contract=contract,
                    cause=data.get("causa", ""),
                    extinct_on=_must(date_from(data.get("extinto_em", ""), "a data da extinção")),
                    act=data.get("ato", ""),
                    reasons=data.get("razoes", ""),
                    authorizing_law=data.get("lei_autorizativa", ""),
                    indemnity_amount=money_from(data.get("indenizacao", ""), "o valor da indenização"),
                    indemnity_paid_on=date_from(
                        data.get("indenizacao_paga_em", ""), "a data do pagamento", False
                    ),
                    event_on=date_from(data.get("evento_em", ""), "a data do evento", required=False),
                )
                done = "Extinção registrada."
            elif action == "employee":
                _require(request, code, permissions.RECORD_ROLES)
                takeover.record_employee(
                    actor=request.user,
                    contract=contract,
                    name=data.get("nome", ""),
                    cpf=data.get("cpf", ""),
                    hired_on=_must(date_from(data.get("admitido_em", ""), "a data de admissão")),
                )
                done = "Empregado registrado."
            elif action in ("hire", "decline"):
                _require(request, code, permissions.RECORD_ROLES)
                employee = get_object_or_404(
                    FormerEmployee.objects.filter(extinction__contract_id=contract.predecessor_id or 0),
                    pk=data.get("empregado") or 0,
                )
                day = _must(date_from(data.get("em", ""), "a data"))
                if action == "hire":
                    takeover.record_hire(
                        actor=request.user, contract=contract, employee=employee, hired_on=day
                    )
                    done = "Contratação registrada."
                else:
                    takeover.record_refusal(
                        actor=request.user,
                        contract=contract,
                        employee=employee,
                        refused_on=day,
                        note=data.get("registro", ""),
                    )
                    done = "Recusa registrada."
            elif action in ("cease_intervention", "nullify_intervention"):
                _require(request, code, permissions.DECIDE_ROLES)
                row = get_object_or_404(
                    Intervention.objects.filter(permit_id=contract.permit_id),
                    pk=data.get("intervencao") or 0,
                )
                day = _must(date_from(data.get("em", ""), "a data"))
                if action == "nullify_intervention":
                    intervention.nullify(
                        actor=request.user,
                        contract=contract,
                        intervention=row,
                        on=day,
                        reasons=data.get("razoes", ""),
                    )
                    done = "Nulidade declarada: serviço devolvido, com direito à indenização."
                else:
                    proposed = intervention.cease(
                        actor=request.user,
                        contract=contract,
                        intervention=row,
                        on=day,
                        accounts=data.get("contas", ""),
                        inquiry_number=data.get("numero", ""),
                        inquiry_act=data.get("ato", ""),
                        inquiry_facts=data.get("fatos", ""),
                    )
                    if proposed is not None:
                        messages.success(request, "Intervenção cessada; inquérito de caducidade instaurado.")
                        return HttpResponseRedirect(reverse("delegation:inquiry", args=[proposed.pk]))
                    done = "Intervenção cessada: administração devolvida após a prestação de contas."
            elif action == "start":
                _require(request, code, permissions.DECIDE_ROLES)
                takeover.start_contract(actor=request.user, contract=contract)
                done = "Operação iniciada: o contrato está em vigor."
            elif action == "asset":
                _require(request, code, permissions.RECORD_ROLES)
                services.add_asset(
                    actor=request.user,
                    contract=contract,
                    kind=data.get("tipo", ""),
                    description=data.get("descricao", ""),
                    appraised_value=money_from(data.get("valor", ""), "o valor apurado"),
                )
                done = "Bem reversível registrado."
            elif action == "return_asset":
                _require(request, code, permissions.RECORD_ROLES)
                asset = get_object_or_404(
                    ReversibleAsset.objects.filter(contract=contract), pk=data.get("bem") or 0
                )
                services.return_asset(
                    actor=request.user,
                    asset=asset,
                    returned_on=_must(date_from(data.get("revertido_em", ""), "a data da reversão")),
                )
                done = "Reversão registrada."
            elif action == "pay_indemnity":
                _require(request, code, permissions.RECORD_ROLES)
                extinction = get_object_or_404(Extinction.objects.filter(contract=contract))
                amount = money_from(data.get("valor", ""), "o valor pago")
                if amount is None:
                    raise ValidationError("Informe o valor pago da indenização.")
                services.record_indemnity_payment(
                    actor=request.user,
                    extinction=extinction,
                    amount=amount,
                    paid_on=_must(date_from(data.get("pago_em", ""), "a data do pagamento")),
                )
                done = "Pagamento da indenização registrado."
            else:
                raise PermissionDenied("Ação desconhecida.")
        except ValidationError as error:
            return self._render(request, contract, error.messages, status=422)
        messages.success(request, done)
        return HttpResponseRedirect(reverse("delegation:contract", args=[contract.pk]))


class InquiryDetail(LoginRequiredMixin, View):
    model = Inquiry

    def _render(
        self, request: HttpRequest, inquiry: Inquiry, errors: list[str], status: int = 200
    ) -> HttpResponse:
        roles = permissions.roles_in(_access(request), inquiry.jurisdiction_id)
        return render(
            request,
            "delegation/inquiry.html",
            {
                "title": f"{inquiry} — caducidade",
                "row": inquiry,
                "contract": inquiry.contract,
                "citation": f"{rules.cited(inquiry.jurisdiction_id, 'art. 37')}; art. 46, § 3º",
                "actions": states.inquiry_actions(inquiry, roles),
                "gate": gates.explain(inquiry.jurisdiction_id, "permit.extinction"),
                "resolutions": gates.valid_resolutions(
                    inquiry.jurisdiction_id, "permit.extinction", timezone.localdate()
                ),
                "today": timezone.localdate(),
                "events": history(inquiry)[:20],
                "errors": errors,
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        inquiry = get_object_or_404(Inquiry.objects.select_related("contract__permit"), pk=pk)
        return self._render(request, inquiry, [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        inquiry = get_object_or_404(Inquiry.objects.select_related("contract__permit"), pk=pk)
        roles = permissions.roles_in(_access(request), inquiry.jurisdiction_id)
        transition = states.INQUIRY_BY_NAME.get(request.POST.get("acao", ""))
        if transition is None or not set(transition.roles) & roles:
            raise PermissionDenied("Seu perfil não permite esta ação.")
        data = request.POST
        try:
            if transition.name == "notify":
                services.notify_inquiry(
                    actor=request.user,
                    inquiry=inquiry,
                    notified_on=_must(date_from(data.get("notificado_em", ""), "a data da notificação")),
                    means=data.get("meio", ""),
                )
            elif transition.name == "defend":
                services.record_defense(
                    actor=request.user,
                    inquiry=inquiry,
                    filed_on=_must(date_from(data.get("apresentada_em", ""), "a data da defesa")),
                    text=data.get("defesa", ""),
                )
            elif transition.name == "declare":
                services.declare_caducidade(
                    actor=request.user,
                    inquiry=inquiry,
                    reasons=data.get("razoes", ""),
                    recommendation=_resolution(inquiry.jurisdiction_id, data.get("recomendacao", "")),
                    decree_number=data.get("decreto", ""),
                    decree_on=date_from(data.get("decreto_em", ""), "a data do decreto", required=False),
                )
            else:
                services.archive_inquiry(actor=request.user, inquiry=inquiry, reasons=data.get("razoes", ""))
        except ValidationError as error:
            return self._render(request, inquiry, error.messages, status=422)
        messages.success(request, "Registrado.")
        return HttpResponseRedirect(reverse("delegation:inquiry", args=[inquiry.pk]))


class ConsortiumList(LoginRequiredMixin, View):
    """The operating consortia (art. 19, § 5º): proposed with their rules, approved or not by the
    granting authority."""

    def _render(self, request: HttpRequest, errors: list[str], status: int = 200) -> HttpResponse:
        codes = _codes(request, permissions.VIEW_ROLES)
        if not codes:
            raise PermissionDenied("Seu perfil não tem acesso à delegação do serviço.")
        today = timezone.localdate()
        applies = [c for c in codes if rules.applies(c, today)]
        access = _access(request)
        rows = [
            (row, states.consortium_actions(row, permissions.roles_in(access, row.jurisdiction_id)))
            for row in Consortium.objects.prefetch_related("contracts")[:200]
        ]
        return render(
            request,
            "delegation/consortia.html",
            {
                "title": "Consórcios operacionais",
                "rows": rows,
                "applies": applies,
                "not_applicable": [rules.not_applicable(c) for c in codes if c not in applies],
                "contracts": Contract.objects.filter(
                    jurisdiction_id__in=[
                        c for c in applies if c in _codes(request, permissions.RECORD_ROLES)
                    ],
                    status=Contract.Status.IN_FORCE,
                ),
                "citation": rules.cited(applies[0], "art. 19, § 5º") if applies else "",
                "errors": errors,
            },
            status=status,
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self._render(request, [])

    def post(self, request: HttpRequest) -> HttpResponse:
        data = request.POST
        action = data.get("acao", "")
        try:
            if action == "propose":
                codes = _codes(request, permissions.RECORD_ROLES)
                ids = [int(v) for v in data.getlist("contratos") if v.isdigit()]
                chosen = list(Contract.objects.filter(jurisdiction_id__in=codes, pk__in=ids))
                if not codes:
                    raise PermissionDenied("Seu perfil não permite esta ação.")
                services.propose_consortium(
                    actor=request.user,
                    contracts=chosen,
                    name=data.get("nome", ""),
                    rules_text=data.get("regras", ""),
                )
                done = "Consórcio registrado: aguarda a aprovação do poder concedente."
            elif action in states.CONSORTIUM_BY_NAME:
                row = get_object_or_404(Consortium.objects.all(), pk=data.get("consorcio") or 0)
                _require(request, row.jurisdiction_id, states.CONSORTIUM_BY_NAME[action].roles)
                services.decide_consortium(
                    actor=request.user,
                    consortium=row,
                    approve=action == "approve",
                    act=data.get("ato", ""),
                    reasons=data.get("razoes", ""),
                )
                done = "Decisão registrada."
            else:
                raise PermissionDenied("Ação desconhecida.")
        except ValidationError as error:
            return self._render(request, error.messages, status=422)
        messages.success(request, done)
        return HttpResponseRedirect(reverse("delegation:consortia"))
