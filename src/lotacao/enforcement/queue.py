"""The nightly work-queue provider of enforcement (the `work_items` seam of
`lotacao.core.providers`): what each wing's producers yield. A daily job that opens an item at
once opens it from the same producer (`lotacao.enforcement.work_items.open_now`), so the nightly
refresh keeps exactly what the job opened while the producer still yields it.

- notices: notices not served by the agency's deadline where the law only flags it, and notices
  served late waiting for a manager's decision (`notices.deadlines`);
- due process: diligences past the law's number of sessions, decisions to communicate,
  notices waiting for the body's application of the penalty (Cabo art. 29);
- sanctions: unpaid fines (offset, suspension), fines to refund, effects undone on appeal to
  tell the holder, suspensions awaiting proof, revocation processes, interventions due or
  voided, interruption requests to decide or beyond the yearly limit (Maricá art. 38), and
  Pernambuco's repeats during a CRC sanction whose extension the manager decides (art. 31).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from lotacao.enforcement.due_process import application
from lotacao.enforcement.due_process.settle import pending_items
from lotacao.enforcement.notices.deadlines import late_items, overdue_items
from lotacao.enforcement.sanctions.crc import repeat_items
from lotacao.enforcement.sanctions.fine_payment import nonpayment_items
from lotacao.enforcement.sanctions.followups import followup_items
from lotacao.enforcement.sanctions.interruptions import interruption_items
from lotacao.enforcement.sanctions.interventions import intervention_items
from lotacao.enforcement.sanctions.refunds import refund_items
from lotacao.enforcement.sanctions.undo import undone_items
from lotacao.workqueue.services import WorkItemSpec


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    yield from overdue_items(today)
    yield from pending_items(today)
    yield from application.pending_items(today)
    yield from late_items(today)
    yield from nonpayment_items(today)
    yield from refund_items(today)
    yield from undone_items(today)
    yield from followup_items(today)
    yield from intervention_items(today, horizon)
    yield from interruption_items(today)
    yield from repeat_items(today)
