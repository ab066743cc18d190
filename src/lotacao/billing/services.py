"""billing's public writes for other apps: issue a charge, record its payment, cancel it, mark it
contested (enforcement and inspections call these); the wings hold the rest."""

from lotacao.billing.ledger.services import cancel_charge, issue_charge, record_payment, set_contested

__all__ = ["cancel_charge", "issue_charge", "record_payment", "set_contested"]
