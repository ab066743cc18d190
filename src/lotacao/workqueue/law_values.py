"""The manager's work item for a value the law leaves open that someone met as a block (issue 11):
opened when a clerk meets it (`request_value`), kept by the nightly refresh while the value is
still missing, closed as soon as the agency supplies it (`value_supplied`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.urls import reverse

from lotacao.core import open_values
from lotacao.core.law import entry, pack_for
from lotacao.workqueue.models import WorkItem
from lotacao.workqueue.services import WorkItemSpec, open_item

KIND = "law.value_missing"


def _spec(code: str, parameter: str) -> WorkItemSpec:
    description = pack_for(code).parameters[parameter].description
    blocks = open_values.blocks(parameter)
    title = f"Informar: {description}" + (f" — {blocks}" if blocks else "")
    url = reverse("law:parameter") + f"?j={code}&p={parameter}"
    return WorkItemSpec(
        jurisdiction_id=code, kind=KIND, key=parameter, title=title[:300], due_on=None, url=url
    )


def missing(code: str, parameter: str, on: dt.date) -> bool:
    found = entry(code, parameter, on)
    return found is not None and found.status == "undefined"


def request_value(code: str, parameter: str, on: dt.date) -> WorkItem | None:
    """Ask the manager for `parameter` (a work item), once while it is missing; None otherwise."""
    if not pack_for(code).has(parameter) or not missing(code, parameter, on):
        return None
    return open_item(_spec(code, parameter), on)


def value_supplied(code: str, parameter: str, on: dt.date) -> int:
    """Close the manager's item once the value is no longer missing; how many were closed."""
    if missing(code, parameter, on):
        return 0
    return WorkItem.unscoped.filter(
        jurisdiction_id=code, kind=KIND, key=parameter, status=WorkItem.Status.OPEN
    ).update(status=WorkItem.Status.CLOSED, closed_on=on)


def items(today: dt.date, horizon: int) -> Iterable[WorkItemSpec]:
    """The nightly refresh keeps each requested value open while it is still missing."""
    requested = WorkItem.unscoped.filter(kind=KIND, status=WorkItem.Status.OPEN).values_list(
        "jurisdiction_id", "key"
    )
    for code, parameter in requested:
        if pack_for(code).has(parameter) and missing(code, parameter, today):
            yield _spec(code, parameter)
