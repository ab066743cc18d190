"""The public API's rate limit (429 with Retry-After, counted in the shared cache) and its HTTP
caching (ETag and conditional GET)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.utils import timezone

API = "/api/public/vehicles/"


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    from lotacao.public import throttle

    caches["default"].clear()
    throttle.forget()


class Clock:
    """Stands in for the throttle's monotonic clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    from lotacao.public import throttle

    fake = Clock()
    monkeypatch.setattr(throttle, "_clock", fake)
    return fake


def _shared_count(address: str = "127.0.0.1", window: int = 3600) -> int | None:
    import time

    from lotacao.public.throttle import cache_key

    value = caches["default"].get(cache_key(address, int(time.time() // window)))
    return None if value is None else int(value)


def test_over_the_limit_an_address_gets_429_with_retry_after(world: Any, client: Any, settings: Any) -> None:
    settings.LOTACAO_PUBLIC_RATE_LIMIT = "3/60"
    for _ in range(3):
        assert client.get(API + "ABA1C23").status_code == 200
    refused = client.get(API + "ABA1C23")
    assert refused.status_code == 429
    assert refused["Content-Type"] == "application/problem+json"
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "Muitas consultas" in refused.json()["detail"] and refused.json()["status"] == 429
    # The page is counted with the API; another address is not.
    page = client.get("/publico/veiculos/ABA1C23/")
    assert page.status_code == 429 and "Tente de novo em" in page.content.decode() and page["Retry-After"]
    assert client.get(API + "ABA1C23", REMOTE_ADDR="10.0.0.2").status_code == 200


def test_behind_a_proxy_the_forwarded_address_is_counted(world: Any, client: Any, settings: Any) -> None:
    settings.LOTACAO_PUBLIC_RATE_LIMIT = "2/60"
    settings.LOTACAO_PROXY_COUNT = 1
    for _ in range(2):
        assert client.get(API + "ABA1C23", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 200
    assert client.get(API + "ABA1C23", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429
    # Same proxy (REMOTE_ADDR), another passenger behind it.
    assert client.get(API + "ABA1C23", HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 200


def test_a_passenger_checking_plates_never_meets_the_default_limit(world: Any, client: Any) -> None:
    from django.conf import settings

    assert settings.LOTACAO_PUBLIC_RATE_LIMIT == "120/60"
    for n in range(40):  # forty plates in a minute: far more than anyone at a stop
        assert client.get(API + ("ABA1C23" if n % 2 else "ZZZ9Z99")).status_code == 200


def test_the_counter_lives_in_the_database_cache_shared_by_every_process(
    world: Any, client: Any, settings: Any
) -> None:
    """Production without Redis keeps the counters in a database table: each app server sees them."""
    backend = "django.core.cache.backends.db.DatabaseCache"
    settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": "lotacao_cache_test"}}
    settings.LOTACAO_PUBLIC_RATE_LIMIT = "2/60"
    call_command("createcachetable", verbosity=0)
    from django.db import connection

    caches["default"].clear()
    assert client.get(API + "ABA1C23").status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM lotacao_cache_test WHERE cache_key LIKE %s", ["%public-rate%"])
        assert cursor.fetchone()[0] == 1
    assert client.get(API + "ABA1C23").status_code == 200
    assert client.get(API + "ABA1C23").status_code == 429


def test_a_failing_cache_lets_the_public_check_answer(
    world: Any, client: Any, monkeypatch: Any, settings: Any, clock: Clock, caplog: Any
) -> None:
    """The answer matters more than the count: through it goes, the process counts alone for a
    while (one line in the log, not one per request) and adds what it counted when the cache is back."""
    from lotacao.public import throttle

    settings.LOTACAO_PUBLIC_RATE_LIMIT = "5/3600"
    calls = []
    working = throttle._start_count

    def down(*args: Any, **kwargs: Any) -> int:
        calls.append(args)
        raise ConnectionError("cache fora do ar")

    monkeypatch.setattr(throttle, "_start_count", down)
    with caplog.at_level("WARNING", logger="lotacao.public"):
        for _ in range(5):
            assert client.get(API + "ABA1C23").status_code == 200
    assert len(calls) == 1  # asked once; then it counts alone for RETRY_SECONDS
    assert len([r for r in caplog.records if "cache unavailable" in r.message]) == 1
    refused = client.get(API + "ABA1C23")  # the sixth, over the limit by this process's own count
    assert refused.status_code == 429 and refused["Retry-After"]
    assert _shared_count() is None  # nothing reached the cache
    # The cache is back: after RETRY_SECONDS the next request adds the six it missed, and its own.
    monkeypatch.setattr(throttle, "_start_count", working)
    clock.now += throttle.RETRY_SECONDS
    assert client.get(API + "ABA1C23").status_code == 429
    assert _shared_count() == 7


def test_far_from_the_limit_a_process_adds_its_requests_in_one_batch(
    world: Any, client: Any, settings: Any, clock: Clock
) -> None:
    from lotacao.public import throttle

    settings.LOTACAO_PUBLIC_RATE_LIMIT = "1000/3600"
    for _ in range(10):
        assert client.get(API + "ABA1C23").status_code == 200
    assert _shared_count() == 1  # the first asked the cache; nine wait for the batch
    clock.now += throttle.SYNC_SECONDS
    assert client.get(API + "ABA1C23").status_code == 200
    assert _shared_count() == 11


def test_near_the_limit_every_request_is_counted_in_the_cache_before_it_is_answered(
    world: Any, client: Any, settings: Any, clock: Clock
) -> None:
    settings.LOTACAO_PUBLIC_RATE_LIMIT = "10/3600"
    counts = []
    for _ in range(10):
        assert client.get(API + "ABA1C23").status_code == 200
        counts.append(_shared_count())
    # Below half the limit the batch waits; from half of it on, every request is in the cache.
    assert counts == [1, 1, 1, 1, 5, 6, 7, 8, 9, 10]
    refused = client.get(API + "ABA1C23")
    assert refused.status_code == 429 and _shared_count() == 11


def test_what_other_servers_counted_is_seen(world: Any, client: Any, settings: Any, clock: Clock) -> None:
    """The count is the cache's: an address other servers already sent to the limit is refused at
    once here; one this process counted lately is refused once its batch is due."""
    import time

    from lotacao.public import throttle

    settings.LOTACAO_PUBLIC_RATE_LIMIT = "100/3600"
    slot = int(time.time() // 3600)
    caches["default"].set(throttle.cache_key("10.0.0.9", slot), 100, 3600)
    assert client.get(API + "ABA1C23", REMOTE_ADDR="10.0.0.9").status_code == 429
    assert client.get(API + "ABA1C23").status_code == 200  # 127.0.0.1: counted here, 1 in the cache
    caches["default"].incr(throttle.cache_key("127.0.0.1", slot), 200)  # other servers' requests
    assert client.get(API + "ABA1C23").status_code == 200  # within the batch's quarter of a second
    clock.now += throttle.SYNC_SECONDS
    refused = client.get(API + "ABA1C23")
    assert refused.status_code == 429 and _shared_count() == 203


def test_the_answer_has_an_etag_and_a_conditional_get_is_304_until_it_changes(
    world: Any, client: Any
) -> None:
    from lotacao.permits.services.sanctions import suspend_permit

    first = client.get(API + "ABA1C23")
    assert first.status_code == 200 and first["Cache-Control"] == "public, no-cache"
    tag = first["ETag"]
    again = client.get(API + "ABA1C23", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag and again.content == b""
    permit = world.objects["recife"]["permits.permit"]
    suspend_permit(
        actor=world.users["gestor.recife"],
        permit=permit,
        until=timezone.localdate() + dt.timedelta(days=3),
        reason="teste",
    )
    changed = client.get(API + "ABA1C23", HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag and changed.json()["authorized"] is False


def test_the_plate_check_is_its_operation_served_without_the_api_dispatch(client: Any, db: Any) -> None:
    """lotacao.config.urls routes the most asked path straight to the operation's function."""
    from django.urls import resolve

    from lotacao.public import api as public_api

    match = resolve(API + "ABA1C23")
    assert match.url_name == "public_plate_check"
    assert match.func.__wrapped__ is public_api.public_vehicle  # type: ignore[attr-defined]
    refused = client.post(API + "ABA1C23")
    assert refused.status_code == 405 and refused["Allow"] == "GET"  # as the operation: GET only


def test_the_openapi_declares_the_answers(client: Any, db: Any) -> None:
    operation = client.get("/api/openapi.json").json()["paths"]["/api/public/vehicles/{plate}"]["get"]
    assert {"200", "304", "422", "429"} <= set(operation["responses"])
    assert "authorized" in str(client.get("/api/openapi.json").json()["components"])
