"""The public check read from a replica through the database router, back on the primary when the
replica lags or is down. A second test database stands in for the replica: it has the schema but
none of the world's rows, so an answer tells which database it came from."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections
from django.db.utils import load_backend
from django.utils import timezone

from lotacao.public import routing
from lotacao.public.models import PublicAnswer, ReplicaHeartbeat
from lotacao.public.selectors import vehicle_status

pytestmark = pytest.mark.django_db(databases=["default", "replica"])


@pytest.fixture
def replica(settings: Any) -> Iterator[str]:
    settings.LOTACAO_PUBLIC_REPLICA = "replica"
    settings.LOTACAO_PUBLIC_REPLICA_MAX_LAG = 1.0
    routing.forget_health()
    yield "replica"
    routing.forget_health()


def test_without_a_replica_everything_reads_the_primary(world: Any) -> None:
    assert routing.replica_alias() is None
    assert vehicle_status("ABA1C23")["records"]


def test_a_caught_up_replica_serves_the_public_reads(world: Any, replica: str) -> None:
    answer = vehicle_status("ABA1C23")
    # The stand-in has no vehicles: the answer came from it.
    assert answer["records"] == [] and answer["authorized"] is False
    # Other reads, and every write, stay on the primary.
    assert routing.current_read_alias() == "default"
    assert PublicAnswer.objects.filter(plate="ABA1C23").exists()


def test_a_lagging_replica_is_left_for_the_primary(world: Any, replica: str) -> None:
    now = timezone.now()
    ReplicaHeartbeat.objects.using("default").create(pk=1, beat=now - dt.timedelta(seconds=30))
    ReplicaHeartbeat.objects.using("replica").create(pk=1, beat=now - dt.timedelta(seconds=90))
    assert routing.lag_seconds("replica") >= 29
    routing.forget_health()
    ReplicaHeartbeat.objects.using("default").filter(pk=1).update(beat=now - dt.timedelta(seconds=30))
    answer = vehicle_status("ABA1C23")
    assert answer["records"] and answer["records"][0]["jurisdiction"] == "recife"


def test_a_replica_that_caught_up_with_the_last_beat_has_no_lag(world: Any, replica: str) -> None:
    beat = timezone.now() - dt.timedelta(seconds=30)
    ReplicaHeartbeat.objects.using("default").create(pk=1, beat=beat)
    ReplicaHeartbeat.objects.using("replica").create(pk=1, beat=beat)
    assert routing.lag_seconds("replica") == 0
    # The probe beat again on the primary, for the next one.
    assert ReplicaHeartbeat.objects.using("default").get(pk=1).beat > beat


def test_a_replica_that_is_down_is_left_for_the_primary(world: Any, replica: str) -> None:
    good = connections["replica"]
    broken_settings = {**good.settings_dict}
    if good.vendor == "postgresql":
        broken_settings.update(HOST="127.0.0.1", PORT=1)  # nothing listens there
    else:
        broken_settings.update(NAME="/nonexistent/directory/replica.sqlite3")
    broken = load_backend(broken_settings["ENGINE"]).DatabaseWrapper(broken_settings, "replica")
    connections["replica"] = broken
    try:
        assert routing.replica_usable("replica") is False
        answer = vehicle_status("ABA1C23")
    finally:
        connections["replica"] = good
    assert answer["records"] and answer["records"][0]["jurisdiction"] == "recife"


def test_a_replica_failing_under_a_read_is_retried_on_the_primary(
    world: Any, replica: str, monkeypatch: Any
) -> None:
    from django.db import OperationalError

    from lotacao.public import readmodel

    real = readmodel.records
    calls: list[str] = []

    def flaky(plate: str, day: dt.date) -> list[dict[str, Any]]:
        calls.append(readmodel._read_alias())
        if calls[-1] == "replica":
            raise OperationalError("a réplica caiu no meio da consulta")
        return real(plate, day)

    monkeypatch.setattr(readmodel, "records", flaky)
    answer = vehicle_status("ABA1C23")
    assert calls == ["replica", "default"] and answer["records"]
