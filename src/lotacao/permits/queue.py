"""Work-queue provider: permit terms expiring within the horizon (or already past), and
applications waiting for analysis. Two set-based queries, no per-row queries."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from lotacao.permits.models import Permit
from lotacao.workqueue.services import WorkItemSpec


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    limit = today + dt.timedelta(days=horizon)
    rows = (
        Permit.unscoped.filter(status__in=Permit.LIVE, valid_until__lte=limit)
        .values_list("pk", "jurisdiction_id", "number", "valid_until")
        .iterator(chunk_size=5000)
    )
    for pk, jurisdiction_id, number, valid_until in rows:
        if valid_until is None:
            continue
        verb = "venceu em" if valid_until < today else "vence em"
        yield WorkItemSpec(
            jurisdiction_id=jurisdiction_id,
            kind="permit_term",
            key=f"permit:{pk}:{valid_until.isoformat()}",
            title=f"Permissão nº {number} {verb} {valid_until:%d/%m/%Y}",
            due_on=valid_until,
            url=f"/permissoes/{pk}/",
        )
    waiting = Permit.unscoped.filter(status__in=Permit.OPEN).values_list(
        "pk", "jurisdiction_id", "applied_on"
    )
    for pk, jurisdiction_id, applied_on in waiting.iterator(chunk_size=5000):
        yield WorkItemSpec(
            jurisdiction_id=jurisdiction_id,
            kind="permit_application",
            key=f"application:{pk}",
            title=f"Requerimento de permissão de {applied_on:%d/%m/%Y} aguardando análise",
            due_on=None,
            url=f"/permissoes/{pk}/outorga/",
        )
