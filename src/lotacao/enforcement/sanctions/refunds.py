"""Giving back a fine paid whose ground fell later: the notice annulled (the whole amount), or the
fine reduced by the final decision (the difference) — Recife's appeal to the CRA, for one, does
not stop the fine from falling due (art. 43, parágrafo único). A work item asks the manager until
the refund is recorded (`record_refund`, audited); the fine keeps what was given back
(`refunded_amount`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from lotacao.audit.services import update_audited
from lotacao.core.formats import br_date, brl
from lotacao.enforcement.models import Decision, Fine, InfractionNotice
from lotacao.enforcement.sanctions.fine_due import CENT, process_of, terms_in_force
from lotacao.enforcement.sanctions.fines import lock_fine
from lotacao.workqueue.services import WorkItemSpec

Status = Fine.Status
REFUND_KIND = "enforcement.fine_refund"
PAID = (Status.PAID, Status.OFFSET)


def refundable(fine: Fine) -> tuple[Decimal, str]:
    """(amount to give back, why): all of it when the notice was annulled, the difference when the
    final decision reduced the fine; (0, "") when nothing is owed back."""
    if fine.status not in PAID or fine.refunded_amount is not None or fine.paid_amount is None:
        return Decimal("0"), ""
    notice = fine.notice
    if notice.status == InfractionNotice.Status.ANNULLED:
        return fine.paid_amount, "auto anulado"
    if notice.status != InfractionNotice.Status.DECIDED_FINAL:
        return Decimal("0"), ""
    terms, _ = terms_in_force(notice, process_of(notice)[1])
    if terms is None:
        return fine.paid_amount, "penalidade definitiva sem multa"
    if terms["amount"] is not None:
        owed = Decimal(terms["amount"])
    elif fine.unit_value is not None and terms["units"] is not None:
        owed = (Decimal(terms["units"]) * fine.unit_value).quantize(CENT, ROUND_HALF_UP)
    else:
        return Decimal("0"), ""
    if owed >= fine.paid_amount:
        return Decimal("0"), ""
    return fine.paid_amount - owed, f"multa reduzida para {brl(owed)} pela decisão definitiva"


def refund_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Work items: fines paid (or offset) whose notice was later annulled or whose fine the final
    decision reduced — the agency decides the restitution."""
    annulled = Fine.unscoped.filter(
        status__in=list(PAID), refunded_amount__isnull=True, notice__status=InfractionNotice.Status.ANNULLED
    )
    reduced = Fine.unscoped.filter(
        status__in=list(PAID),
        refunded_amount__isnull=True,
        notice__status=InfractionNotice.Status.DECIDED_FINAL,
        notice__decisions__outcome=Decision.Outcome.CHANGED,
    )
    for fine in (annulled | reduced).distinct().select_related("notice"):
        amount, why = refundable(fine)
        if amount <= 0:
            continue
        yield WorkItemSpec(
            jurisdiction_id=fine.jurisdiction_id,
            kind=REFUND_KIND,
            key=f"fine:{fine.pk}",
            title=(
                f"Multa do auto {fine.notice.number} paga ({brl(fine.paid_amount)}) e {why} depois: "
                f"restituir {brl(amount)}"
            )[:300],
            due_on=today,
            url=reverse("enforcement:fine", kwargs={"pk": fine.pk}),
        )


@transaction.atomic
def record_refund(
    *, actor: Any, fine: Fine, refunded_on: dt.date, reference: str, reason: str, today: dt.date | None = None
) -> Fine:
    """Record that what a fine's payment has no ground for any more was given back (audited): the
    whole fine of an annulled notice, or the difference of a reduced one."""
    today = today or timezone.localdate()
    fine = lock_fine(fine)
    if fine.status not in PAID:
        raise ValidationError("Só uma multa paga (ou descontada de créditos) pode ser restituída.")
    amount, why = refundable(fine)
    if amount <= 0:
        notice = InfractionNotice.unscoped.get(pk=fine.notice_id)
        raise ValidationError(
            f"O auto {notice.number} não foi anulado nem teve a multa reduzida: a multa paga é devida."
        )
    if fine.paid_on is not None and refunded_on < fine.paid_on:
        raise ValidationError("A restituição não pode ser anterior ao pagamento.")
    if refunded_on > today:
        raise ValidationError("A data da restituição não pode ser futura.")
    if not (reference or "").strip():
        raise ValidationError("Informe a referência da restituição (ordem bancária, processo).")
    whole = amount == fine.paid_amount
    changes: dict[str, Any] = {
        "refunded_amount": amount,
        "status_note": f"Restituídos {brl(amount)} em {br_date(refunded_on)}: {reference.strip()} ({why}).",
    }
    if whole:
        changes["status"] = Status.REFUNDED
    return update_audited(
        actor=actor, instance=fine, changes=changes, reason=reason, action="enforcement.fine_refunded"
    )
