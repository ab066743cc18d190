"""The fine of an infraction notice: created from the penalty in force (in BRL, or in units of a
fiscal unit converted at its value on the payment date) and kept in step with the process.

`issue_fine` creates it; `sync_fine` — idempotent, called after every event of the notice —
recomputes it: cancelled when the notice is annulled or archived or the penalty in force has no
fine, the amount of a changed penalty, and the status and due date the law gives
(`fine_due.due_plan`). The slip, the payment, offsets and refunds: `fine_payment`.

Charges: a holder's fine gets a billing Charge (kind fine, reference = notice number) as soon as
its due date is known and an amount can be stated: the BRL amount, or for a unit fine the units at
the unit value in force that day (an estimate, stated in the description, replaced by the
converted amount at payment); without a known unit value the Charge is created at payment. Fines
of clandestine offenders (no holder) have none. A pending filing marks the Charge contested (the
law's `block_clearance_unless_defended` is billing's clearance: an overdue, uncontested Charge
blocks).
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing import services as billing
from lotacao.billing.models import Charge
from lotacao.core.formats import br_date, brl, lower_first
from lotacao.core.law import entry, value
from lotacao.enforcement.models import AGENT_KINDS, Fine, InfractionNotice
from lotacao.enforcement.reading import infraction_day, silence
from lotacao.enforcement.sanctions.fine_due import CENT, due_plan, process_of, terms_in_force

Status = Fine.Status
CLOSED = (Status.PAID, Status.OFFSET, Status.CANCELLED, Status.REFUNDED)
SYNC_REASON = "Multa recalculada após evento do processo"


def unit_value(code: str, unit: str, on: dt.date) -> tuple[Decimal | None, str, str]:
    """(value of the fiscal unit in force on `on` or None, citation, why it is missing)."""
    parameter = f"fiscal_unit.{unit}"
    found = entry(code, parameter, on)
    if found is None:
        return None, "", f"a lei não define a unidade fiscal {unit}"
    if found.status != "value":
        return None, str(found.citation), (found.reason or "valor não informado").strip().rstrip(".")
    return Decimal(str(found.value)), str(found.citation), ""


def _charge_amount(fine: Fine, on: dt.date) -> tuple[Decimal | None, str, Decimal | None]:
    """(amount of the Charge on `on` or None, note for its description, unit value used)."""
    if fine.amount is not None:
        return fine.amount, "", None
    if fine.units is None:
        return None, "", None
    rate, cite, _ = unit_value(fine.jurisdiction_id, fine.unit, on)
    if rate is None:
        return None, "", None
    amount = (fine.units * rate).quantize(CENT, ROUND_HALF_UP)
    return (
        amount,
        (
            f" — estimada em {fine.units:g} {fine.unit} × {brl(rate)} ({br_date(on)}, {cite}); "
            "convertida pelo valor vigente na data do pagamento"
        ),
        rate,
    )


def unit_terms(fine: Fine, rate: Decimal | None) -> dict[str, Any]:
    """The fiscal unit, units and unit value a Charge records for a unit fine (none for BRL)."""
    if not fine.in_units or rate is None:
        return {"fiscal_unit": "", "units": None, "unit_value": None}
    return {"fiscal_unit": fine.unit[:10], "units": fine.units, "unit_value": rate}


def sync_charge(actor: Any, fine: Fine, *, contested: bool, on: dt.date, reason: str) -> None:
    """Keep the holder's Charge in step with the fine (created once a due date and an amount are
    known; cancelled with the fine; contested while the law says the fine cannot block).

    Each Charge is a slip the holder sees in their charges, so creating one counts it
    (`slip_count`). A due date the law postpones with no new date (a defense at an instance whose
    payment effect is `postpones`: Recife art. 36, § 2º) cancels the open Charge, which would
    otherwise still show the old due date; the decision's due date gets a new one."""
    holder = fine.holder
    if holder is None:
        return
    charge = Charge.unscoped.filter(pk=fine.charge_id).first() if fine.charge_id else None
    if fine.status == Status.CANCELLED:
        if charge is not None and not charge.cancelled and charge.paid_on is None:
            billing.cancel_charge(actor=actor, charge=charge, reason=reason)
        return
    if fine.status == Status.AWAITING and fine.due_on is None:
        if charge is not None and not charge.cancelled and charge.paid_on is None:
            billing.cancel_charge(
                actor=actor, charge=charge, reason=f"{reason}: vencimento adiado até a decisão"
            )
            update_audited(actor=actor, instance=fine, changes={"charge": None}, reason=reason)
        return
    if charge is not None and (charge.cancelled or charge.paid_on is not None):
        return
    amount, note, rate = _charge_amount(fine, on)
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
            **unit_terms(fine, rate),
        )
        update_audited(
            actor=actor,
            instance=fine,
            changes={"charge": charge, "slip_count": fine.slip_count + 1},
            reason=reason,
        )
    else:
        changes: dict[str, Any] = {}
        if fine.due_on is not None and charge.due_on != fine.due_on:
            changes["due_on"] = fine.due_on
        if amount is not None and charge.amount != amount:
            changes["amount"] = amount
            changes["description"] = f"Multa do auto de infração {fine.notice.number}{note}"[:300]
            changes.update(unit_terms(fine, rate))
        if changes:
            update_audited(
                actor=actor, instance=charge, changes=changes, reason=reason, action="charge.updated"
            )
    if charge.contested != contested:
        billing.set_contested(actor=actor, charge=charge, contested=contested, reason=reason)


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


def _terms_to_issue(notice: InfractionNotice) -> dict[str, Any] | None:
    """The fine of the penalty in force; refused when cancelled or when the law leaves its value
    undefined; None when the penalty has no fine."""
    _, decisions = process_of(notice)
    terms, cancelled = terms_in_force(notice, decisions)
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
    return terms


def _check_due_given(notice: InfractionNotice, due_on: dt.date | None, today: dt.date) -> None:
    """The due date is the law's (`fine.due`: the clerk gives none) or, where the law gives none,
    the clerk's (required, not before today)."""
    code = notice.jurisdiction_id
    day = infraction_day(notice)
    law_gives_due = entry(code, "fine.due", day) is not None and value(code, "fine.due", day) is not None
    if law_gives_due and due_on is not None:
        raise ValidationError(
            f"O vencimento desta multa é fixado pela lei ({silence(code, 'fine.due', day)[1]}): "
            "não o informe."
        )
    if law_gives_due:
        return
    if due_on is None:
        why, cite = silence(code, "fine.due", day)
        raise ValidationError(
            f"A lei não fixa o vencimento da multa ({why}; {cite}): informe a data de vencimento."
        )
    if due_on < today:
        raise ValidationError(f"O vencimento ({br_date(due_on)}) não pode ser anterior a hoje.")


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
    terms = _terms_to_issue(notice)
    if terms is None:
        return None
    _check_due_given(notice, due_on, today)
    holder, payer, document = _payer(notice)
    fine = Fine(
        jurisdiction_id=notice.jurisdiction_id,
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
    _, decisions = process_of(notice)
    terms, cancelled = terms_in_force(notice, decisions)
    if cancelled or terms is None:
        fine = update_audited(
            actor=actor,
            instance=fine,
            changes={"status": Status.CANCELLED, "status_note": cancelled or "Penalidade sem multa."},
            reason=reason,
            action="enforcement.fine_cancelled",
        )
        sync_charge(actor, fine, contested=False, on=on, reason=reason)
        return fine
    if (terms["amount"], terms["units"], terms["unit"]) != (fine.amount, fine.units, fine.unit):
        fine = update_audited(
            actor=actor,
            instance=fine,
            changes={"amount": terms["amount"], "units": terms["units"], "unit": terms["unit"]},
            reason=reason,
            action="enforcement.fine_amount_changed",
        )
    plan = due_plan(fine, notice, on)
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
    sync_charge(actor, fine, contested=plan.contested, on=on, reason=reason)
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


def lock_fine(fine: Fine) -> Fine:
    locked: Fine = Fine.unscoped.select_for_update().select_related("notice", "jurisdiction").get(pk=fine.pk)
    return locked


def check_payable(fine: Fine, what: str) -> None:
    if fine.status in CLOSED:
        raise ValidationError(f"Multa {lower_first(fine.get_status_display())}: não cabe {what}.")
    if fine.status == Status.SUSPENDED:
        raise ValidationError(f"Multa suspensa ({fine.status_note or 'recurso pendente'}): não cabe {what}.")
