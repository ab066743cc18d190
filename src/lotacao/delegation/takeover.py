"""The staff take-over (Esteio Lei 3.839/2004, art. 49): "A pessoa jurídica que substituir a
concessionária ou permissionária, em razão de licitação dos serviços por motivo de extinção da
concessão ou permissão, contratará os empregados da empresa anterior com mais de um (01) ano de
serviço, até o limite de 02 (dois) por veículo de transporte coletivo de passageiros."

The procedure, as recorded here:

1. the extinct contract's page records the former operator's employees (name, CPF — staff only,
   never public —, hired on);
2. the successor's contract is recorded with the extinct one it replaces (`predecessor`): it is born
   *signed*, not in force;
3. for each employee entitled, the successor's hiring or the refused offer (with its record) is
   registered;
4. the successor's operation starts (`start_contract`) only once the obligation is met.

Readings taken (stated so a clerk can check them):

- "mais de um ano de serviço" is counted on the extinction's date: hired on 10/03/2025, an
  employee with the extinction on 10/03/2026 has exactly one year, not more, and is not entitled;
  on 11/03/2026 they are;
- the limit counts the vehicles of the successor's delegation: its contract's permit, which has one
  vehicle (or none yet) — two employees per vehicle;
- the obligation is met when the hires reach the smaller of (entitled, limit), or when no entitled
  employee is left without a record (every one not hired refused the offer): a refusal does not
  oblige the successor to hire someone who is not entitled;
- the law binds "a pessoa jurídica que substituir": a successor who is a natural person is not bound,
  and its contract starts without the check (the screen says why).

The minimum service and the per-vehicle limit come from the pack (`delegation.staff_takeover`);
nothing here knows the jurisdiction's name.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.core.validators import mask_cpf, normalize_cpf
from lotacao.delegation import rules, states
from lotacao.delegation.models import Contract, Extinction, FormerEmployee
from lotacao.permits.rules import add

O = FormerEmployee.Outcome  # noqa: E741


@dataclass
class Obligation:
    """The art. 49 obligation of one successor's contract, counted."""

    applies: bool
    citation: str = ""
    why_not: str = ""  # where it does not apply, in words
    extinct_on: dt.date | None = None
    min_years: int = 0
    per_vehicle: int = 0
    vehicles: int = 0
    limit: int = 0
    entitled: list[FormerEmployee] = field(default_factory=list)
    not_entitled: list[FormerEmployee] = field(default_factory=list)
    hired: int = 0
    declined: int = 0
    pending: int = 0

    @property
    def required(self) -> int:
        return min(len(self.entitled), self.limit)

    @property
    def fulfilled(self) -> bool:
        return not self.applies or self.hired >= self.required or self.pending == 0

    def in_words(self) -> str:
        if not self.applies:
            return self.why_not
        head = (
            f"Empregados da operadora anterior com mais de {rules.years_in_words(self.min_years)} de serviço "
            f"em {br_date(self.extinct_on)}: {len(self.entitled)}. Limite: {self.per_vehicle} por veículo, "
            f"{self.limit} para {self.vehicles} {'veículo' if self.vehicles == 1 else 'veículos'}. "
            f"A contratar: {self.required}. Contratados: {self.hired}. Recusaram a oferta: {self.declined}."
        )
        if self.fulfilled:
            return f"{head} Obrigação cumprida ({self.citation})."
        missing = self.required - self.hired
        return (
            f"{head} Obrigação pendente: faltam {missing} "
            f"{'contratação' if missing == 1 else 'contratações'}, e {self.pending} "
            f"{'empregado com direito está' if self.pending == 1 else 'empregados com direito estão'} "
            f"sem registro de contratação ou de recusa ({self.citation})."
        )


def entitled(employee: FormerEmployee, extinct_on: dt.date, min_years: int) -> bool:
    """More than `min_years` of service on the extinction's date (see the module's reading)."""
    return add(employee.hired_on, {"years": min_years}) < extinct_on


def vehicles_of(contract: Contract) -> int:
    return 1 if contract.permit.vehicle_id else 0


def obligation(contract: Contract) -> Obligation:
    """The art. 49 obligation of `contract` as the successor of its predecessor."""
    code = contract.jurisdiction_id
    predecessor = contract.predecessor
    if predecessor is None:
        return Obligation(applies=False, why_not="Este contrato não substitui uma delegação extinta.")
    extinction = Extinction.unscoped.filter(contract_id=predecessor.pk).first()
    assert extinction is not None  # a predecessor is extinct (record_contract)
    rule = rules.takeover_rule(code, extinction.extinct_on)
    if rule is None:
        return Obligation(
            applies=False, why_not=f"A {rules.law_name(code)} não obriga a sucessora a contratar empregados."
        )
    years, per, cite = rule
    if contract.permit.holder.company_id is None:
        return Obligation(
            applies=False,
            citation=cite,
            why_not=f"A obrigação de contratar os empregados da operadora anterior é da pessoa jurídica "
            f"que a substitui ({cite}): a titular deste contrato é pessoa física.",
        )
    rows = list(FormerEmployee.unscoped.filter(extinction=extinction))
    yes = [e for e in rows if entitled(e, extinction.extinct_on, years)]
    mine = [e for e in yes if e.successor_id in (None, contract.pk)]
    vehicles = vehicles_of(contract)
    return Obligation(
        applies=True,
        citation=cite,
        extinct_on=extinction.extinct_on,
        min_years=years,
        per_vehicle=per,
        vehicles=vehicles,
        limit=per * vehicles,
        entitled=yes,
        not_entitled=[e for e in rows if e not in yes],
        hired=sum(1 for e in mine if e.outcome == O.HIRED),
        declined=sum(1 for e in mine if e.outcome == O.DECLINED),
        pending=sum(1 for e in mine if e.outcome == O.PENDING),
    )


def employees_in_words(extinction: Extinction) -> list[dict[str, Any]]:
    """The extinct operator's employees for staff's screens and the API: the CPF masked."""
    rule = rules.takeover_rule(extinction.jurisdiction_id, extinction.extinct_on)
    years = rule[0] if rule else 0
    return [
        {
            "row": e,
            "id": e.pk,
            "name": e.name,
            "cpf": mask_cpf(e.cpf),
            "hired_on": e.hired_on,
            "entitled": rule is not None and entitled(e, extinction.extinct_on, years),
            "outcome": e.outcome,
            "outcome_label": e.get_outcome_display(),
            "outcome_on": e.outcome_on,
            "outcome_note": e.outcome_note,
        }
        for e in FormerEmployee.unscoped.filter(extinction=extinction)
    ]


# --------------------------------------------------------------------------- writes


def _text(value: str, message: str) -> str:
    if not value or not value.strip():
        raise ValidationError(message)
    return value.strip()


@transaction.atomic
def record_employee(
    *, actor: Any, contract: Contract, name: str, cpf: str, hired_on: dt.date
) -> FormerEmployee:
    """An employee of the operator whose contract was extinguished (art. 49), as its payroll shows."""
    contract = Contract.unscoped.select_for_update().get(pk=contract.pk)
    states.require_contract(contract, "employee")
    extinction = Extinction.unscoped.get(contract_id=contract.pk)
    code = contract.jurisdiction_id
    rule = rules.takeover_rule(code, extinction.extinct_on)
    if rule is None:
        raise ValidationError(f"A {rules.law_name(code)} não obriga a sucessora a contratar empregados.")
    name = _text(name, "Informe o nome do empregado.")
    digits = normalize_cpf(cpf)
    if hired_on > extinction.extinct_on:
        raise ValidationError(
            f"A admissão ({br_date(hired_on)}) é posterior à extinção ({br_date(extinction.extinct_on)}): "
            f"só contam os empregados da operadora na data da extinção ({rule[2]})."
        )
    if FormerEmployee.unscoped.filter(extinction=extinction, cpf=digits).exists():
        raise ValidationError(f"O empregado de CPF {mask_cpf(digits)} já está registrado neste contrato.")
    return create_audited(
        actor=actor,
        instance=FormerEmployee(
            jurisdiction_id=code, extinction=extinction, name=name, cpf=digits, hired_on=hired_on
        ),
        reason=f"Empregado da operadora, admitido em {br_date(hired_on)} ({rule[2]}).",
        action="delegation_employee.recorded",
    )


def _pending_for(employee: FormerEmployee, contract: Contract, action: str, day: dt.date) -> Obligation:
    contract = Contract.unscoped.select_for_update().select_related("permit__holder").get(pk=contract.pk)
    states.require_contract(contract, action)
    if contract.predecessor_id is None or employee.extinction.contract_id != contract.predecessor_id:
        raise ValidationError(f"{employee.name} não era empregado da operadora que o {contract} substitui.")
    if employee.outcome != O.PENDING:
        raise ValidationError(
            f"Já consta para {employee.name}: {lower_first(employee.get_outcome_display())} em "
            f"{br_date(employee.outcome_on)}."
        )
    duty = obligation(contract)
    if not duty.applies:
        raise ValidationError(duty.why_not)
    if employee not in duty.entitled:
        raise ValidationError(
            f"{employee.name} foi admitido em {br_date(employee.hired_on)} e não tinha mais de "
            f"{rules.years_in_words(duty.min_years)} de serviço na extinção ({br_date(duty.extinct_on)}): "
            f"não está entre os que a sucessora é obrigada a contratar ({duty.citation})."
        )
    assert duty.extinct_on is not None
    if day < duty.extinct_on or day > timezone.localdate():
        raise ValidationError(f"A data precisa estar entre a extinção ({br_date(duty.extinct_on)}) e hoje.")
    return duty


@transaction.atomic
def record_hire(
    *, actor: Any, contract: Contract, employee: FormerEmployee, hired_on: dt.date
) -> FormerEmployee:
    """The successor hired an entitled former employee (art. 49), up to the limit per vehicle."""
    employee = FormerEmployee.unscoped.select_for_update().select_related("extinction").get(pk=employee.pk)
    duty = _pending_for(employee, contract, "hire", hired_on)
    if duty.hired >= duty.limit:
        raise ValidationError(
            f"A sucessora já contratou {duty.hired} empregados, o limite de {duty.per_vehicle} por veículo "
            f"para {duty.vehicles} {'veículo' if duty.vehicles == 1 else 'veículos'} ({duty.citation}): uma "
            "contratação além dele não é obrigação da lei e não se registra aqui."
        )
    return update_audited(
        actor=actor,
        instance=employee,
        changes={"outcome": O.HIRED, "successor": contract, "outcome_on": hired_on},
        reason=f"Contratado pela sucessora em {br_date(hired_on)} ({duty.citation}).",
        action="delegation_employee.hired",
    )


@transaction.atomic
def record_refusal(
    *, actor: Any, contract: Contract, employee: FormerEmployee, refused_on: dt.date, note: str
) -> FormerEmployee:
    """An entitled former employee refused the successor's offer of employment: recorded with the
    offer and the refusal (the document, the date), it counts for the obligation (art. 49)."""
    employee = FormerEmployee.unscoped.select_for_update().select_related("extinction").get(pk=employee.pk)
    note = _text(
        note,
        "Informe o registro da recusa: a oferta feita e a resposta do empregado (documento, data).",
    )
    duty = _pending_for(employee, contract, "decline", refused_on)
    return update_audited(
        actor=actor,
        instance=employee,
        changes={
            "outcome": O.DECLINED,
            "successor": contract,
            "outcome_on": refused_on,
            "outcome_note": note,
        },
        reason=f"Recusou a oferta da sucessora em {br_date(refused_on)}: {note} ({duty.citation}).",
        action="delegation_employee.declined",
    )


@transaction.atomic
def start_contract(*, actor: Any, contract: Contract, on: dt.date | None = None) -> Contract:
    """The successor's operation starts: refused while the staff take-over of art. 49 is not met."""
    day = on or timezone.localdate()
    contract = Contract.unscoped.select_for_update().select_related("permit__holder").get(pk=contract.pk)
    states.require_contract(contract, "start")
    if day < contract.starts_on:
        raise ValidationError(f"A vigência do contrato começa em {br_date(contract.starts_on)}.")
    duty = obligation(contract)
    if not duty.fulfilled:
        raise ValidationError(f"A operação não pode começar. {duty.in_words()}")
    return update_audited(
        actor=actor,
        instance=contract,
        changes={"status": Contract.Status.IN_FORCE},
        reason=f"Início da operação em {br_date(day)}. {duty.in_words()}",
        action="delegation_contract.started",
    )
