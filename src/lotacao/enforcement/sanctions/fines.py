"""Fines of infraction notices: the amount (in BRL, or in a fiscal unit converted at its value on
the payment date), the due date the law gives (or the agency sets where the law is silent), the
payment slip, the payment, and what the law lets the agency do when a fine is not paid.

Everything that differs per law is read from the pack through `lotacao.core.law`:
- `fine.due`: `defense_deadline` (due at the end of the first instance's deadline counted from the
  service of the notice; a defense at an instance whose `payment` is `postpones` postpones it until
  the decision; a rejected defense falls due on the date the decision is served —
  `after_rejection: decision_served`), `after_final` (the engine deadline `deadline` counted from
  the final decision), or undefined: the clerk gives the due date when issuing the slip.
- `process.instances[].payment`: `postpones` / `suspends` (a pending filing contests the fine; if
  the body has not judged by the due date the fine is suspended and, when the appeal is refused, a
  new slip with a new due date is needed) / `none`; `fine_paid_first` (an appeal accepted only
  after the fine is paid within the engine deadline, see `paid_before_appeal_deadline`).
- `fiscal_unit.<unit>`: dated values the agency supplies (core.AgencyValue); a unit fine is
  converted at the value in force on the payment date (reading of "vigente ao mês do pagamento":
  the agency records each value from the first day it is in force, so the value in force on the
  payment date is the month's value).
- `fine.nonpayment`: `credit_offset` and `suspension_after_unpaid` are only pointed out to a
  manager (work items); the manager's act is recorded by `offset_fine` (or the permit's own
  suspension transition). `block_clearance_unless_defended` is billing's clearance: an overdue,
  uncontested Charge blocks.

Charges: a holder's fine gets a billing Charge (kind fine, reference = notice number) as soon as
its due date is known and an amount can be stated: the BRL amount, or for a unit fine the units at
the unit value in force that day (an estimate, stated in the description, replaced by the
converted amount at payment); without a known unit value the Charge is created at payment. Fines
of clandestine offenders (no holder) have none.

`sync_fine` is idempotent: the lead's process code calls it after every event of the notice.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from lotacao.billing import services as billing
from lotacao.billing.models import Charge
from lotacao.core.formats import br_date, brl
from lotacao.core.law import entry, next_business_day_after, value
from lotacao.core.services import create_audited, update_audited
from lotacao.enforcement.due_process.procedure import instances, run_deadline, short_cites
from lotacao.enforcement.models import (
    AGENT_KINDS,
    Decision,
    Filing,
    Fine,
    InfractionNotice,
)
from lotacao.enforcement.reading import infraction_day as _infraction_day
from lotacao.enforcement.reading import silence
from lotacao.workqueue.services import WorkItemSpec

Status = Fine.Status
OFFSET_KIND = "enforcement.fine_offset"
SUSPENSION_KIND = "enforcement.fine_suspension"
CENT = Decimal("0.01")
CLOSED = (Status.PAID, Status.OFFSET, Status.CANCELLED, Status.REFUNDED)
REJECTED = (Decision.Outcome.UPHELD, Decision.Outcome.CHANGED, Decision.Outcome.NOT_KNOWN)
SYNC_REASON = "Multa recalculada após evento do processo"
AGENCY_DUE = "Vencimento informado pelo órgão"


# ----------------------------------------------------------------------------------- law helpers


def fine_terms(penalty: dict[str, Any] | None) -> dict[str, Any] | None:
    """The fine of a penalty JSON: {"amount"} in BRL or {"units", "unit"}; None without a fine."""
    for item in (penalty or {}).get("penalties", []) or []:
        if item.get("type") != "fine":
            continue
        if item.get("amount") not in (None, ""):
            amount = Decimal(str(item["amount"])).quantize(CENT)
            return {"amount": amount, "units": None, "unit": ""}
        if item.get("units") not in (None, "") and item.get("unit"):
            return {"amount": None, "units": Decimal(str(item["units"])), "unit": str(item["unit"])}
    return None


def _deadline(code: str, deadline: str, start: dt.date) -> tuple[dt.date | None, list[str], str]:
    result = run_deadline(code, deadline, start)
    return result["due"], result["citations"], result["explanation"]


def unit_value(code: str, unit: str, on: dt.date) -> tuple[Decimal | None, str, str]:
    """(value of the fiscal unit in force on `on` or None, citation, why it is missing)."""
    parameter = f"fiscal_unit.{unit}"
    found = entry(code, parameter, on)
    if found is None:
        return None, "", f"a lei não define a unidade fiscal {unit}"
    if found.status != "value":
        return None, str(found.citation), (found.reason or "valor não informado").strip().rstrip(".")
    return Decimal(str(found.value)), str(found.citation), ""


def _nonpayment(code: str, on: dt.date, effect: str) -> dict[str, Any] | None:
    for item in value(code, "fine.nonpayment", on) or []:
        if item.get("effect") == effect:
            return dict(item)
    return None


# --------------------------------------------------------------------------------------- the plan


@dataclass
class Plan:
    status: str
    due_on: dt.date | None
    explanation: str
    citations: list[str] = field(default_factory=list)
    contested: bool = False
    note: str = ""
    new_slip: bool = False


def _process(notice: InfractionNotice) -> tuple[list[Filing], list[Decision]]:
    filings = list(Filing.unscoped.filter(notice=notice).order_by("filed_at", "id"))
    decisions = list(Decision.unscoped.filter(notice=notice).order_by("decided_on", "id"))
    return filings, decisions


def _pending(filings: list[Filing], decisions: list[Decision], effects: dict[str, str]) -> list[Filing]:
    """Filings in time, not yet decided, at an instance whose payment effect is postpones/suspends."""
    decided = {d.filing_id for d in decisions if d.filing_id}
    return [
        f
        for f in filings
        if not f.late
        and f.pk not in decided
        and f.status in (Filing.Status.PENDING, Filing.Status.DILIGENCE)
        and effects.get(f.instance) in ("postpones", "suspends")
    ]


def _plan(fine: Fine, notice: InfractionNotice, on: dt.date) -> Plan:
    code = notice.jurisdiction_id
    day = _infraction_day(notice)
    steps = instances(code, day)
    effects = {str(i.get("id")): str(i.get("payment", "none")) for i in steps}
    filings, decisions = _process(notice)
    pending = _pending(filings, decisions, effects)
    found = entry(code, "fine.due", day)
    rule = found.value if found is not None and found.status == "value" else None
    due_cite = str(found.citation) if found is not None else ""
    if rule is None:
        return _plan_agency(fine, steps, effects, pending, decisions, on, code, day)
    if rule.get("rule") == "after_final":
        final = next((d for d in reversed(decisions) if d.final and d.final_on), None)
        if final is None or final.final_on is None:
            return Plan(
                Status.AWAITING,
                None,
                f"A multa só é exigível depois da decisão definitiva ({due_cite}).",
                [due_cite],
            )
        due, cites, text = _deadline(code, str(rule.get("deadline")), final.final_on)
        return Plan(
            Status.OPEN, due, f"Decisão definitiva em {br_date(final.final_on)}. {text}", [due_cite, *cites]
        )
    # defense_deadline: due at the end of the first instance's deadline from the service
    first = next((i for i in steps if i.get("starts") == "served"), steps[0] if steps else {})
    if notice.served_on is None:
        return Plan(
            Status.AWAITING,
            None,
            f"A multa vence com o fim do prazo de defesa, contado da notificação, ainda não registrada "
            f"({due_cite}).",
            [due_cite],
        )
    if pending:
        filing = pending[0]
        return Plan(
            Status.AWAITING,
            None,
            f"{filing.instance_name} protocolada em {br_date(timezone.localdate(filing.filed_at))} "
            f"(protocolo {filing.receipt}): o vencimento fica adiado até a decisão ({due_cite}).",
            [due_cite, *short_cites(next((i for i in steps if i.get("id") == filing.instance), {}))],
            contested=True,
        )
    postponing = {k for k, v in effects.items() if v == "postpones"}
    rejection = next(
        (
            d
            for d in reversed(decisions)
            if d.instance in postponing and d.filing_id and d.outcome in REJECTED
        ),
        None,
    )
    if rejection is not None and rule.get("after_rejection") == "decision_served":
        if rejection.served_on is None:
            return Plan(
                Status.AWAITING,
                None,
                f"Defesa julgada improcedente em {br_date(rejection.decided_on)}: a multa vence no "
                f"recebimento da decisão, ainda não registrado ({due_cite}).",
                [due_cite],
                contested=True,
            )
        return Plan(
            Status.OPEN,
            rejection.served_on,
            f"Defesa julgada improcedente: a multa vence na data do recebimento da decisão, "
            f"{br_date(rejection.served_on)} ({due_cite}).",
            [due_cite],
        )
    deadline = first.get("deadline")
    if not deadline:
        reason, cite = silence(code, "fine.due", day)
        return Plan(Status.OPEN, fine.due_on, f"Prazo de defesa indefinido: {reason} ({cite}).", [due_cite])
    due, cites, text = _deadline(code, str(deadline), notice.served_on)
    return Plan(
        Status.OPEN,
        due,
        f"Sem defesa, a multa vence com o fim do prazo de defesa ({due_cite}). {text}",
        list(dict.fromkeys([due_cite, *cites])),
    )


def _plan_agency(
    fine: Fine,
    instances: list[dict[str, Any]],
    effects: dict[str, str],
    pending: list[Filing],
    decisions: list[Decision],
    on: dt.date,
    code: str,
    day: dt.date,
) -> Plan:
    """The law gives no due date: the agency's (from the slip), with the suspensive appeal."""
    reason, cite = silence(code, "fine.due", day)
    if fine.due_on is not None and fine.due_explanation.startswith(AGENCY_DUE):
        base = fine.due_explanation  # as the slip stated it
    elif fine.due_on is not None:
        base = f"{AGENCY_DUE}: {br_date(fine.due_on)} ({reason}; {cite})."
    else:
        base = f"A lei não fixa o vencimento ({reason}; {cite}): o órgão informa a data ao emitir a guia."
    by_id = {str(i.get("id")): i for i in instances}
    if pending:
        filing = pending[0]
        cites = [cite, *short_cites(by_id.get(filing.instance, {}))]
        if effects.get(filing.instance) == "postpones":
            return Plan(Status.AWAITING, fine.due_on, base, cites, contested=True)
        if fine.status == Status.SUSPENDED or (fine.due_on is not None and on > fine.due_on):
            return Plan(
                Status.SUSPENDED,
                fine.due_on,
                base,
                cites,
                contested=True,
                note=(
                    f"{filing.instance_name} (protocolo {filing.receipt}) não julgado até o vencimento: "
                    f"aplicação da multa suspensa; se indeferido, emite-se nova guia "
                    f"({', '.join(short_cites(by_id.get(filing.instance, {})))})."
                ),
            )
        return Plan(
            Status.OPEN,
            fine.due_on,
            base,
            cites,
            contested=True,
        )
    suspending = {k for k, v in effects.items() if v == "suspends"}
    refused = next(
        (
            d
            for d in reversed(decisions)
            if d.instance in suspending and d.filing_id and d.outcome in REJECTED
        ),
        None,
    )
    if refused is not None and (
        fine.status == Status.SUSPENDED or (fine.due_on is not None and refused.decided_on > fine.due_on)
    ):
        cites = short_cites(by_id.get(refused.instance, {}))
        return Plan(
            Status.OPEN,
            None,
            f"Recurso indeferido em {br_date(refused.decided_on)}, depois do vencimento: emite-se nova "
            f"guia com novo vencimento ({', '.join(cites)}).",
            [cite, *cites],
            note="Aguardando nova guia de pagamento.",
            new_slip=True,
        )
    kept = base == fine.due_explanation and fine.due_citations
    return Plan(Status.OPEN, fine.due_on, base, list(fine.due_citations) if kept else [cite])


def _terms_in_force(notice: InfractionNotice, decisions: list[Decision]) -> tuple[dict[str, Any] | None, str]:
    """(the fine of the penalty in force, why it is cancelled or "")."""
    if notice.status in (InfractionNotice.Status.ANNULLED, InfractionNotice.Status.ARCHIVED):
        return None, f"Auto {notice.get_status_display().lower()}: multa cancelada."
    terms = fine_terms(notice.penalty)
    for decision in decisions:
        if decision.outcome == Decision.Outcome.ANNULLED:
            return None, f"Auto anulado pela decisão de {br_date(decision.decided_on)}: multa cancelada."
        if decision.outcome == Decision.Outcome.CHANGED and decision.penalty:
            terms = fine_terms(decision.penalty)
            if terms is None:
                return None, (
                    f"Penalidade alterada sem multa pela decisão de {br_date(decision.decided_on)}: "
                    "multa cancelada."
                )
    return terms, ""


# ------------------------------------------------------------------------------------- charges


def _charge_amount(fine: Fine, on: dt.date) -> tuple[Decimal | None, str]:
    if fine.amount is not None:
        return fine.amount, ""
    if fine.units is None:
        return None, ""
    rate, cite, _ = unit_value(fine.jurisdiction_id, fine.unit, on)
    if rate is None:
        return None, ""
    amount = (fine.units * rate).quantize(CENT, ROUND_HALF_UP)
    return amount, (
        f" — estimada em {fine.units:g} {fine.unit} × {brl(rate)} ({br_date(on)}, {cite}); "
        "convertida pelo valor vigente na data do pagamento"
    )


def _sync_charge(actor: Any, fine: Fine, *, contested: bool, on: dt.date, reason: str) -> None:
    """Keep the holder's Charge in step with the fine (created once a due date and an amount are
    known; cancelled with the fine; contested while the law says the fine cannot block)."""
    holder = fine.holder
    if holder is None:
        return
    charge = Charge.unscoped.filter(pk=fine.charge_id).first() if fine.charge_id else None
    if fine.status == Status.CANCELLED:
        if charge is not None and not charge.cancelled and charge.paid_on is None:
            billing.cancel_charge(actor=actor, charge=charge, reason=reason)
        return
    if charge is not None and (charge.cancelled or charge.paid_on is not None):
        return
    amount, note = _charge_amount(fine, on)
    if charge is None:
        if amount is None or fine.due_on is None:
            return
        charge = billing.issue_charge(
            actor=actor,
            holder=holder,
            kind=Charge.Kind.FINE,
            description=f"Multa do auto de infração {fine.notice.number}{note}"[:300],
            amount=amount,
            due_on=fine.due_on,
            reason=reason,
            reference=fine.notice.number,
        )
        update_audited(actor=actor, instance=fine, changes={"charge": charge}, reason=reason)
    else:
        changes: dict[str, Any] = {}
        if fine.due_on is not None and charge.due_on != fine.due_on:
            changes["due_on"] = fine.due_on
        if amount is not None and charge.amount != amount:
            changes["amount"] = amount
            changes["description"] = f"Multa do auto de infração {fine.notice.number}{note}"[:300]
        if changes:
            update_audited(
                actor=actor, instance=charge, changes=changes, reason=reason, action="charge.updated"
            )
    if charge.contested != contested:
        billing.set_contested(actor=actor, charge=charge, contested=contested, reason=reason)


# --------------------------------------------------------------------------------------- services


def _payer(notice: InfractionNotice) -> tuple[Any, str, str]:
    """(holder charged or None, payer name, payer document)."""
    holder = notice.holder
    if notice.offender_kind in AGENT_KINDS and not notice.charged_to_holder and notice.agent is not None:
        return None, str(notice.agent), notice.agent.cpf
    if holder is not None:
        party = holder.person or holder.company
        document = getattr(party, "cpf", "") or getattr(party, "cnpj", "")
        return holder, str(holder), document
    return None, notice.offender_name or notice.plate or "Infrator não identificado", notice.offender_document


def _lock_notice(notice: InfractionNotice) -> InfractionNotice:
    locked: InfractionNotice = (
        InfractionNotice.unscoped.select_for_update().select_related("jurisdiction").get(pk=notice.pk)
    )
    return locked


@transaction.atomic
def issue_fine(
    *,
    actor: Any,
    notice: InfractionNotice,
    reason: str,
    due_on: dt.date | None = None,
    today: dt.date | None = None,
) -> Fine | None:
    """Create the fine of a notice from its penalty in force (None when the penalty has no fine).

    The due date comes from the law (`fine.due`); where the law gives none the clerk's `due_on` is
    required. Refused when the notice already has a fine or is annulled/archived."""
    today = today or timezone.localdate()
    notice = _lock_notice(notice)
    if Fine.unscoped.filter(notice=notice).exists():
        raise ValidationError(f"A multa do auto {notice.number} já foi lançada.")
    _, decisions = _process(notice)
    terms, cancelled = _terms_in_force(notice, decisions)
    if cancelled:
        raise ValidationError(f"Não cabe lançar multa: {cancelled}")
    if terms is None:
        penalties = (notice.penalty or {}).get("penalties") or []
        if any(p.get("type") == "fine" for p in penalties):
            missing = [m for m in notice.missing_parameters or [] if m.startswith("penalty.fine")]
            raise ValidationError(
                "A lei não fixa o valor desta multa"
                + (f" (valor indefinido: {', '.join(missing)})" if missing else "")
                + ": não há o que lançar até o órgão informar o valor."
            )
        return None
    code = notice.jurisdiction_id
    day = _infraction_day(notice)
    law_gives_due = entry(code, "fine.due", day) is not None and value(code, "fine.due", day) is not None
    if law_gives_due and due_on is not None:
        raise ValidationError(
            f"O vencimento desta multa é fixado pela lei ({silence(code, 'fine.due', day)[1]}): "
            "não o informe."
        )
    if not law_gives_due:
        if due_on is None:
            why, cite = silence(code, "fine.due", day)
            raise ValidationError(
                f"A lei não fixa o vencimento da multa ({why}; {cite}): informe a data de vencimento."
            )
        if due_on < today:
            raise ValidationError(f"O vencimento ({br_date(due_on)}) não pode ser anterior a hoje.")
    holder, payer, document = _payer(notice)
    fine = Fine(
        jurisdiction_id=code,
        notice=notice,
        holder=holder,
        payer_name=payer[:200],
        payer_document=(document or "")[:20],
        amount=terms["amount"],
        units=terms["units"],
        unit=terms["unit"],
        due_on=due_on,
        status=Status.OPEN,
    )
    fine = create_audited(actor=actor, instance=fine, reason=reason, action="enforcement.fine_issued")
    _apply(actor, fine, notice, today, reason)
    return fine


def _apply(actor: Any, fine: Fine, notice: InfractionNotice, on: dt.date, reason: str) -> Fine:
    _, decisions = _process(notice)
    terms, cancelled = _terms_in_force(notice, decisions)
    if cancelled or terms is None:
        fine = update_audited(
            actor=actor,
            instance=fine,
            changes={"status": Status.CANCELLED, "status_note": cancelled or "Penalidade sem multa."},
            reason=reason,
            action="enforcement.fine_cancelled",
        )
        _sync_charge(actor, fine, contested=False, on=on, reason=reason)
        return fine
    if (terms["amount"], terms["units"], terms["unit"]) != (fine.amount, fine.units, fine.unit):
        fine = update_audited(
            actor=actor,
            instance=fine,
            changes={"amount": terms["amount"], "units": terms["units"], "unit": terms["unit"]},
            reason=reason,
            action="enforcement.fine_amount_changed",
        )
    plan = _plan(fine, notice, on)
    changes: dict[str, Any] = {
        "status": plan.status,
        "due_on": plan.due_on,
        "due_explanation": plan.explanation,
        "due_citations": [c for c in dict.fromkeys(plan.citations) if c],
        "status_note": plan.note,
    }
    if plan.new_slip and fine.charge_id:
        charge = Charge.unscoped.get(pk=fine.charge_id)
        if not charge.cancelled and charge.paid_on is None:
            billing.cancel_charge(actor=actor, charge=charge, reason=f"{reason}: nova guia de cobrança")
        changes["charge"] = None
    fine = update_audited(
        actor=actor, instance=fine, changes=changes, reason=reason, action="enforcement.fine_synced"
    )
    _sync_charge(actor, fine, contested=plan.contested, on=on, reason=reason)
    return fine


@transaction.atomic
def sync_fine(*, actor: Any, notice: InfractionNotice, on: dt.date, reason: str = SYNC_REASON) -> Fine | None:
    """Recompute the fine of `notice` after a process event (idempotent: nothing changes and
    nothing is audited when nothing is new). Paid, offset and cancelled fines are left alone.
    Returns the fine, or None when the notice has none."""
    notice = _lock_notice(notice)
    fine = Fine.unscoped.select_for_update().filter(notice=notice).first()
    if fine is None or fine.status in CLOSED:
        return fine
    return _apply(actor, fine, notice, on, reason)


# --------------------------------------------------------------------------------------- the slip


def _lock_fine(fine: Fine) -> Fine:
    locked: Fine = Fine.unscoped.select_for_update().select_related("notice", "jurisdiction").get(pk=fine.pk)
    return locked


def _payable(fine: Fine, what: str) -> None:
    if fine.status in CLOSED:
        raise ValidationError(f"Multa {fine.get_status_display().lower()}: não cabe {what}.")
    if fine.status == Status.SUSPENDED:
        raise ValidationError(f"Multa suspensa ({fine.status_note or 'recurso pendente'}): não cabe {what}.")


def slip_available(fine: Fine) -> bool:
    return fine.status == Status.OPEN and fine.due_on is not None


@transaction.atomic
def issue_slip(
    *,
    actor: Any,
    fine: Fine,
    reason: str,
    due_on: dt.date | None = None,
    today: dt.date | None = None,
) -> bytes:
    """Issue a payment slip (PDF): counts it, sets the due date the clerk gives where the law gives
    none (required then), and keeps the Charge in step."""
    today = today or timezone.localdate()
    fine = _lock_fine(fine)
    _payable(fine, "emitir guia")
    if fine.status == Status.AWAITING:
        raise ValidationError(f"Multa aguardando decisão ({fine.due_explanation}): ainda não cabe guia.")
    code = fine.jurisdiction_id
    day = _infraction_day(fine.notice)
    if value(code, "fine.due", day) is not None:
        if due_on is not None and due_on != fine.due_on:
            raise ValidationError(
                "O vencimento desta multa é fixado pela lei: "
                f"{br_date(fine.due_on)} ({fine.due_explanation})."
            )
        due = fine.due_on
        explanation = fine.due_explanation
        if due is None:
            raise ValidationError("O vencimento desta multa ainda não é conhecido: não cabe guia.")
    else:
        due = due_on or fine.due_on
        if due is None:
            why, cite = silence(code, "fine.due", day)
            raise ValidationError(
                f"A lei não fixa o vencimento ({why}; {cite}): informe a data de vencimento."
            )
        if due_on is not None and due_on < today:
            raise ValidationError(f"O vencimento ({br_date(due_on)}) não pode ser anterior a hoje.")
        explanation = (
            f"{AGENCY_DUE} na guia nº {fine.slip_count + 1}: {br_date(due)} "
            f"({silence(code, 'fine.due', day)[1]})."
        )
    fine = update_audited(
        actor=actor,
        instance=fine,
        changes={
            "due_on": due,
            "due_explanation": explanation,
            "slip_count": fine.slip_count + 1,
            "status_note": "",
        },
        reason=reason,
        action="enforcement.fine_slip_issued",
    )
    charge = Charge.unscoped.filter(pk=fine.charge_id).first() if fine.charge_id else None
    _sync_charge(actor, fine, contested=bool(charge and charge.contested), on=today, reason=reason)
    from lotacao.enforcement.sanctions.fines_pdf import slip_pdf

    return slip_pdf(fine, on=today)


# ------------------------------------------------------------------------------------- payment


def amount_due(fine: Fine, on: dt.date) -> tuple[Decimal, Decimal | None, str]:
    """(amount in BRL on `on`, unit value used or None, its citation); refuses a unit fine without
    the agency's value of the unit on that date."""
    if not fine.in_units:
        assert fine.amount is not None
        return fine.amount, None, ""
    assert fine.units is not None
    rate, cite, why = unit_value(fine.jurisdiction_id, fine.unit, on)
    if rate is None:
        where = f" ({cite})" if cite else ""
        raise ValidationError(
            f"Não há valor da {fine.unit} vigente em {br_date(on)}: {why}{where}. O gestor precisa "
            f"informá-lo (valores da lei) antes de converter a multa."
        )
    return (fine.units * rate).quantize(CENT, ROUND_HALF_UP), rate, cite


def _settle_charge(actor: Any, fine: Fine, amount: Decimal, paid_on: dt.date, ref: str, reason: str) -> None:
    holder = fine.holder
    if holder is None:
        return
    charge = Charge.unscoped.filter(pk=fine.charge_id).first() if fine.charge_id else None
    if charge is None or charge.cancelled:
        charge = billing.issue_charge(
            actor=actor,
            holder=holder,
            kind=Charge.Kind.FINE,
            description=f"Multa do auto de infração {fine.notice.number}",
            amount=amount,
            due_on=fine.due_on or paid_on,
            reason=reason,
            reference=fine.notice.number,
        )
        fine = update_audited(actor=actor, instance=fine, changes={"charge": charge}, reason=reason)
    elif charge.amount != amount:
        update_audited(
            actor=actor,
            instance=charge,
            changes={"amount": amount, "description": f"Multa do auto de infração {fine.notice.number}"},
            reason=reason,
            action="charge.updated",
        )
    if charge.paid_on is None:
        billing.record_payment(
            actor=actor, charge=charge, paid_on=paid_on, reason=reason, payment_reference=ref
        )


def _check_day(fine: Fine, day: dt.date, today: dt.date, label: str) -> None:
    if day > today:
        raise ValidationError(f"A data {label} ({br_date(day)}) não pode ser futura.")
    start = _infraction_day(fine.notice)
    if day < start:
        raise ValidationError(
            f"A data {label} ({br_date(day)}) não pode ser anterior à infração ({br_date(start)})."
        )


@transaction.atomic
def record_fine_payment(
    *,
    actor: Any,
    fine: Fine,
    paid_on: dt.date,
    payment_reference: str,
    reason: str,
    amount: Decimal | str | None = None,
    today: dt.date | None = None,
) -> Fine:
    """Record the payment: a unit fine is converted at the unit's value on `paid_on` (value and
    citation stored); `amount`, when given, must be the amount due. The Charge is paid too."""
    today = today or timezone.localdate()
    fine = _lock_fine(fine)
    _payable(fine, "registrar pagamento")
    _check_day(fine, paid_on, today, "do pagamento")
    if not (payment_reference or "").strip():
        raise ValidationError("Informe o comprovante (autenticação bancária ou número do documento).")
    due, rate, cite = amount_due(fine, paid_on)
    if amount not in (None, ""):
        try:
            given = Decimal(str(amount)).quantize(CENT)
        except ArithmeticError as error:
            raise ValidationError(f"Valor pago inválido: {amount}.") from error
        if given != due:
            raise ValidationError(
                f"O valor pago ({brl(given)}) difere do valor devido em {br_date(paid_on)} ({brl(due)})."
            )
    fine = update_audited(
        actor=actor,
        instance=fine,
        changes={
            "status": Status.PAID,
            "paid_on": paid_on,
            "paid_amount": due,
            "unit_value": rate,
            "unit_value_citation": cite,
            "payment_reference": payment_reference.strip(),
            "status_note": "",
        },
        reason=reason,
        action="enforcement.fine_paid",
    )
    _settle_charge(actor, fine, due, paid_on, payment_reference.strip(), reason)
    return fine


@dataclass(frozen=True)
class PaidFirst:
    """Whether an appeal that needs the fine paid first (`fine_paid_first`) may be accepted."""

    required: bool
    paid: bool
    deadline: dt.date | None = None
    citations: tuple[str, ...] = ()
    message: str = ""

    def __bool__(self) -> bool:
        return not self.required or self.paid


def paid_before_appeal_deadline(notice: InfractionNotice, instance: str | None = None) -> PaidFirst:
    """For the filing service: where an instance has `fine_paid_first` (Maricá art. 70, parágrafo
    único), the appeal against a fine is accepted only when the fine was paid within the engine
    deadline counted from the service of the notice."""
    code = notice.jurisdiction_id
    day = _infraction_day(notice)
    rule = next(
        (
            i
            for i in instances(code, day)
            if i.get("fine_paid_first") and (instance is None or i.get("id") == instance)
        ),
        None,
    )
    if rule is None or fine_terms(notice.penalty) is None:
        return PaidFirst(required=False, paid=False)
    cites = tuple(short_cites(rule))
    fine = Fine.unscoped.filter(notice=notice).first()
    if notice.served_on is None:
        return PaidFirst(
            True,
            False,
            None,
            cites,
            "O recurso contra multa exige o pagamento prévio; o auto não foi notificado.",
        )
    due, more, text = _deadline(code, str(rule["fine_paid_first"]), notice.served_on)
    cites = tuple(dict.fromkeys([*cites, *more]))
    paid = (
        fine is not None
        and fine.status == Status.PAID
        and fine.paid_on is not None
        and (due is None or fine.paid_on <= due)
    )
    if paid:
        assert fine is not None and fine.paid_on is not None
        message = f"Multa paga em {br_date(fine.paid_on)}, dentro do prazo: o recurso pode ser aceito."
    else:
        message = (
            f"O recurso contra a multa só pode ser aceito depois do pagamento, até {br_date(due)} "
            f"({', '.join(cites)}). {text}"
        )
    return PaidFirst(True, paid, due, cites, message)


# --------------------------------------------------------------------------------- non-payment


def _overdue(today: dt.date) -> list[Fine]:
    fines = (
        Fine.unscoped.filter(status=Status.OPEN, due_on__lt=today)
        .select_related("notice", "charge", "holder__person", "holder__company")
        .order_by("jurisdiction_id", "due_on", "id")
    )
    return [f for f in fines if not (f.charge is not None and f.charge.contested)]


def nonpayment_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """What the law lets a manager do about unpaid fines (never done automatically): offset the
    amount from the offender's credits from the business day after the due date; suspend the
    permit of a holder with `count` or more unpaid fines."""
    by_code: dict[str, list[Fine]] = defaultdict(list)
    for fine in _overdue(today):
        by_code[fine.jurisdiction_id].append(fine)
    for code, fines in by_code.items():
        credit = _nonpayment(code, today, "credit_offset")
        if credit is not None:
            for fine in fines:
                start = next_business_day_after(code, fine.due_on) if fine.due_on else today
                yield WorkItemSpec(
                    jurisdiction_id=code,
                    kind=OFFSET_KIND,
                    key=f"fine-{fine.pk}",
                    title=(
                        f"Multa do auto {fine.notice.number} vencida em {br_date(fine.due_on)}: pode "
                        f"descontar de créditos a partir de {br_date(start)} ({credit.get('cite', '')})"
                    ),
                    due_on=start,
                    url=reverse("enforcement:fine", kwargs={"pk": fine.pk}),
                )
        suspension = _nonpayment(code, today, "suspension_after_unpaid")
        if suspension is None:
            continue
        count = int(suspension.get("count") or 0)
        per_holder: dict[int, list[Fine]] = defaultdict(list)
        for fine in fines:
            if fine.holder_id is not None:
                per_holder[fine.holder_id].append(fine)
        for holder_id, unpaid in per_holder.items():
            if count and len(unpaid) >= count:
                yield WorkItemSpec(
                    jurisdiction_id=code,
                    kind=SUSPENSION_KIND,
                    key=f"holder-{holder_id}",
                    title=(
                        f"{unpaid[0].holder} tem {len(unpaid)} multas não pagas: pode suspender a "
                        f"permissão ({suspension.get('cite', '')})"
                    )[:300],
                    due_on=today,
                    url=reverse("registry:holder", kwargs={"pk": holder_id}),
                )


@transaction.atomic
def offset_fine(
    *,
    actor: Any,
    fine: Fine,
    credit_reference: str,
    on: dt.date,
    reason: str,
    today: dt.date | None = None,
) -> Fine:
    """Record the manager's offset of an overdue fine against the offender's credits, where the law
    allows it (`fine.nonpayment` credit_offset), from the business day after the due date."""
    today = today or timezone.localdate()
    fine = _lock_fine(fine)
    code = fine.jurisdiction_id
    credit = _nonpayment(code, on, "credit_offset")
    if credit is None:
        found = entry(code, "fine.nonpayment", on)
        where = f" ({found.citation})" if found is not None else ""
        raise ValidationError(
            f"A lei desta jurisdição não prevê o desconto da multa de créditos do infrator{where}."
        )
    _payable(fine, "desconto de créditos")
    charge = Charge.unscoped.filter(pk=fine.charge_id).first() if fine.charge_id else None
    if fine.status != Status.OPEN or fine.due_on is None or (charge is not None and charge.contested):
        raise ValidationError(
            "Só a multa em aberto, vencida e sem recurso pendente pode ser descontada de créditos."
        )
    start = next_business_day_after(code, fine.due_on)
    if on < start:
        raise ValidationError(
            f"O desconto de créditos só cabe a partir do dia útil seguinte ao vencimento, {br_date(start)} "
            f"({credit.get('cite', '')})."
        )
    _check_day(fine, on, today, "do desconto")
    if not (credit_reference or "").strip():
        raise ValidationError("Informe a referência do crédito descontado.")
    due, rate, cite = amount_due(fine, on)
    ref = credit_reference.strip()
    fine = update_audited(
        actor=actor,
        instance=fine,
        changes={
            "status": Status.OFFSET,
            "paid_on": on,
            "paid_amount": due,
            "unit_value": rate,
            "unit_value_citation": cite,
            "payment_reference": ref[:100],
            "status_note": f"Descontada de créditos do infrator ({credit.get('cite', '')}): {ref}",
        },
        reason=reason,
        action="enforcement.fine_offset",
    )
    _settle_charge(actor, fine, due, on, f"Desconto de créditos: {ref}"[:100], reason)
    return fine


def fine_data(fine: Fine) -> dict[str, Any]:
    """The fine as the API returns it."""
    return {
        "id": fine.pk,
        "notice": fine.notice_id,
        "notice_number": fine.notice.number,
        "jurisdiction": fine.jurisdiction_id,
        "payer_name": fine.payer_name,
        "amount": str(fine.amount) if fine.amount is not None else None,
        "units": str(fine.units) if fine.units is not None else None,
        "unit": fine.unit,
        "due_on": fine.due_on.isoformat() if fine.due_on else None,
        "due_explanation": fine.due_explanation,
        "due_citations": fine.due_citations,
        "status": fine.status,
        "status_label": fine.get_status_display(),
        "status_note": fine.status_note,
        "slip_count": fine.slip_count,
        "paid_on": fine.paid_on.isoformat() if fine.paid_on else None,
        "paid_amount": str(fine.paid_amount) if fine.paid_amount is not None else None,
        "unit_value": str(fine.unit_value) if fine.unit_value is not None else None,
        "unit_value_citation": fine.unit_value_citation,
        "payment_reference": fine.payment_reference,
        "charge": fine.charge_id,
    }


# --------------------------------------------------------------- a fine paid for an annulled notice

REFUND_KIND = "enforcement.fine_refund"


def refund_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Work items: fines paid (or offset) whose notice was later annulled — the payment has no
    ground any more and the agency decides its restitution."""
    rows = Fine.unscoped.filter(
        status__in=[Status.PAID, Status.OFFSET], notice__status=InfractionNotice.Status.ANNULLED
    ).select_related("notice")
    for fine in rows:
        yield WorkItemSpec(
            jurisdiction_id=fine.jurisdiction_id,
            kind=REFUND_KIND,
            key=f"fine:{fine.pk}",
            title=(
                f"Multa do auto {fine.notice.number} paga ({brl(fine.paid_amount)}) "
                "e o auto foi anulado depois: restituir"
            ),
            due_on=today,
            url=reverse("enforcement:fine", kwargs={"pk": fine.pk}),
        )


@transaction.atomic
def record_refund(
    *, actor: Any, fine: Fine, refunded_on: dt.date, reference: str, reason: str, today: dt.date | None = None
) -> Fine:
    """Record that a fine paid for a notice later annulled was given back (audited)."""
    today = today or timezone.localdate()
    fine = _lock_fine(fine)
    notice = InfractionNotice.unscoped.get(pk=fine.notice_id)
    if fine.status not in (Status.PAID, Status.OFFSET):
        raise ValidationError("Só uma multa paga (ou descontada de créditos) pode ser restituída.")
    if notice.status != InfractionNotice.Status.ANNULLED:
        raise ValidationError(f"O auto {notice.number} não foi anulado: a multa paga é devida.")
    if fine.paid_on is not None and refunded_on < fine.paid_on:
        raise ValidationError("A restituição não pode ser anterior ao pagamento.")
    if refunded_on > today:
        raise ValidationError("A data da restituição não pode ser futura.")
    if not (reference or "").strip():
        raise ValidationError("Informe a referência da restituição (ordem bancária, processo).")
    return update_audited(
        actor=actor,
        instance=fine,
        changes={
            "status": Status.REFUNDED,
            "status_note": f"Restituída em {br_date(refunded_on)}: {reference.strip()} (auto anulado).",
        },
        reason=reason,
        action="enforcement.fine_refunded",
    )
