"""Work-queue provider of the ombudsman: open manifestations whose answer is due within five days
or overdue (Lei federal 13.460/2017, art. 16: 30 days, extendable once). The title names the
protocol and the kind only — never the complainant."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.urls import reverse

from lotacao.core.formats import br_date, lower_first
from lotacao.ombudsman.models import Complaint
from lotacao.ombudsman.states import OPEN
from lotacao.workqueue.services import WorkItemSpec

KIND = "ombudsman.due"
WARNING_DAYS = 5


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    limit = today + dt.timedelta(days=max(WARNING_DAYS, 0))
    rows = Complaint.unscoped.filter(status__in=OPEN, due_on__lte=limit).only(
        "pk", "jurisdiction_id", "protocol", "kind", "due_on", "extended_on"
    )
    for c in rows.iterator(chunk_size=2000):
        late = "venceu" if c.due_on < today else "vence"
        extended = " (já prorrogado)" if c.extended_on else ""
        yield WorkItemSpec(
            jurisdiction_id=c.jurisdiction_id,
            kind=KIND,
            key=str(c.pk),
            title=(
                f"Manifestação {c.protocol} ({lower_first(c.get_kind_display())}): a resposta {late} em "
                f"{br_date(c.due_on)}{extended} — Lei 13.460/2017, art. 16"
            )[:300],
            due_on=c.due_on,
            url=reverse("ombudsman:complaint", kwargs={"pk": c.pk}),
        )
