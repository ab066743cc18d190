"""lotacao.core.idempotency behind POST /api/infraction-notices: a key left in progress by a
request that died is taken over after the timeout; a fresh one still gets 409; a worker overtaken
while it worked rolls its work back; keys older than 24 h are pruned."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from lotacao.core import idempotency
from lotacao.core.models import Jurisdiction
from lotacao.enforcement.models import IdempotencyKey
from lotacao.enforcement.notices.api import ENDPOINT, NoticeIn
from tests.enforcement.notices.test_api import body, count, post

pytestmark = pytest.mark.django_db


def _left_in_progress(user: Any, data: dict[str, Any], age: dt.timedelta) -> IdempotencyKey:
    """The row a request leaves when its worker is killed after claiming the key: in progress,
    its work never committed."""
    key = IdempotencyKey.objects.create(
        key="chave-1",
        user=user,
        endpoint=ENDPOINT,
        payload_hash=idempotency.payload_hash(NoticeIn(**data).model_dump(mode="json")),
    )
    IdempotencyKey.objects.filter(pk=key.pk).update(created_at=timezone.now() - age)
    return key


def test_a_key_left_by_a_killed_request_is_taken_over_by_the_retry(world: Any, client: Any) -> None:
    user = world.users["fiscal.recife"]
    client.force_login(user)
    data = body(world)
    _left_in_progress(user, data, dt.timedelta(seconds=120))
    retried = post(client, data)
    assert retried.status_code == 201, retried.content
    assert count() == 1
    key = IdempotencyKey.objects.get(key="chave-1")
    assert key.status == "done" and key.response_status == 201
    again = post(client, data)  # and from now on the retry replays the stored response
    assert again.status_code == 201 and again.content == retried.content
    assert count() == 1


def test_a_fresh_key_in_progress_still_gets_409(world: Any, client: Any, settings: Any) -> None:
    settings.LOTACAO_IDEMPOTENCY_TAKEOVER_SECONDS = 60
    user = world.users["fiscal.recife"]
    client.force_login(user)
    data = body(world)
    _left_in_progress(user, data, dt.timedelta(seconds=30))
    response = post(client, data)
    assert response.status_code == 409 and "em andamento" in response.json()["errors"][0]
    assert count() == 0


def test_the_takeover_timeout_is_a_setting(world: Any, client: Any, settings: Any) -> None:
    settings.LOTACAO_IDEMPOTENCY_TAKEOVER_SECONDS = 5
    user = world.users["fiscal.recife"]
    client.force_login(user)
    data = body(world)
    _left_in_progress(user, data, dt.timedelta(seconds=10))
    assert post(client, data).status_code == 201
    assert count() == 1


def test_a_worker_overtaken_while_working_rolls_its_work_back(world: Any) -> None:
    user = world.users["fiscal.recife"]

    def work() -> tuple[int, str]:
        Jurisdiction.objects.create(code="zz", name="Z", official_name="Z", state="PE", timezone="UTC")
        # meanwhile a retry found the key stale and took it over
        IdempotencyKey.objects.filter(key="k").update(created_at=timezone.now() + dt.timedelta(seconds=1))
        return 201, "{}"

    status, text = idempotency.run_once(
        user=user, key="k", endpoint="teste", payload={"a": 1}, jurisdiction_id=None, work=work
    )
    assert status == 409 and "em andamento" in text
    assert not Jurisdiction.objects.filter(code="zz").exists()  # its work did not commit
    assert IdempotencyKey.objects.get(key="k").status == "in_progress"  # the other worker holds it


def test_a_failed_work_releases_the_key(world: Any) -> None:
    user = world.users["fiscal.recife"]

    def work() -> tuple[int, str]:
        raise RuntimeError("queda")

    with pytest.raises(RuntimeError):
        idempotency.run_once(
            user=user, key="k", endpoint="teste", payload={}, jurisdiction_id=None, work=work
        )
    assert not IdempotencyKey.objects.filter(key="k").exists()


def test_prune_removes_only_keys_older_than_24_hours(world: Any) -> None:
    user = world.users["fiscal.recife"]
    now = timezone.now()
    ages = {"velha": dt.timedelta(hours=25), "morta": dt.timedelta(hours=30), "nova": dt.timedelta(hours=23)}
    for key, age in ages.items():
        row = IdempotencyKey.objects.create(
            key=key,
            user=user,
            endpoint="teste",
            payload_hash="x",
            status="in_progress" if key == "morta" else "done",
        )
        IdempotencyKey.objects.filter(pk=row.pk).update(created_at=now - age)
    assert idempotency.prune_idempotency_keys(now) == 2
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["nova"]
