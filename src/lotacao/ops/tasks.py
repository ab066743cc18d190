"""The nightly jobs as django-tasks tasks: one task per job and day, run by any worker.

`manage.py run_nightly` enqueues the first job of the day's list; each task runs its job through
`lotacao.core.jobs.run` (the lock, the `JobRun`, once per job and day) and then enqueues the next,
so the order of `ops.nightly.JOBS` holds even with several workers taking tasks (permits expire
before the work queue is rebuilt from the result). One job failing does not stop the list.

When the job is held by another run (another worker, a manual `run_nightly --somente`), the task
comes back a minute later rather than skipping ahead of it; the other run's success is then seen
and the list goes on. Enqueued twice (two timers) the jobs still run once each: the second list
finds each job done, or waits behind it.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.utils import timezone
from django_tasks import task

from lotacao.core import jobs
from lotacao.core.models import JobRun
from lotacao.ops.nightly import BY_NAME

log = logging.getLogger("lotacao.jobs")

QUEUE = "nightly"
RETRY_HELD_AFTER = dt.timedelta(minutes=1)
MAX_HELD_RETRIES = 360  # six hours behind another run, as core.jobs.STALE_AFTER


@task(queue_name=QUEUE)
def run_nightly_job(
    name: str, day: str, rest: list[str], again: bool = False, held: int = 0
) -> dict[str, Any]:
    """Run the job `name` for `day` (ISO date), then enqueue the first of `rest` with the others."""
    job = BY_NAME[name]
    reference = dt.date.fromisoformat(day)
    go_on = True
    outcome: dict[str, Any] = {"job": name, "day": day}
    try:
        record = jobs.run(job, reference, once_per_day=not again)
        outcome.update(status=record.status, run=record.pk)
        if record.status == JobRun.Status.SKIPPED:
            go_on = False
            backend = run_nightly_job.get_backend()
            if backend.supports_defer and held < MAX_HELD_RETRIES:
                run_nightly_job.using(run_after=timezone.now() + RETRY_HELD_AFTER).enqueue(
                    name, day, rest, again, held + 1
                )
                outcome["status"] = "waiting"
            else:
                log.warning("nightly list stopped at %s: held by another run", name, extra={"job": name})
    finally:
        if go_on and rest:
            run_nightly_job.enqueue(rest[0], day, rest[1:], again)
    return outcome


def enqueue_day(names: list[str], day: dt.date, *, again: bool = False) -> None:
    """Put the day's list of nightly jobs on the queue (its first job; each enqueues the next)."""
    if names:
        run_nightly_job.enqueue(names[0], day.isoformat(), names[1:], again)
