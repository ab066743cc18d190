"""Refresh the work queue from every app's providers (the nightly `build_work_queue` job).

A provider is a function `items(today, horizon) -> Iterable[WorkItemSpec]` given to the
`work_items` seam (lotacao.core.providers): whatever expires,
falls due or waits for action within `horizon` days (or is already overdue). Items no longer
produced are closed; open items keep their first date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from lotacao.core import providers
from lotacao.workqueue.models import WorkItem


@dataclass(frozen=True)
class WorkItemSpec:
    jurisdiction_id: str
    kind: str
    key: str
    title: str
    due_on: dt.date | None
    url: str = ""


@dataclass
class RefreshResult:
    opened: int = 0
    kept: int = 0
    closed: int = 0


def collect(today: dt.date, horizon: int) -> Iterable[WorkItemSpec]:
    for _name, items in providers.providers("work_items"):
        yield from items(today, horizon)


def open_item(spec: WorkItemSpec, today: dt.date) -> WorkItem | None:
    """Open a work item now (a job found something the nightly refresh will keep while its provider
    still yields it); None when one is already open for the same object."""
    if WorkItem.unscoped.filter(
        jurisdiction_id=spec.jurisdiction_id, kind=spec.kind, key=spec.key, status=WorkItem.Status.OPEN
    ).exists():
        return None
    return WorkItem.unscoped.create(
        jurisdiction_id=spec.jurisdiction_id,
        kind=spec.kind,
        key=spec.key,
        title=spec.title,
        due_on=spec.due_on,
        url=spec.url,
        first_seen=today,
        last_seen=today,
    )


@transaction.atomic
def refresh(today: dt.date, horizon: int = 30) -> RefreshResult:
    result = RefreshResult()
    open_items = {
        (w.jurisdiction_id, w.kind, w.key): w for w in WorkItem.objects.filter(status=WorkItem.Status.OPEN)
    }
    seen: set[tuple[str, str, str]] = set()
    new: list[WorkItem] = []
    changed: list[WorkItem] = []  # still open, with a new title, due date or address
    kept: list[int] = []  # still open, unchanged: only last_seen moves
    for spec in collect(today, horizon):
        ident = (spec.jurisdiction_id, spec.kind, spec.key)
        if ident in seen:
            continue
        seen.add(ident)
        item = open_items.get(ident)
        if item is None:
            new.append(
                WorkItem(
                    jurisdiction_id=spec.jurisdiction_id,
                    kind=spec.kind,
                    key=spec.key,
                    title=spec.title,
                    due_on=spec.due_on,
                    url=spec.url,
                    first_seen=today,
                    last_seen=today,
                )
            )
        elif (item.title, item.due_on, item.url) != (spec.title, spec.due_on, spec.url):
            item.title, item.due_on, item.url, item.last_seen = spec.title, spec.due_on, spec.url, today
            changed.append(item)
        else:
            kept.append(item.pk)
    WorkItem.objects.bulk_create(new, batch_size=2000)
    # bulk_update writes a CASE per row: keep it for the few changed rows; the many unchanged ones
    # get one plain UPDATE per batch (65.8 s → see docs/performance.md for 100,000 permits).
    WorkItem.objects.bulk_update(changed, ["title", "due_on", "url", "last_seen"], batch_size=500)
    for start in range(0, len(kept), 5000):
        WorkItem.objects.filter(pk__in=kept[start : start + 5000]).update(last_seen=today)
    stale = [w.pk for ident, w in open_items.items() if ident not in seen]
    for start in range(0, len(stale), 5000):
        WorkItem.objects.filter(pk__in=stale[start : start + 5000]).update(
            status=WorkItem.Status.CLOSED, closed_on=today
        )
    result.opened, result.kept, result.closed = len(new), len(changed) + len(kept), len(stale)
    return result
