"""Work-queue provider: every request filed online and still waiting for the clerk's decision."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.urls import reverse

from lotacao.core.formats import lower_first
from lotacao.workqueue.services import WorkItemSpec

from .models import Request
from .services import QUEUE_KIND


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    base = reverse("holder_requests:detail", args=[0])
    pending = Request.unscoped.filter(status=Request.Status.FILED).select_related(
        "holder__person", "holder__company"
    )
    for request in pending.iterator(chunk_size=2000):
        yield WorkItemSpec(
            jurisdiction_id=request.jurisdiction_id,
            kind=QUEUE_KIND,
            key=str(request.pk),
            title=f"Decidir: {lower_first(request.get_kind_display())} nº {request.protocol} "
            f"de {request.holder}"[:300],
            due_on=request.filed_on,
            url=base.replace("/0/", f"/{request.pk}/"),
        )
