"""billing's public reads: the clearance (quitação) other apps consult (see clearance/)."""

from lotacao.billing.clearance.selectors import (
    PROCEDURES,
    Clearance,
    blocked_procedures,
    blocking_charges,
    clearance,
)

__all__ = ["PROCEDURES", "Clearance", "blocked_procedures", "blocking_charges", "clearance"]
