"""The delegation API, mounted by lotacao.api.main at /delegation (staff of the jurisdiction).

- `GET /delegation/contracts`, `GET /delegation/contracts/{id}`: contracts with their essential
  clauses (the missing ones listed), term, inquiries and extinction (the indemnity's deadline);
- `POST /delegation/contracts/{id}/inquiries`: open the caducidade inquiry (Esteio art. 37);
- `POST /delegation/inquiries/{id}/notification`, `/defense`, `/decision`: its due process;
- `POST /delegation/contracts/{id}/extinction`: another cause of art. 46 (encampação, art. 47);
- `POST /delegation/contracts/{id}/interruptions`: the immediate suspension (art. 27);
- `GET|POST /delegation/contracts/{id}/employees`: the extinct operator's employees (art. 49; the
  CPF masked in answers), `POST …/employees/{eid}/hire` and `…/refusal` on the successor's contract,
  `GET …/takeover` the obligation counted, `POST …/start` the successor's operation (refused while
  the take-over is not met);
- `GET /delegation/contracts/{id}/interventions`: the interventions in the contract's permit (arts.
  43–45; one past its deadline read as invalid), `POST /delegation/interventions/{id}/nullity` and
  `/cessation` (art. 44, § 1º; art. 45: after the accounts, or with the caducidade inquiry).
Refusals are 422 problem details in Portuguese; a row outside the scope is a 404.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.councils.models import Resolution
from lotacao.delegation import intervention, permissions, services, takeover
from lotacao.delegation.models import Contract, Extinction, FormerEmployee, Inquiry
from lotacao.enforcement.models import Intervention

router = Router(tags=["delegacao do servico"])


class DelegationExtinctionOut(Schema):
    cause: str
    cause_label: str
    extinct_on: dt.date
    act: str
    recommendation: str
    authorizing_law: str
    indemnity_due: dt.date | None
    indemnity_paid_on: dt.date | None
    indemnity: str


class DelegationInquiryOut(Schema):
    id: int
    number: str
    status: str
    status_label: str
    opened_on: dt.date
    opening_act: str
    facts: str
    notified_on: dt.date | None
    defense_due: dt.date | None
    defense_on: dt.date | None
    decided_on: dt.date | None
    decision_reasons: str


class DelegationContractOut(Schema):
    id: int
    number: str
    permit_id: int
    permit: str
    signed_on: dt.date
    starts_on: dt.date
    ends_on: dt.date
    term_citation: str
    status: str
    status_label: str
    predecessor_id: int | None
    clauses: dict[str, str]
    missing_clauses: list[str]
    inquiries: list[DelegationInquiryOut]
    extinction: DelegationExtinctionOut | None


class DelegationInquiryIn(Schema):
    number: str
    opening_act: str
    facts: str


class DelegationInquiryNotificationIn(Schema):
    notified_on: dt.date
    means: str


class DelegationDefenseIn(Schema):
    filed_on: dt.date
    text: str


class DelegationInquiryDecisionIn(Schema):
    decision: Literal["declare", "archive"]
    reasons: str
    recommendation_id: int | None = None  # the CMTT's resolution (councils)
    decree_number: str = ""
    decree_on: dt.date | None = None


class DelegationExtinctionIn(Schema):
    cause: Literal["term", "encampacao", "rescisao", "bankruptcy", "death"]
    extinct_on: dt.date
    act: str
    reasons: str
    authorizing_law: str = ""
    indemnity_amount: Decimal | None = None
    indemnity_paid_on: dt.date | None = None
    event_on: dt.date | None = None


class DelegationInterruptionIn(Schema):
    interrupted_on: dt.date
    facts: str
    suspended_until: dt.date
    excuse: Literal["", "calamity", "strike", "external"] = ""


class DelegationInterruptionOut(Schema):
    id: int
    interrupted_on: dt.date
    suspended_until: dt.date


def _roles(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    if not permissions.roles_in(getattr(request, "access", None), code) & set(roles):
        raise HttpError(403, "Seu perfil não permite esta ação.")


def _inquiry_out(row: Inquiry) -> DelegationInquiryOut:
    return DelegationInquiryOut(
        id=row.pk,
        number=row.number,
        status=row.status,
        status_label=row.get_status_display(),
        opened_on=row.opened_on,
        opening_act=row.opening_act,
        facts=row.facts,
        notified_on=row.notified_on,
        defense_due=row.defense_due,
        defense_on=row.defense_on,
        decided_on=row.decided_on,
        decision_reasons=row.decision_reasons,
    )


def _extinction_out(row: Extinction | None) -> DelegationExtinctionOut | None:
    if row is None:
        return None
    recommendation = row.recommendation.citation if row.recommendation is not None else ""
    return DelegationExtinctionOut(
        cause=row.cause,
        cause_label=row.get_cause_display(),
        extinct_on=row.extinct_on,
        act=row.act,
        recommendation=recommendation,
        authorizing_law=row.authorizing_law,
        indemnity_due=row.indemnity_due,
        indemnity_paid_on=row.indemnity_paid_on,
        indemnity=services.indemnity_state(row),
    )


def _contract_out(row: Contract) -> DelegationContractOut:
    return DelegationContractOut(
        id=row.pk,
        number=row.number,
        permit_id=row.permit_id,
        permit=str(row.permit),
        signed_on=row.signed_on,
        starts_on=row.starts_on,
        ends_on=row.ends_on,
        term_citation=row.term_citation,
        status=row.status,
        status_label=row.get_status_display(),
        predecessor_id=row.predecessor_id,
        clauses={str(k): str(v) for k, v in row.clauses.items()},
        missing_clauses=services.missing_clauses(row),
        inquiries=[_inquiry_out(i) for i in Inquiry.objects.filter(contract=row)],
        extinction=_extinction_out(Extinction.objects.filter(contract=row).first()),
    )


@router.get("/contracts", response=list[DelegationContractOut])
def list_contracts(request: HttpRequest) -> list[DelegationContractOut]:
    return [_contract_out(r) for r in Contract.objects.select_related("permit")[:200]]


@router.get("/contracts/{contract_id}", response=DelegationContractOut)
def get_contract(request: HttpRequest, contract_id: int) -> DelegationContractOut:
    return _contract_out(get_object_or_404(Contract.objects.select_related("permit"), pk=contract_id))


@router.post("/contracts/{contract_id}/inquiries", response={201: DelegationInquiryOut})
def open_inquiry(
    request: HttpRequest, contract_id: int, payload: DelegationInquiryIn
) -> tuple[int, DelegationInquiryOut]:
    contract = get_object_or_404(Contract.objects.all(), pk=contract_id)
    _roles(request, contract.jurisdiction_id, permissions.DECIDE_ROLES)
    row = services.open_inquiry(
        actor=request.user,
        contract=contract,
        number=payload.number,
        opening_act=payload.opening_act,
        facts=payload.facts,
    )
    return Status(201, _inquiry_out(row))  # type: ignore[return-value]


@router.post("/inquiries/{inquiry_id}/notification", response=DelegationInquiryOut)
def notify_inquiry(
    request: HttpRequest, inquiry_id: int, payload: DelegationInquiryNotificationIn
) -> DelegationInquiryOut:
    inquiry = get_object_or_404(Inquiry.objects.all(), pk=inquiry_id)
    _roles(request, inquiry.jurisdiction_id, permissions.RECORD_ROLES)
    row = services.notify_inquiry(
        actor=request.user, inquiry=inquiry, notified_on=payload.notified_on, means=payload.means
    )
    return _inquiry_out(row)


@router.post("/inquiries/{inquiry_id}/defense", response=DelegationInquiryOut)
def record_defense(
    request: HttpRequest, inquiry_id: int, payload: DelegationDefenseIn
) -> DelegationInquiryOut:
    inquiry = get_object_or_404(Inquiry.objects.all(), pk=inquiry_id)
    _roles(request, inquiry.jurisdiction_id, permissions.RECORD_ROLES)
    row = services.record_defense(
        actor=request.user, inquiry=inquiry, filed_on=payload.filed_on, text=payload.text
    )
    return _inquiry_out(row)


@router.post("/inquiries/{inquiry_id}/decision", response=DelegationInquiryOut)
def decide_inquiry(
    request: HttpRequest, inquiry_id: int, payload: DelegationInquiryDecisionIn
) -> DelegationInquiryOut:
    inquiry = get_object_or_404(Inquiry.objects.all(), pk=inquiry_id)
    _roles(request, inquiry.jurisdiction_id, permissions.DECIDE_ROLES)
    if payload.decision == "declare":
        services.declare_caducidade(
            actor=request.user,
            inquiry=inquiry,
            reasons=payload.reasons,
            recommendation=Resolution.objects.filter(
                jurisdiction_id=inquiry.jurisdiction_id, pk=payload.recommendation_id or 0
            ).first(),
            decree_number=payload.decree_number,
            decree_on=payload.decree_on,
        )
    else:
        services.archive_inquiry(actor=request.user, inquiry=inquiry, reasons=payload.reasons)
    return _inquiry_out(Inquiry.objects.get(pk=inquiry.pk))


@router.post("/contracts/{contract_id}/extinction", response={201: DelegationExtinctionOut})
def extinguish_contract(
    request: HttpRequest, contract_id: int, payload: DelegationExtinctionIn
) -> tuple[int, DelegationExtinctionOut | None]:
    contract = get_object_or_404(Contract.objects.select_related("permit__holder"), pk=contract_id)
    _roles(request, contract.jurisdiction_id, permissions.DECIDE_ROLES)
    row = services.extinguish(
        actor=request.user,
        contract=contract,
        cause=payload.cause,
        extinct_on=payload.extinct_on,
        act=payload.act,
        reasons=payload.reasons,
        authorizing_law=payload.authorizing_law,
        indemnity_amount=payload.indemnity_amount,
        indemnity_paid_on=payload.indemnity_paid_on,
        event_on=payload.event_on,
    )
    return Status(201, _extinction_out(row))  # type: ignore[return-value]


@router.post("/contracts/{contract_id}/interruptions", response={201: DelegationInterruptionOut})
def record_interruption(
    request: HttpRequest, contract_id: int, payload: DelegationInterruptionIn
) -> tuple[int, DelegationInterruptionOut]:
    contract = get_object_or_404(Contract.objects.select_related("permit"), pk=contract_id)
    _roles(request, contract.jurisdiction_id, permissions.DECIDE_ROLES)
    row = services.record_interruption(
        actor=request.user,
        contract=contract,
        interrupted_on=payload.interrupted_on,
        facts=payload.facts,
        until=payload.suspended_until,
        excuse=payload.excuse,
    )
    out = DelegationInterruptionOut(
        id=row.pk, interrupted_on=row.interrupted_on, suspended_until=row.suspended_until
    )
    return Status(201, out)  # type: ignore[return-value]


# --------------------------------------------------------------------------- staff take-over (art. 49)


class DelegationEmployeeIn(Schema):
    name: str
    cpf: str
    hired_on: dt.date


class DelegationEmployeeOut(Schema):
    id: int
    name: str
    cpf: str  # masked: ***.456.789-**
    hired_on: dt.date
    entitled: bool
    outcome: str
    outcome_label: str
    outcome_on: dt.date | None


class DelegationHireIn(Schema):
    on: dt.date
    note: str = ""  # the refusal's record (the offer made and the answer)


class DelegationTakeoverOut(Schema):
    applies: bool
    entitled: int
    limit: int
    required: int
    hired: int
    declined: int
    pending: int
    fulfilled: bool
    explanation: str


def _employee_out(row: dict[str, Any]) -> DelegationEmployeeOut:
    return DelegationEmployeeOut(**{k: v for k, v in row.items() if k in DelegationEmployeeOut.model_fields})


def _takeover_out(contract: Contract) -> DelegationTakeoverOut:
    duty = takeover.obligation(contract)
    return DelegationTakeoverOut(
        applies=duty.applies,
        entitled=len(duty.entitled),
        limit=duty.limit,
        required=duty.required,
        hired=duty.hired,
        declined=duty.declined,
        pending=duty.pending,
        fulfilled=duty.fulfilled,
        explanation=duty.in_words(),
    )


@router.get("/contracts/{contract_id}/employees", response=list[DelegationEmployeeOut])
def list_employees(request: HttpRequest, contract_id: int) -> list[DelegationEmployeeOut]:
    contract = get_object_or_404(Contract.objects.all(), pk=contract_id)
    extinction = Extinction.objects.filter(contract=contract).first()
    return [_employee_out(e) for e in takeover.employees_in_words(extinction)] if extinction else []


@router.post("/contracts/{contract_id}/employees", response={201: DelegationEmployeeOut})
def record_employee(
    request: HttpRequest, contract_id: int, payload: DelegationEmployeeIn
) -> tuple[int, DelegationEmployeeOut]:
    contract = get_object_or_404(Contract.objects.all(), pk=contract_id)
    _roles(request, contract.jurisdiction_id, permissions.RECORD_ROLES)
    row = takeover.record_employee(
        actor=request.user, contract=contract, name=payload.name, cpf=payload.cpf, hired_on=payload.hired_on
    )
    out = next(e for e in takeover.employees_in_words(row.extinction) if e["id"] == row.pk)
    return Status(201, _employee_out(out))  # type: ignore[return-value]


@router.get("/contracts/{contract_id}/takeover", response=DelegationTakeoverOut)
def get_takeover(request: HttpRequest, contract_id: int) -> DelegationTakeoverOut:
    return _takeover_out(get_object_or_404(Contract.objects.select_related("permit__holder"), pk=contract_id))


def _successor_and_employee(contract_id: int, employee_id: int) -> tuple[Contract, FormerEmployee]:
    contract = get_object_or_404(Contract.objects.select_related("permit__holder"), pk=contract_id)
    employee = get_object_or_404(
        FormerEmployee.objects.filter(extinction__contract_id=contract.predecessor_id or 0), pk=employee_id
    )
    return contract, employee


@router.post("/contracts/{contract_id}/employees/{employee_id}/hire", response=DelegationTakeoverOut)
def record_hire(
    request: HttpRequest, contract_id: int, employee_id: int, payload: DelegationHireIn
) -> DelegationTakeoverOut:
    contract, employee = _successor_and_employee(contract_id, employee_id)
    _roles(request, contract.jurisdiction_id, permissions.RECORD_ROLES)
    takeover.record_hire(actor=request.user, contract=contract, employee=employee, hired_on=payload.on)
    return _takeover_out(contract)


@router.post("/contracts/{contract_id}/employees/{employee_id}/refusal", response=DelegationTakeoverOut)
def record_refusal(
    request: HttpRequest, contract_id: int, employee_id: int, payload: DelegationHireIn
) -> DelegationTakeoverOut:
    contract, employee = _successor_and_employee(contract_id, employee_id)
    _roles(request, contract.jurisdiction_id, permissions.RECORD_ROLES)
    takeover.record_refusal(
        actor=request.user, contract=contract, employee=employee, refused_on=payload.on, note=payload.note
    )
    return _takeover_out(contract)


@router.post("/contracts/{contract_id}/start", response=DelegationContractOut)
def start_contract(request: HttpRequest, contract_id: int) -> DelegationContractOut:
    contract = get_object_or_404(Contract.objects.select_related("permit__holder"), pk=contract_id)
    _roles(request, contract.jurisdiction_id, permissions.DECIDE_ROLES)
    return _contract_out(takeover.start_contract(actor=request.user, contract=contract))


# --------------------------------------------------------------------------- intervention (arts. 43–45)


class DelegationInterventionOut(Schema):
    id: int
    decree: str
    decreed_on: dt.date
    interventor: str
    term_until: dt.date
    goals: str
    limits: str
    status: str
    status_label: str
    procedure_due: dt.date | None
    procedure_opened_on: dt.date | None
    conclusion_due: dt.date | None
    concluded_on: dt.date | None
    deadline: str
    outcome_note: str


class DelegationNullityIn(Schema):
    on: dt.date
    reasons: str


class DelegationCessationIn(Schema):
    on: dt.date
    accounts: str = ""
    inquiry_number: str = ""  # with an act and facts: the caducidade inquiry is proposed (art. 45)
    inquiry_act: str = ""
    inquiry_facts: str = ""


class DelegationCessationOut(Schema):
    intervention: DelegationInterventionOut
    inquiry_id: int | None


def _intervention_out(row: Intervention) -> DelegationInterventionOut:
    return DelegationInterventionOut(
        id=row.pk,
        decree=row.decree,
        decreed_on=row.decreed_on,
        interventor=row.interventor,
        term_until=row.term_until,
        goals=row.goals,
        limits=row.limits,
        status=row.status,
        status_label=row.get_status_display(),
        procedure_due=row.procedure_due,
        procedure_opened_on=row.procedure_opened_on,
        conclusion_due=row.conclusion_due,
        concluded_on=row.concluded_on,
        deadline=intervention.deadline_words(row),
        outcome_note=row.outcome_note,
    )


@router.get("/contracts/{contract_id}/interventions", response=list[DelegationInterventionOut])
def list_interventions(request: HttpRequest, contract_id: int) -> list[DelegationInterventionOut]:
    contract = get_object_or_404(Contract.objects.all(), pk=contract_id)
    return [_intervention_out(r) for r in intervention.of_contract(contract)]


def _contract_of(row: Intervention) -> Contract:
    contract: Contract | None = (
        Contract.objects.filter(permit_id=row.permit_id).exclude(status=Contract.Status.EXTINCT).first()
    )
    if contract is None:
        raise HttpError(404, "A permissão desta intervenção não tem contrato de delegação em vigor.")
    return contract


@router.post("/interventions/{intervention_id}/nullity", response=DelegationInterventionOut)
def nullify_intervention(
    request: HttpRequest, intervention_id: int, payload: DelegationNullityIn
) -> DelegationInterventionOut:
    row = get_object_or_404(Intervention.objects.all(), pk=intervention_id)
    _roles(request, row.jurisdiction_id, permissions.DECIDE_ROLES)
    done = intervention.nullify(
        actor=request.user,
        contract=_contract_of(row),
        intervention=row,
        on=payload.on,
        reasons=payload.reasons,
    )
    return _intervention_out(done)


@router.post("/interventions/{intervention_id}/cessation", response=DelegationCessationOut)
def cease_intervention(
    request: HttpRequest, intervention_id: int, payload: DelegationCessationIn
) -> DelegationCessationOut:
    row = get_object_or_404(Intervention.objects.all(), pk=intervention_id)
    _roles(request, row.jurisdiction_id, permissions.DECIDE_ROLES)
    inquiry = intervention.cease(
        actor=request.user,
        contract=_contract_of(row),
        intervention=row,
        on=payload.on,
        accounts=payload.accounts,
        inquiry_number=payload.inquiry_number,
        inquiry_act=payload.inquiry_act,
        inquiry_facts=payload.inquiry_facts,
    )
    return DelegationCessationOut(
        intervention=_intervention_out(Intervention.objects.get(pk=row.pk)),
        inquiry_id=inquiry.pk if inquiry is not None else None,
    )
