"""The billing app's models, one module per wing (Django finds them through this module)."""

from lotacao.billing.fares.models import FareAct, FareStudy, Readjustment
from lotacao.billing.ledger.models import Account, Charge, Payment
from lotacao.billing.payments.models import BankImport, ReconciliationItem
from lotacao.billing.runs.models import BillingRun, DemandDeclaration

__all__ = [
    "Account",
    "BankImport",
    "BillingRun",
    "Charge",
    "DemandDeclaration",
    "FareAct",
    "FareStudy",
    "Payment",
    "Readjustment",
    "ReconciliationItem",
]
