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


def _count(cache: Any, key: str, window: int) -> int:
    """This window's count after this request: one round trip on Redis (INCR and EXPIRE in a
    pipeline), the portable add-or-increment on any other cache (the database's)."""
    if isinstance(cache, RedisCache):
        full = cache.make_and_validate_key(key)
        client = _redis_clients.get(id(cache))
        if client is None:
            client = _redis_clients[id(cache)] = cache._cache.get_client(full, write=True)
        pipe = client.pipeline(transaction=False)
        pipe.incr(full)
        pipe.expire(full, window + 1, nx=True)
        count, _ = pipe.execute()
        return int(count)
    try:
        return int(cache.incr(key))
    except ValueError:  # first request of the window
        return 1 if cache.add(key, 1, timeout=window + 1) else int(cache.incr(key))


_redis_clients: dict[int, Any] = {}  # one client (and its connection pool) per process


def throttled(request: HttpRequest) -> HttpResponse | None:
    """None when the request may go on; otherwise the 429 to send."""
    count_max, window = limit()
    if count_max <= 0:
        return None
    now = time.time()
    slot = int(now // window)
    key = f"lotacao:public-rate:{client_address(request)}:{slot}"
    cache = caches[getattr(settings, "LOTACAO_PUBLIC_RATE_CACHE", "default")]
    try:
        count = _count(cache, key, window)
    except Exception:
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
