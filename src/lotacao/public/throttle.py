"""A rate limit on the public check, counted in the shared cache (every process and machine).

`LOTACAO_PUBLIC_RATE_LIMIT` is "requests/seconds" per client address (default 120 in 60 s: a
passenger checking plates at a stop never meets it; a script sweeping the register does). The
counter of the current window lives in Django's cache (`LOTACAO_PUBLIC_RATE_CACHE`, default
"default"): Redis or the database in production (config/settings/production.py), so all app
servers share it. Over the limit: 429, a problem body in Portuguese and `Retry-After`. If the cache
itself fails the check lets the request through (logged): the public answer matters more.
The client's address is REMOTE_ADDR, or, behind `LOTACAO_PROXY_COUNT` proxies, the address they
appended to X-Forwarded-For.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse

from lotacao.core.problems import problem

log = logging.getLogger("lotacao.public")


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


def _start_count(cache: Any, key: str, window: int) -> Callable[[], int]:
    """Start counting this request; the returned function gives this window's count.

    On Redis the INCR (and the window's EXPIRE) is sent at once and its answer read only when asked,
    so the cache's round trip overlaps the database's instead of adding to it. On any other cache
    (the database's) it is the portable add-or-increment, done at once."""
    if isinstance(cache, RedisCache):
        full = cache.make_and_validate_key(key)
        client = _redis_clients.get(id(cache))
        if client is None:
            client = _redis_clients[id(cache)] = cache._cache.get_client(full, write=True)
        pool = client.connection_pool
        conn = pool.get_connection("INCR")
        try:
            conn.send_command("INCR", full)
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
        count = int(cache.incr(key))
    except ValueError:  # first request of the window
        count = 1 if cache.add(key, 1, timeout=window + 1) else int(cache.incr(key))
    return lambda: count


def _count(cache: Any, key: str, window: int) -> int:
    return _start_count(cache, key, window)()


_redis_clients: dict[int, Any] = {}  # one client (and its connection pool) per process


def start(request: HttpRequest) -> Callable[[], HttpResponse | None]:
    """Count the request now; the returned function says, when called, whether it is over the
    limit (None: go on; otherwise the 429 to send). Call it once, whatever happens in between."""
    count_max, window = limit()
    if count_max <= 0:
        return lambda: None
    now = time.time()
    slot = int(now // window)
    key = f"lotacao:public-rate:{client_address(request)}:{slot}"
    cache = caches[getattr(settings, "LOTACAO_PUBLIC_RATE_CACHE", "default")]
    try:
        pending = _start_count(cache, key, window)
    except Exception:  # a cache failure must not take the public check down
        log.warning("public rate limit: cache unavailable", exc_info=True)
        return lambda: None

    def verdict() -> HttpResponse | None:
        try:
            count = pending()
        except Exception:  # a cache failure must not take the public check down
            log.warning("public rate limit: cache unavailable", exc_info=True)
            return None
        if count <= count_max:
            return None
        retry = max(math.ceil((slot + 1) * window - now), 1)
        response = problem(
            429,
            f"Muitas consultas seguidas a partir deste endereço. Tente de novo em {retry} segundos.",
        )
        response["Retry-After"] = str(retry)
        return response

    return verdict


def throttled(request: HttpRequest) -> HttpResponse | None:
    """None when the request may go on; otherwise the 429 to send."""
    return start(request)()
