"""A rate limit on the public check, counted in the shared cache (every process and machine).

`LOTACAO_PUBLIC_RATE_LIMIT` is "requests/seconds" per client address (default 120 in 60 s: a
passenger checking plates at a stop never meets it; a script sweeping the register does). The
count of the current window lives in Django's cache (`LOTACAO_PUBLIC_RATE_CACHE`, default
"default"): Redis or the database in production (config/settings/production.py), so all app
servers share it. Over the limit: 429, a problem body in Portuguese and `Retry-After`. If the cache
itself fails, the public answer matters more: the request goes through, and for `RETRY_SECONDS` the
process counts alone against the same limit (said once in the log) before it asks the cache again,
adding what it counted meanwhile.
The client's address is REMOTE_ADDR, or, behind `LOTACAO_PROXY_COUNT` proxies, the address they
appended to X-Forwarded-For.

Far from the limit a process does not ask the cache on every request: it adds its requests to the
shared count in one batch (INCRBY) at most every `SYNC_SECONDS`, and asks at once whenever an
address it has not counted lately appears or its count, as last seen plus this process's own since,
reaches half the limit. Near the limit every request is therefore counted in the cache before it is
answered, exactly as without the batch; far from it the count is at most `SYNC_SECONDS` behind, which
a limit meant for scripts sweeping the register does not feel. What a process holds between two
batches is only its own requests of that fraction of a second: the count is the cache's.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse

from lotacao.core.problems import problem

log = logging.getLogger("lotacao.public")

SYNC_SECONDS = 0.25  # the longest a process keeps requests it has not added to the shared count
RETRY_SECONDS = 5.0  # after the cache failed, how long a process counts alone before asking again
_clock = time.monotonic  # (tests move it)


def limit() -> tuple[int, int]:
    """(requests, seconds) from LOTACAO_PUBLIC_RATE_LIMIT; (0, …) turns the limit off."""
    text = str(getattr(settings, "LOTACAO_PUBLIC_RATE_LIMIT", "120/60"))
    count, _, seconds = text.partition("/")
    return int(count), max(int(seconds or 60), 1)


def client_address(request: HttpRequest) -> str:
    proxies = int(getattr(settings, "LOTACAO_PROXY_COUNT", 0) or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return str(hops[-proxies] if len(hops) >= proxies else hops[0])
    return str(request.META.get("REMOTE_ADDR") or "")


def _start_count(cache: Any, key: str, window: int, amount: int) -> Callable[[], int]:
    """Add `amount` requests to the window's shared count; the returned function gives the count.

    On Redis the INCRBY (and the window's EXPIRE) is sent at once and its answer read only when
    asked, so the cache's round trip overlaps the database's instead of adding to it. On any other
    cache (the database's) it is the portable add-or-increment, done at once."""
    if isinstance(cache, RedisCache):
        full = cache.make_and_validate_key(key)
        client = _redis_clients.get(id(cache))
        if client is None:
            client = _redis_clients[id(cache)] = cache._cache.get_client(full, write=True)
        pool = client.connection_pool
        conn = pool.get_connection("INCRBY")
        try:
            conn.send_command("INCRBY", full, amount)
            conn.send_command("EXPIRE", full, window + 1, "NX")
        except BaseException:
            pool.release(conn)
            raise

        def finish() -> int:
            try:
                count = int(conn.read_response())
                conn.read_response()
            except BaseException:
                conn.disconnect()
                raise
            finally:
                pool.release(conn)
            return count

        return finish
    try:
        count = int(cache.incr(key, amount))
    except ValueError:  # first request of the window
        count = amount if cache.add(key, amount, timeout=window + 1) else int(cache.incr(key, amount))
    return lambda: count


_redis_clients: dict[int, Any] = {}  # one client (and its connection pool) per process


@dataclass
class _Tally:
    """One address's window as this process sees it."""

    seen: int = 0  # the shared count the last time this process added to it
    own: int = 0  # this process's requests not yet added
    synced: float = 0.0  # when (_clock) it last added them


_tallies: dict[tuple[str, str, int], _Tally] = {}  # (cache, address, window slot) → tally
_lock = threading.Lock()  # gunicorn's threaded workers share a process
_down_until = 0.0  # (_clock) the cache failed: until then this process counts alone
_newest_slot = -1  # the newest window this process has counted in


def forget() -> None:
    """Drop what this process holds (tests that clear the cache)."""
    global _down_until
    with _lock:
        _tallies.clear()
        _down_until = 0.0


def _tally(alias: str, address: str, slot: int) -> _Tally:
    global _newest_slot
    tally = _tallies.get((alias, address, slot))
    if tally is None:
        if slot > _newest_slot:  # a new window: drop the ended ones, once per window
            for old in [k for k in _tallies if k[2] < slot]:
                del _tallies[old]
            _newest_slot = slot
        tally = _tallies[(alias, address, slot)] = _Tally()
    return tally


def cache_key(address: str, slot: int) -> str:
    """The shared count's key of one address in one window."""
    return f"lotacao:public-rate:{address}:{slot}"


def start(request: HttpRequest) -> Callable[[], HttpResponse | None]:
    """Count the request now; the returned function says, when called, whether it is over the
    limit (None: go on; otherwise the 429 to send). Call it once, whatever happens in between."""
    count_max, window = limit()
    if count_max <= 0:
        return lambda: None
    now = time.time()
    slot = int(now // window)
    address = client_address(request)
    alias = str(getattr(settings, "LOTACAO_PUBLIC_RATE_CACHE", "default"))
    clock = _clock()
    with _lock:
        tally = _tally(alias, address, slot)
        tally.own += 1
        if clock < _down_until:  # the cache failed lately: this process's own count decides
            over = tally.seen + tally.own > count_max
            return lambda: _refusal(slot, window, now) if over else None
        if tally.synced and clock - tally.synced < SYNC_SECONDS and 2 * (tally.seen + tally.own) < count_max:
            return lambda: None  # far from the limit and counted lately: added with the next batch
        amount, tally.own = tally.own, 0
        tally.synced = clock
    key = cache_key(address, slot)
    try:
        pending = _start_count(caches[alias], key, window, amount)
    except Exception:  # a cache failure must not take the public check down
        return _lost(tally, amount, clock)

    def verdict() -> HttpResponse | None:
        try:
            count = pending()
        except Exception:  # a cache failure must not take the public check down
            return _lost(tally, amount, clock)()
        with _lock:
            tally.seen = count
        return _refusal(slot, window, now) if count > count_max else None

    return verdict


def _refusal(slot: int, window: int, now: float) -> HttpResponse:
    retry = max(math.ceil((slot + 1) * window - now), 1)
    response = problem(
        429,
        f"Muitas consultas seguidas a partir deste endereço. Tente de novo em {retry} segundos.",
    )
    response["Retry-After"] = str(retry)
    return response


def _lost(tally: _Tally, amount: int, clock: float) -> Callable[[], None]:
    """The cache did not take the batch: keep it for when the cache answers again (this process
    counts alone for RETRY_SECONDS, said once in the log), and let the request through."""
    global _down_until
    with _lock:
        tally.own += amount
        tally.synced = 0.0
        first = _down_until == 0.0 or clock >= _down_until + RETRY_SECONDS
        _down_until = clock + RETRY_SECONDS
    if first:
        log.warning("public rate limit: cache unavailable; counting in this process", exc_info=True)
    return lambda: None


def throttled(request: HttpRequest) -> HttpResponse | None:
    """None when the request may go on; otherwise the 429 to send."""
    return start(request)()
