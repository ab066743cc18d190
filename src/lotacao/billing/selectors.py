"""billing's public reads: the clearance (quitação) other apps consult (see clearance/), and
whether a fee identified by its reference is paid (chartering's FUSP-LV before the inspection)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.billing.clearance.selectors import (
    PROCEDURES,
    Clearance,
    blocked_procedures,
    blocking_charges,
    clearance,
)
from lotacao.billing.ledger.models import Charge

__all__ = ["PROCEDURES", "Clearance", "blocked_procedures", "blocking_charges", "clearance", "fee_paid"]


def fee_paid(holder: Any, reference: str, on: dt.date) -> bool:
    """Whether the holder's charge with this reference (not cancelled) was paid on or before `on`."""
    return Charge.unscoped.filter(
        holder_id=holder.pk,
        reference=reference,
        cancelled=False,
        paid_on__isnull=False,
        paid_on__lte=on,
    ).exists()
