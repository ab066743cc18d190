"""Opening at once the work items a daily job found, from the same producers the nightly queue
provider (`lotacao.enforcement.queue`) yields: an item opened now is the item the next nightly
refresh keeps while its producer still yields it, so there is one source for each kind.

Items already open for the same object are left alone (as `workqueue.services.open_item`); the
check and the inserts are made in bulk, since a job may find many at once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from lotacao.workqueue.models import WorkItem
from lotacao.workqueue.services import WorkItemSpec

CHUNK = 5000


def _open_keys(specs: list[WorkItemSpec]) -> set[tuple[str, str, str]]:
    found: set[tuple[str, str, str]] = set()
    kinds = sorted({s.kind for s in specs})
    keys = sorted({s.key for s in specs})
    for start in range(0, len(keys), CHUNK):
        found.update(
            WorkItem.unscoped.filter(
                kind__in=kinds, status=WorkItem.Status.OPEN, key__in=keys[start : start + CHUNK]
            ).values_list("jurisdiction_id", "kind", "key")
        )
    return found


def open_now(specs: Iterable[WorkItemSpec], today: dt.date) -> int:
    """Open the items not open yet; returns how many were opened."""
    wanted = list(specs)
    if not wanted:
        return 0
    already = _open_keys(wanted)
    new: dict[tuple[str, str, str], WorkItem] = {}
    for spec in wanted:
        ident = (spec.jurisdiction_id, spec.kind, spec.key)
        if ident in already or ident in new:
            continue
        new[ident] = WorkItem(
            jurisdiction_id=spec.jurisdiction_id,
            kind=spec.kind,
            key=spec.key,
            title=spec.title,
            due_on=spec.due_on,
            url=spec.url,
            first_seen=today,
            last_seen=today,
        )
    WorkItem.unscoped.bulk_create(list(new.values()), batch_size=2000)
    return len(new)
