"""The public plate check read from a PostgreSQL replica, and back on the primary when it lags or
is down.

`PublicReplicaRouter` (in DATABASE_ROUTERS) sends the reads made inside `public_reads()` to the
alias named by `LOTACAO_PUBLIC_REPLICA` while that replica is usable; every other read, and every
write (the read model's fills included), goes to the primary. Usable means: it answered the last
probe, and its lag was at most `LOTACAO_PUBLIC_REPLICA_MAX_LAG` seconds. The probe runs at most once
every `LOTACAO_PUBLIC_REPLICA_PROBE_SECONDS` per process:

- a streaming standby (`pg_is_in_recovery()`): no lag when everything received is replayed,
  otherwise the age of the last replayed transaction (`pg_last_xact_replay_timestamp()`);
- anything else (a logical subscriber, the stand-in of the tests): the heartbeat row. Each probe
  writes the time on the primary; a replica whose copy is older than the primary's last beat has
  been behind for at least as long as that beat is old.

A connection failure is "down": the probe says so, and a public read that fails on the replica is
retried on the primary at once (`with_fallback`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings
from django.db import DatabaseError, connections
from django.utils import timezone

log = logging.getLogger("lotacao.public")

_PUBLIC: ContextVar[bool] = ContextVar("lotacao_public_reads", default=False)
_HEALTH: dict[str, tuple[float, bool]] = {}  # alias -> (monotonic time of the probe, usable)

T = TypeVar("T")


@contextmanager
def public_reads() -> Iterator[None]:
    """Reads made inside may be served by the public replica."""
    token = _PUBLIC.set(True)
    try:
        yield
    finally:
        _PUBLIC.reset(token)


def replica_alias() -> str | None:
    alias = getattr(settings, "LOTACAO_PUBLIC_REPLICA", None)
    return alias if alias and alias in settings.DATABASES else None


def lag_seconds(alias: str) -> float:
    """How far behind the primary the replica is (seconds); raises when it cannot be reached."""
    conn = connections[alias]
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute("SELECT pg_is_in_recovery()")
            if cursor.fetchone()[0]:
                cursor.execute(
                    "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
                    "ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END"
                )
                return float(cursor.fetchone()[0])
    return _heartbeat_lag(alias)


def _heartbeat_lag(alias: str) -> float:
    from lotacao.public.models import ReplicaHeartbeat

    now = timezone.now()
    primary = ReplicaHeartbeat.objects.using("default").filter(pk=1).values_list("beat", flat=True).first()
    copy = ReplicaHeartbeat.objects.using(alias).filter(pk=1).values_list("beat", flat=True).first()
    lag = 0.0
    if primary is not None and (copy is None or copy < primary):
        lag = max((now - primary).total_seconds(), 0.0)
    ReplicaHeartbeat.objects.using("default").update_or_create(pk=1, defaults={"beat": now})
    return lag


def replica_usable(alias: str) -> bool:
    every = float(getattr(settings, "LOTACAO_PUBLIC_REPLICA_PROBE_SECONDS", 5))
    checked = _HEALTH.get(alias)
    now = time.monotonic()
    if checked is not None and now - checked[0] < every:
        return checked[1]
    try:
        lag = lag_seconds(alias)
        usable = lag <= float(getattr(settings, "LOTACAO_PUBLIC_REPLICA_MAX_LAG", 1.0))
        if not usable:
            log.warning("public replica %s lags %.1f s: reading the primary", alias, lag)
    except Exception:
        log.warning("public replica %s is unreachable: reading the primary", alias, exc_info=True)
        connections[alias].close_if_unusable_or_obsolete()
        usable = False
    _HEALTH[alias] = (now, usable)
    return usable


def mark_down(alias: str) -> None:
    _HEALTH[alias] = (time.monotonic(), False)


def forget_health() -> None:
    _HEALTH.clear()


def current_read_alias() -> str:
    alias = replica_alias()
    return alias if _PUBLIC.get() and alias and replica_usable(alias) else "default"


def with_fallback(read: Callable[[], T]) -> T:
    """Run a public read on the replica when usable; if the replica fails under it, on the primary."""
    alias = replica_alias()
    with public_reads():
        if alias is None or not replica_usable(alias):
            return read()
        try:
            return read()
        except DatabaseError:
            log.warning("public read failed on replica %s: retrying on the primary", alias, exc_info=True)
            mark_down(alias)
            return read()


class PublicReplicaRouter:
    """Public reads to the replica while usable; everything else to the primary."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        if not _PUBLIC.get():
            return None
        alias = replica_alias()
        if alias is not None and replica_usable(alias):
            return alias
        return None

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        return "default" if _PUBLIC.get() else None

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        alias = replica_alias()
        if alias is not None and {obj1._state.db, obj2._state.db} <= {alias, "default"}:
            return True
        return None

