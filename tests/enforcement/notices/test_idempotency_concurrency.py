"""On PostgreSQL, 100 retries of the same notice at once: exactly one notice; every response is
the same 201 body or a 409 (the first one still running)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections
from django.test import Client

from lotacao.enforcement.models import IdempotencyKey, InfractionNotice
from tests.enforcement.notices.test_api import URL, body

pytestmark = pytest.mark.postgres  # needs PostgreSQL concurrency

RETRIES = 100
# The PostgreSQL server is shared with the rest of the suite (max_connections = 100): at most this
# many requests hold a connection at the same time; all 100 are released together by a barrier.
IN_FLIGHT = 30


@pytest.mark.django_db(transaction=True)
def test_hundred_concurrent_retries_make_one_notice(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    cookies = client.cookies
    data = body(world)
    barrier = threading.Barrier(RETRIES)
    gate = threading.BoundedSemaphore(IN_FLIGHT)
    outcomes: list[tuple[int, bytes]] = []
    lock = threading.Lock()

    def retry() -> None:
        result: tuple[int, bytes]
        try:
            barrier.wait()
            with gate:
                c = Client()
                c.cookies = cookies
                response = c.post(
                    URL, data, content_type="application/json", HTTP_IDEMPOTENCY_KEY="mesma-chave"
                )
                result = (response.status_code, response.content)
        except Exception as error:  # pragma: no cover - reported by the assertion below
            result = (0, repr(error).encode())
        finally:
            connections.close_all()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=retry) for _ in range(RETRIES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(outcomes) == RETRIES
    created = [content for status, content in outcomes if status == 201]
    others = [(status, content[:200]) for status, content in outcomes if status not in (201, 409)]
    assert not others, others[:3]
    assert created and len(set(created)) == 1  # every 201 has the very same body
    assert InfractionNotice.unscoped.exclude(number__startswith="AI-T-").count() == 1
    key = IdempotencyKey.objects.get(key="mesma-chave")
    assert key.status == "done" and key.response_status == 201
