"""Work-queue provider: holders enrolled for a fee on demand whose declaration of last month is
missing (the clerk files it, or the agency enters its survey)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from dateutil.relativedelta import relativedelta
from django.db.models import Q

from lotacao.billing import lawdata
from lotacao.billing.ledger.models import Account
from lotacao.billing.runs.models import DemandDeclaration
from lotacao.core import law
from lotacao.workqueue.services import WorkItemSpec

KIND_LABELS = {"billing.declaration_missing": "Declaração de demanda ausente"}


def _needs_demand(code: str, on: dt.date) -> bool:
    fees, _ = lawdata.monthly_fees(code, on)
    for fee in fees:
        rule = law.value(code, f"fee.{fee}", on)
        if isinstance(rule, dict) and "rate" in rule:
            return True
    return False


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    month = today.replace(day=1) - relativedelta(months=1)
    end = today.replace(day=1) - dt.timedelta(days=1)
    codes = Account.unscoped.values_list("jurisdiction_id", flat=True).distinct()
    for code in sorted(set(codes)):
        if not _needs_demand(code, today):
            continue
        declared = set(
            DemandDeclaration.unscoped.filter(jurisdiction_id=code, month=month).values_list(
                "holder_id", flat=True
            )
        )
        accounts = (
            Account.unscoped.filter(jurisdiction_id=code, opened_on__lte=end)
            .filter(Q(closed_on__isnull=True) | Q(closed_on__gte=month))
            .values_list("holder_id", "holder__person__full_name", "holder__company__legal_name")
        )
        for holder_id, person, company in accounts.iterator(chunk_size=5000):
            if holder_id in declared:
                continue
            yield WorkItemSpec(
                jurisdiction_id=code,
                kind="billing.declaration_missing",
                key=f"declaration:{holder_id}:{month:%Y-%m}",
                title=f"Declaração de demanda de {month:%m/%Y} não entregue — {person or company}",
                due_on=end + dt.timedelta(days=1),
                url=f"/cobranca/permissionario/{holder_id}/",
            )
