"""The public read model built in ranges of vehicles that several workers share.

A build (the night's, or a full rebuild) is a list of `AnswerChunk` rows, each a range of vehicle
ids, planned at once by the job that starts it (`plan`). Any process then works the build
(`work`): it takes the first range nobody holds with `SELECT … FOR UPDATE SKIP LOCKED`, keeps the
row locked while it computes the range's answers set-based (`readmodel.answers`: each domain asked
once per range, no query per vehicle) and writes them with one `UPDATE … FROM unnest(…)`, and marks
the range done in that same transaction. So:

- no double work: a range is held by one transaction at a time, and one that is done is skipped;
- no gap: a range is done only when its answers are committed with it; a worker that dies in the
  middle rolls back and frees its range, which the next worker (or the job, waiting for the last
  ranges) takes again;
- only what changed: the night's build takes the rows marked dirty by a write, never computed, or
  reaching their `changes_on` (the first day the answer may differ by the date alone: a policy or a
  seal running out, a measure or a law taking effect). A full build (`full=True`) takes them all.

The nightly job (`run`) plans the build, puts `LOTACAO_PUBLIC_BUILD_HELPERS` tasks on the nightly
queue for the other `db_worker` processes (PostgreSQL; on SQLite, the embedded single-process
database, the job works alone), works the build itself and returns when every range is done.
"""

from __future__ import annotations

import datetime as dt
import gc
import logging
import os
import socket
import time
import uuid
from typing import Any

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from lotacao.core.bulk import among
from lotacao.public import readmodel
from lotacao.public.models import AnswerChunk

log = logging.getLogger("lotacao.public")

CHUNK = 2000  # vehicles per range: a few hundred kB of rows read, one UPDATE written
HELPERS = 3
WAIT = dt.timedelta(hours=6)
KEEP_CHUNKS = dt.timedelta(days=30)
POLL_SECONDS = 0.2
STALE = "(a.dirty = %s OR a.day IS NULL OR a.day > %s OR (a.changes_on IS NOT NULL AND a.changes_on <= %s))"


def _stale(day: dt.date) -> tuple[str, list[Any]]:
    return STALE, [True, day, day]


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:128]


def add_missing_rows() -> int:
    """A dirty row for every vehicle that has none (loaded in bulk, or before the read model)."""
    from lotacao.registry.models import Vehicle

    table = readmodel._table()
    with connections[readmodel._write_alias()].cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (vehicle_id, plate, jurisdiction, day, body, version, dirty) "  # noqa: S608
            f"SELECT v.id, v.plate, v.jurisdiction_id, NULL, '', 0, %s FROM {Vehicle._meta.db_table} v "
            f"WHERE NOT EXISTS (SELECT 1 FROM {table} a WHERE a.vehicle_id = v.id) "
            "ON CONFLICT (vehicle_id) DO NOTHING",
            [True],
        )
        return max(int(cursor.rowcount), 0)


def plan(day: dt.date, *, full: bool = False, size: int | None = None) -> str:
    """Cut the rows to compute into ranges of `size` rows (one query) and record them; returns the
    build's name."""
    size = size or int(getattr(settings, "LOTACAO_PUBLIC_BUILD_CHUNK", CHUNK))
    where, params = ("TRUE", []) if full else _stale(day)
    sql = (
        "SELECT MIN(vehicle_id), MAX(vehicle_id) FROM ("  # noqa: S608 (table name from the model)
        f"SELECT a.vehicle_id, (ROW_NUMBER() OVER (ORDER BY a.vehicle_id) - 1) / %s AS g "
        f"FROM {readmodel._table()} a WHERE {where}) s GROUP BY g ORDER BY g"
    )
    with connections[readmodel._write_alias()].cursor() as cursor:
        cursor.execute(sql, [size, *params])
        ranges = cursor.fetchall()
    build = f"{day.isoformat()}:{'full' if full else 'changed'}:{uuid.uuid4().hex[:12]}"
    AnswerChunk.objects.bulk_create(
        [AnswerChunk(build=build, day=day, full=full, first=lo, last=hi) for lo, hi in ranges]
    )
    return build


def compute_range(
    first: int, last: int, day: dt.date, *, full: bool, only: list[int] | None = None
) -> tuple[int, int]:
    """Compute and write the answers of the rows in [first, last] that need it (all with `full`).
    Returns (written, left: a writer changed the row meanwhile, so the next reader computes it).
    The versions are read before the domains: a change committed after that moves the version and
    the row is not written over."""
    from lotacao.core.models import Jurisdiction
    from lotacao.registry.models import Vehicle

    where, params = ("TRUE", []) if full else _stale(day)
    sql = (
        f"SELECT a.vehicle_id, a.version FROM {readmodel._table()} a "  # noqa: S608
        f"WHERE a.vehicle_id >= %s AND a.vehicle_id <= %s AND {where}"
    )
    args: list[Any] = [first, last, *params]
    if only is not None:
        sql += f" AND a.vehicle_id IN ({', '.join(['%s'] * len(only))})"
        args.extend(only)
    with connections[readmodel._write_alias()].cursor() as cursor:
        cursor.execute(sql, args)
        versions = dict(cursor.fetchall())
    if not versions:
        return 0, 0
    places = {j.pk: j for j in Jurisdiction.unscoped.all()}
    vehicles = [v for v in Vehicle.unscoped.filter(among("id", versions)).order_by("pk") if v.pk in versions]
    for vehicle in vehicles:
        vehicle.jurisdiction = places[vehicle.jurisdiction_id]  # a few rows, not one per vehicle
    collecting = gc.isenabled()
    gc.disable()  # thousands of model rows made and dropped at once: no cycle to collect meanwhile
    try:
        computed = readmodel.answers(vehicles, day)
    finally:
        if collecting:
            gc.enable()
    rows = [(pk, versions[pk], *computed[pk]) for pk in sorted(computed)]
    written = readmodel.store_many(rows, day)
    return written, len(versions) - written


def work(build: str, *, worker: str | None = None) -> int:
    """Take and compute the build's free ranges until none is left; returns how many this call did."""
    worker = worker or worker_name()
    done = 0
    while True:
        with transaction.atomic(using=readmodel._write_alias()):
            chunk = (
                AnswerChunk.objects.select_for_update(skip_locked=True)
                .filter(build=build, done_at__isnull=True)
                .order_by("id")
                .first()
            )
            if chunk is None:
                return done
            chunk.written, chunk.kept = compute_range(chunk.first, chunk.last, chunk.day, full=chunk.full)
            chunk.done_at = timezone.now()
            chunk.worker = worker
            chunk.save(update_fields=["written", "kept", "done_at", "worker"])
        done += 1


def finish(build: str, *, wait: dt.timedelta = WAIT) -> None:
    """Work the build and wait for the ranges other workers hold, until every range is done (a
    range whose worker died is free again and taken here)."""
    deadline = time.monotonic() + wait.total_seconds()
    while True:
        work(build)
        if not AnswerChunk.objects.filter(build=build, done_at__isnull=True).exists():
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"reconstrução {build}: faixas ainda em cálculo depois de {wait}")
        time.sleep(POLL_SECONDS)


def counts(build: str) -> dict[str, int]:
    chunks = list(AnswerChunk.objects.filter(build=build).values_list("written", "kept", "worker"))
    return {
        "recalculadas": sum(c[0] for c in chunks),
        "alteradas_durante": sum(c[1] for c in chunks),
        "faixas": len(chunks),
        "processos": len({c[2] for c in chunks}),
    }


def start_helpers(build: str, helpers: int | None = None) -> int:
    """Put tasks working this build on the nightly queue, for the other workers (PostgreSQL)."""
    from lotacao.public.tasks import work_public_answers

    if connections[readmodel._write_alias()].vendor != "postgresql":
        return 0
    wanted = (
        helpers if helpers is not None else int(getattr(settings, "LOTACAO_PUBLIC_BUILD_HELPERS", HELPERS))
    )
    ranges = AnswerChunk.objects.filter(build=build).count()
    wanted = min(wanted, max(ranges - 1, 0))
    for _ in range(wanted):
        work_public_answers.enqueue(build)
    return wanted


def run(day: dt.date, *, full: bool = False, helpers: int | None = None) -> dict[str, int]:
    """The nightly job: the answers that changed (all with `full`), shared with the other workers."""
    AnswerChunk.objects.filter(day__lt=day - KEEP_CHUNKS).delete()  # the record of older builds
    added = add_missing_rows()
    build = plan(day, full=full)
    start_helpers(build, helpers)
    finish(build)
    found = {"novas": added, **counts(build)}
    log.info("public answers built for %s: %s", day.isoformat(), found)
    return found
