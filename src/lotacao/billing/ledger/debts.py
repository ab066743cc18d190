"""One ledger: every open debt of a holder, wherever their debts are listed ("Minhas cobranças",
the portal's home, `GET /api/portal/summary`).

Most debts are `Charge` rows. A fine whose value in R$ is not known yet — in a fiscal unit whose
value the agency has not published (Maricá's UFIMA, art. 51), or awaiting its due date — is not a
charge (a charge has an amount), but it is owed: the module that owns it answers the seam
`holder_debts` with a `Debt` that says plainly what is missing, and no slip is offered for it.

A slip is offered only when it can be paid: a real amount and the agency's PIX key (the slip then
carries a BR Code "copia e cola" with its CRC, `payments/pix.py`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.urls import reverse

from lotacao.billing import lawdata
from lotacao.billing.ledger.models import Charge
from lotacao.core import providers

NO_PIX = "O órgão ainda não informou a chave PIX: pague no balcão ou na instituição bancária indicada."


@dataclass(frozen=True)
class Debt:
    """A debt as the holder reads it. `amount` None: its value in R$ is not known yet (`note`
    says why); `slip_url` "": no slip can be paid now (`note` says why)."""

    kind: str  # "Multa" or "Taxa"
    description: str
    amount: Decimal | None
    due_on: dt.date | None
    status: str
    code: str = ""  # the slip's code (the PIX transaction id), "" when there is no slip
    slip_url: str = ""
    detail_url: str = ""
    note: str = ""
    citation: str = ""
    charge: Charge | None = None
    overdue: bool = False


def open_charges(holder: Any, on: dt.date) -> list[Charge]:
    """The holder's charges neither paid (on `on`) nor cancelled, oldest due first."""
    return list(
        Charge.unscoped.filter(holder=holder, cancelled=False)
        .filter(Q(paid_on__isnull=True) | Q(paid_on__gt=on))
        .order_by("due_on", "id")
    )


def charge_debt(charge: Charge, on: dt.date, *, pix_key: bool) -> Debt:
    payable = pix_key and charge.amount > 0
    return Debt(
        kind=charge.get_kind_display(),
        description=charge.description,
        amount=charge.amount,
        due_on=charge.due_on,
        status=charge.status_label(on),
        code=charge.slip_code,
        slip_url=reverse("billing:slip", args=[charge.pk]) if payable else "",
        detail_url=reverse("billing:charge", args=[charge.pk]),
        note="" if payable else NO_PIX,
        citation=charge.citation,
        charge=charge,
        overdue=charge.is_overdue(on),
    )


def open_debts(holder: Any, on: dt.date) -> list[Debt]:
    """Every open debt of `holder` on `on`: its open charges, then what the owners of other debts
    answer through `holder_debts` (never a debt already in a charge)."""
    pix_key = lawdata.pix(holder.jurisdiction_id, on) is not None
    debts = [charge_debt(c, on, pix_key=pix_key) for c in open_charges(holder, on)]
    for _name, answer in providers.providers("holder_debts"):
        debts.extend(answer(holder, on))
    return sorted(debts, key=lambda d: (d.due_on is None, d.due_on or on))


def payable_total(debts: list[Debt]) -> Decimal:
    return sum((d.amount for d in debts if d.amount is not None), Decimal("0.00"))
