"""Work-queue provider: infraction notices not served by the agency's deadline to notify where
the law only sets the deadline (pack `notice.missed_notification_effect` = flag): a manager
decides. Where the law archives them, the daily `check_notification_deadlines` does."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from lotacao.enforcement.due_process.process import pending_items
from lotacao.enforcement.notices.notification import OVERDUE_KIND, _key, _title, late_items, overdue_notices
from lotacao.enforcement.sanctions.effects import effect_items
from lotacao.enforcement.sanctions.fines import nonpayment_items, refund_items
from lotacao.workqueue.services import WorkItemSpec


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    for item in overdue_notices(today):
        if item.effect != "flag":
            continue
        yield WorkItemSpec(
            jurisdiction_id=item.jurisdiction_id,
            kind=OVERDUE_KIND,
            key=_key(item),
            title=_title(item),
            due_on=item.due,
            url=f"/fiscalizacao/autos/{item.notice_id}/",
        )
    yield from pending_items(today)
    yield from late_items(today)
    yield from nonpayment_items(today)
    yield from refund_items(today)
    yield from effect_items(today, horizon)
