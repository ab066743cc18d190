"""The fines a holder owes that are not yet a billing charge, for the one ledger
(`billing.ledger.debts`, seam `holder_debts`): a fine in a fiscal unit whose value the agency has
not published (Maricá's UFIMA, art. 51), a fine whose due date is not set yet. Each says plainly
what is missing; none offers a slip."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP
from typing import Any

from django.urls import reverse

from lotacao.billing.ledger.debts import Debt
from lotacao.billing.ledger.models import Charge
from lotacao.core.formats import br_number
from lotacao.enforcement.models import Fine
from lotacao.enforcement.sanctions.fine_due import CENT
from lotacao.enforcement.sanctions.fine_payment import slip_refusal
from lotacao.enforcement.sanctions.fines import unit_value

# A fine awaiting its decision or suspended is not owed yet (the notice's page says why); an open
# one is, whether or not it became a charge.
OWED = (Fine.Status.OPEN,)


def holder_debts(holder: Any, on: dt.date) -> list[Debt]:
    fines = Fine.unscoped.filter(holder=holder, status__in=OWED).select_related("notice", "jurisdiction")
    open_charges = set(
        Charge.unscoped.filter(holder=holder, cancelled=False, paid_on__isnull=True).values_list(
            "pk", flat=True
        )
    )
    debts = []
    for fine in fines.order_by("due_on", "id"):
        if fine.charge_id in open_charges:
            continue  # already in the ledger as a charge
        amount = fine.amount
        if amount is None and fine.units is not None:
            rate, _cite, _why = unit_value(fine.jurisdiction_id, fine.unit, on)
            amount = (fine.units * rate).quantize(CENT, ROUND_HALF_UP) if rate is not None else None
        units = f" ({br_number(fine.units)} {fine.unit})" if fine.in_units and fine.units is not None else ""
        debts.append(
            Debt(
                kind="Multa",
                description=f"Multa do auto de infração {fine.notice.number}{units}",
                amount=amount,
                due_on=fine.due_on,
                status=fine.get_status_display(),
                detail_url=reverse("enforcement:notice", args=[fine.notice_id]) + "#multa",
                note=slip_refusal(fine, on) or "A guia desta multa ainda não foi emitida.",
                citation="; ".join(str(c) for c in fine.due_citations or []),
                overdue=fine.due_on is not None and fine.due_on < on and fine.status == Fine.Status.OPEN,
            )
        )
    return debts
