"""Paying a fine, and what the law lets the agency do when it is not paid.

- The slip (`issue_slip`, PDF in `fines_pdf`): counted; the clerk gives the due date where the law
  gives none (required then).
- The payment (`record_fine_payment`): a unit fine is converted at `fiscal_unit.<unit>` in force on
  the payment date (the agency records each value from the first day it is in force — reading of
  "vigente ao mês do pagamento"), refused without that value; the Charge is paid too.
- An appeal that needs the fine paid first (`process.instances[].fine_paid_first`, Maricá art. 70,
  parágrafo único): `paid_before_appeal_deadline`, read by the filing service.
- `fine.nonpayment`: `credit_offset` and `suspension_after_unpaid` are only pointed out to a
  manager (work items, `nonpayment_items`); the manager's offset is recorded by `offset_fine`.
- A fine paid for a notice annulled or reduced later: `refunds`.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from lotacao.audit.services import update_audited
from lotacao.billing import services as billing
from lotacao.billing.models import Charge
from lotacao.core.formats import br_date, br_number, brl, lower_first
from lotacao.core.law import entry, next_business_day_after, value
from lotacao.enforcement.due_process.procedure import instances, short_cites
from lotacao.enforcement.models import Fine, InfractionNotice
from lotacao.enforcement.reading import infraction_day, silence
from lotacao.enforcement.sanctions.fine_due import AGENCY_DUE, CENT, deadline, fine_terms
from lotacao.enforcement.sanctions.fines import check_payable, lock_fine, sync_charge, unit_terms, unit_value
from lotacao.workqueue.services import WorkItemSpec

Status = Fine.Status
OFFSET_KIND = "enforcement.fine_offset"
SUSPENSION_KIND = "enforcement.fine_suspension"


def payable_charge(fine: Fine) -> Charge | None:
    """The open Charge a slip of this fine would collect (its amount in R$), or None."""
    if fine.status != Status.OPEN or fine.due_on is None or not fine.charge_id:
        return None
    charge: Charge | None = Charge.unscoped.filter(
        pk=fine.charge_id, cancelled=False, paid_on__isnull=True
    ).first()
    return charge


def slip_refusal(fine: Fine, on: dt.date) -> str:
    """Why no slip of this fine can be paid on `on` ("" when one can): a slip is offered only with
    a real amount in R$ and a working PIX code (the agency's key)."""
    from lotacao.billing import lawdata

    if fine.status != Status.OPEN or fine.due_on is None:
        return fine.status_note or fine.due_explanation or f"Multa {lower_first(fine.get_status_display())}."
    if payable_charge(fine) is None:
        if fine.in_units:
            assert fine.units is not None
            rate, cite, _why = unit_value(fine.jurisdiction_id, fine.unit, on)
            if rate is None:
                where = f" ({cite})" if cite else ""
                return (
                    f"Multa de {br_number(fine.units)} {fine.unit}: o órgão ainda não publicou o valor da "
                    f"{fine.unit} vigente em {br_date(on)}{where}. Sem esse valor não há valor em "
                    "reais nem guia; a guia será oferecida assim que o valor for publicado."
                )
        return "A cobrança desta multa ainda não foi lançada: não há guia por enquanto."
    if lawdata.pix(fine.jurisdiction_id, on) is None:
        return "O órgão ainda não informou a chave PIX: pague no balcão ou na instituição bancária indicada."
    return ""


def slip_available(fine: Fine, on: dt.date | None = None) -> bool:
    return not slip_refusal(fine, on or timezone.localdate())


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
    fine = lock_fine(fine)
    check_payable(fine, "emitir guia")
    if fine.status == Status.AWAITING:
        raise ValidationError(f"Multa aguardando decisão ({fine.due_explanation}): ainda não cabe guia.")
    code = fine.jurisdiction_id
    day = infraction_day(fine.notice)
    # The open Charge is the slip already counted; printing it again is not a new slip, a new due
    # date on it is (and a Charge created below counts itself, in `sync_charge`).
    current = payable_charge(fine)
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
        number = fine.slip_count if current is not None and current.due_on == due else fine.slip_count + 1
        explanation = (
            f"{AGENCY_DUE} na guia nº {number}: {br_date(due)} ({silence(code, 'fine.due', day)[1]})."
        )
    changes: dict[str, Any] = {"due_on": due, "due_explanation": explanation, "status_note": ""}
    if current is not None and current.due_on != due:
        changes["slip_count"] = fine.slip_count + 1
    fine = update_audited(
        actor=actor,
        instance=fine,
        changes=changes,
        reason=reason,
        action="enforcement.fine_slip_issued",
    )
    charge = Charge.unscoped.filter(pk=fine.charge_id).first() if fine.charge_id else None
    sync_charge(actor, fine, contested=bool(charge and charge.contested), on=today, reason=reason)
    from lotacao.enforcement.sanctions.fines_pdf import slip_pdf

    return slip_pdf(fine, on=today)


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


def _settle_charge(
    actor: Any, fine: Fine, amount: Decimal, paid_on: dt.date, ref: str, reason: str, rate: Decimal | None
) -> None:
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
            **unit_terms(fine, rate),
        )
        fine = update_audited(actor=actor, instance=fine, changes={"charge": charge}, reason=reason)
    elif charge.amount != amount:
        update_audited(
            actor=actor,
            instance=charge,
            changes={
                "amount": amount,
                "description": f"Multa do auto de infração {fine.notice.number}",
                **unit_terms(fine, rate),
            },
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
    start = infraction_day(fine.notice)
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
    fine = lock_fine(fine)
    check_payable(fine, "registrar pagamento")
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
    _settle_charge(actor, fine, due, paid_on, payment_reference.strip(), reason, rate)
    return fine


@transaction.atomic  # billing calls it in its own transaction; a hook says so itself
def charge_paid(*, charge: Charge, paid_on: dt.date, actor: Any, reason: str) -> Fine | None:
    """Billing's seam `charge_paid`: a fine's Charge paid at the counter or by the bank statement
    marks the Fine paid (a unit fine converted at the unit's value on `paid_on`, which must be the
    amount the slip charged); what waits for the payment — the release of a measure on this fine,
    Maricá's appeal after paying (art. 70, parágrafo único) — reads the Fine. A charge that is not a
    fine's is left alone; a refusal (raised) undoes the payment in billing too."""
    found = Fine.unscoped.filter(charge_id=charge.pk).first()
    if found is None:
        return None
    fine = lock_fine(found)
    if fine.status in (Status.PAID, Status.OFFSET):
        return fine
    check_payable(fine, "registrar pagamento")
    start = infraction_day(fine.notice)
    if paid_on < start:
        raise ValidationError(
            f"A data do pagamento ({br_date(paid_on)}) não pode ser anterior à infração ({br_date(start)})."
        )
    due, rate, cite = amount_due(fine, paid_on)
    if due != charge.amount:
        raise ValidationError(
            f"A multa do auto {fine.notice.number} vale {brl(due)} em {br_date(paid_on)}"
            + (f" ({fine.units:g} {fine.unit} × {brl(rate)}, {cite})" if rate is not None else "")
            + f", e a guia cobrou {brl(charge.amount)}: emita nova guia."
        )
    reference = charge.payment_reference or f"Guia nº {charge.slip_code}"
    return update_audited(
        actor=actor,
        instance=fine,
        changes={
            "status": Status.PAID,
            "paid_on": paid_on,
            "paid_amount": due,
            "unit_value": rate,
            "unit_value_citation": cite,
            "payment_reference": reference[:100],
            "status_note": "",
        },
        reason=reason,
        action="enforcement.fine_paid",
    )


@dataclass(frozen=True)
class PaidFirst:
    """Whether an appeal that needs the fine paid first (`fine_paid_first`) may be accepted."""

    required: bool
    paid: bool
    deadline: dt.date | None = None
    citations: tuple[str, ...] = ()
    message: str = ""
    # The reading (`process.appeal_payment`): the appeal may be filed before the payment and waits
    # for it (admitted for judgment once paid within the deadline; deserted otherwise, art. 75).
    admits_before: bool = False

    def __bool__(self) -> bool:
        return not self.required or self.paid

    @property
    def blocks_filing(self) -> bool:
        return not self and not self.admits_before

    def deserted(self, on: dt.date) -> bool:
        """Unpaid when the payment deadline passed: the appeal is not known by deserção."""
        return bool(self.required and not self.paid and self.deadline is not None and on > self.deadline)


APPEAL_PAYMENT_READINGS = ("admit_when_paid", "refuse_until_paid", "not_required")


def appeal_payment_reading(code: str, day: dt.date) -> str:
    """How the pack reads "só poderá ser aceito após o pagamento" (Maricá art. 70, p.ú.): an
    interpretation the agency sees and may change in Valores da lei (default admit_when_paid)."""
    found = value(code, "process.appeal_payment", day)
    reading = str(found) if found else "admit_when_paid"
    if reading not in APPEAL_PAYMENT_READINGS:
        raise ValidationError(
            "O valor da lei sobre o pagamento antes do recurso é desconhecido; corrija-o em Valores da lei."
        )
    return reading


def paid_before_appeal_deadline(notice: InfractionNotice, instance: str | None = None) -> PaidFirst:
    """For the filing service: where an instance has `fine_paid_first` (Maricá art. 70, parágrafo
    único), the appeal against a fine is accepted only when the fine was paid within the engine
    deadline counted from the service of the notice."""
    code = notice.jurisdiction_id
    day = infraction_day(notice)
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
    reading = appeal_payment_reading(code, day)
    if reading == "not_required":
        return PaidFirst(required=False, paid=False)
    admits = reading == "admit_when_paid"
    cites = tuple(short_cites(rule))
    fine = Fine.unscoped.filter(notice=notice).first()
    if notice.served_on is None:
        return PaidFirst(
            True,
            False,
            None,
            cites,
            "O recurso contra multa exige o pagamento prévio; o auto não foi notificado.",
            admits,
        )
    due, more, _text = deadline(code, str(rule["fine_paid_first"]), notice.served_on)
    cites = tuple(dict.fromkeys([*cites, *more]))
    paid = (
        fine is not None
        and fine.status == Status.PAID
        and fine.paid_on is not None
        and (due is None or fine.paid_on <= due)
    )
    # One citation, once: the article that asks the payment first (the deadline's own).
    where = "; ".join(dict.fromkeys(more)) or ", ".join(cites)
    if paid:
        assert fine is not None and fine.paid_on is not None
        message = f"Multa paga em {br_date(fine.paid_on)}, dentro do prazo: o recurso pode ser aceito."
    elif admits:
        message = (
            f"O recurso pode ser protocolado no prazo, mas só será julgado se a multa for paga até "
            f"{br_date(due)}; sem o pagamento, o recurso é desconhecido por deserção ({where}; "
            "art. 75)."
        )
    else:
        message = (
            f"O recurso contra a multa só pode ser aceito depois do pagamento da multa, feito até "
            f"{br_date(due)} ({where})."
        )
    return PaidFirst(True, paid, due, cites, message, admits)


def _nonpayment(code: str, on: dt.date, effect: str) -> dict[str, Any] | None:
    for item in value(code, "fine.nonpayment", on) or []:
        if item.get("effect") == effect:
            return dict(item)
    return None


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
    fine = lock_fine(fine)
    code = fine.jurisdiction_id
    credit = _nonpayment(code, on, "credit_offset")
    if credit is None:
        found = entry(code, "fine.nonpayment", on)
        where = f" ({found.citation})" if found is not None else ""
        raise ValidationError(
            f"A lei desta jurisdição não prevê o desconto da multa de créditos do infrator{where}."
        )
    check_payable(fine, "desconto de créditos")
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
    _settle_charge(actor, fine, due, on, f"Desconto de créditos: {ref}"[:100], reason, rate)
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
