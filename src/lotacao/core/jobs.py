"""Supervised scheduled jobs: each runs on its own, never twice at once, and leaves a record.

`run(job, day)` runs one job function under a lock and writes a `JobRun` (start, end, counts,
error). The lock is the `JobRun` row itself — a partial unique index lets only one run of a job be
`running` — and, on PostgreSQL, a session advisory lock as well, so a run whose process died does
not block the next night: its row is marked `abandoned` when the advisory lock shows nobody holds
it (on SQLite, the embedded demo database, after `STALE_AFTER`).

A job function takes the reference day and returns what it counted: an int, a dataclass, or a
dict; lists are counted by their length.

With `once_per_day=True` (how the nightly tasks call it) a job that already succeeded for the
day is not run again: the existing record is returned. The check is made while holding the job's
`running` slot, so two workers that take the same job for the same day run it once.

The queue: the nightly jobs run as django-tasks tasks (`lotacao.ops.tasks`, database backend
from django-tasks-db, on SQLite and PostgreSQL, one or several `manage.py db_worker` processes),
and so does the e-mail outbox. This module stays the supervisor inside each task — the queue
decides *where* a job runs, the lock and the `JobRun` that it runs once and what it did. The
queue's own rows say nothing about "never twice at once" (a worker that dies mid-task leaves its
row `RUNNING`), so it is not trusted with that.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import logging
import os
import socket
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from lotacao.core.models import JobRun

log = logging.getLogger("lotacao.jobs")

STALE_AFTER = dt.timedelta(hours=6)


@dataclass(frozen=True)
class Job:
    name: str
    label: str  # Portuguese, for the operator
    function: Callable[[dt.date], Any]


def counts_of(result: Any) -> dict[str, Any]:
    """What a job returned, as JSON-safe counts."""
    if result is None:
        return {}
    if isinstance(result, int):
        return {"total": result}
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        result = dataclasses.asdict(result)
    if isinstance(result, dict):
        return {
            str(key): len(value) if isinstance(value, list | tuple | set) else value
            for key, value in result.items()
            if isinstance(value, int | float | str | bool | list | tuple | set)
        }
    return {"resultado": str(result)}


def _lock_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(f"lotacao.job:{name}".encode()).digest()[:8], "big", signed=True)


@contextmanager
def _advisory_lock(name: str) -> Iterator[bool]:
    """PostgreSQL: a session advisory lock (True when taken). Elsewhere: always True."""
    if connection.vendor != "postgresql":
        yield True
        return
    key = _lock_key(name)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        taken = bool(cursor.fetchone()[0])
    try:
        yield taken
    finally:
        if taken:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def _release_abandoned(name: str, lock_taken: bool) -> None:
    """A `running` row nobody works on any more (its process died) stops blocking the job."""
    stale = JobRun.objects.filter(job=name, status=JobRun.Status.RUNNING)
    if connection.vendor != "postgresql" or not lock_taken:
        stale = stale.filter(started_at__lt=timezone.now() - STALE_AFTER)
    stale.update(status=JobRun.Status.ABANDONED, finished_at=timezone.now())


def _start(job: Job, day: dt.date) -> JobRun | None:
    try:
        with transaction.atomic():
            return JobRun.objects.create(job=job.name, day=day, host=f"{socket.gethostname()}:{os.getpid()}")
    except IntegrityError:
        return None


def _skipped(job: Job, day: dt.date) -> JobRun:
    log.warning("job %s skipped: another run is in progress", job.name, extra={"job": job.name})
    return JobRun.objects.create(
        job=job.name, day=day, status=JobRun.Status.SKIPPED, finished_at=timezone.now()
    )


def succeeded_for(name: str, day: dt.date) -> JobRun | None:
    """The run that completed this job for this reference day, if any."""
    return (
        JobRun.objects.filter(job=name, day=day, status=JobRun.Status.SUCCEEDED)
        .order_by("-started_at")
        .first()
    )


def run(job: Job, day: dt.date, *, once_per_day: bool = False) -> JobRun:
    """Run one job under its lock; its failure is recorded and logged, never raised.

    `once_per_day`: when the job already succeeded for `day`, return that record and run nothing.
    """
    with _advisory_lock(job.name) as taken:
        if not taken:
            return _skipped(job, day)
        _release_abandoned(job.name, taken)
        record = _start(job, day)
        if record is None:
            return _skipped(job, day)
        if once_per_day and (done := succeeded_for(job.name, day)) is not None:
            # Checked while holding the running slot: whoever completed it has released it.
            record.delete()
            log.info("job %s already done for %s", job.name, day.isoformat(), extra={"job": job.name})
            return done
        log.info("job %s started for %s", job.name, day.isoformat(), extra={"job": job.name})
        try:
            result = job.function(day)
        except Exception as error:
            record.status = JobRun.Status.FAILED
            record.error = "".join(traceback.format_exception(error))[-8000:]
            log.exception("job %s failed", job.name, extra={"job": job.name})
        else:
            record.status = JobRun.Status.SUCCEEDED
            record.counts = counts_of(result)
            log.info("job %s succeeded: %s", job.name, record.counts, extra={"job": job.name})
        record.finished_at = timezone.now()
        record.save(update_fields=["status", "error", "counts", "finished_at"])
        return record


def run_all(jobs: list[Job], day: dt.date) -> list[JobRun]:
    """Each job on its own: one failing does not skip the others."""
    return [run(job, day) for job in jobs]


def last_success(name: str) -> JobRun | None:
    return JobRun.objects.filter(job=name, status=JobRun.Status.SUCCEEDED).order_by("-started_at").first()
