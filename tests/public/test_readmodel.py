"""The public plate check's read model: never stale after a committed change, fresh every day."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from lotacao.core.vehicle_verdict import UNKNOWN_PLATE, changed
from lotacao.public import readmodel
from lotacao.public.models import PublicAnswer

API = "/api/public/vehicles/"


def _answer(client: Any, plate: str = "ABA1C23") -> dict[str, Any]:
    response = client.get(API + plate)
    assert response.status_code == 200, response.content
    return dict(response.json())


def _domain_queries(queries: list[dict[str, Any]]) -> list[str]:
    """The SQL that read the domains (not the read model, sessions or the cache)."""
    return [q["sql"] for q in queries if re.search(r'"(permits|inspections|enforcement|registry)_', q["sql"])]


def test_a_warm_answer_is_one_query_on_the_read_model(world: Any, client: Any) -> None:
    first = _answer(client)
    assert first["authorized"] is True and first["records"][0]["authorized"] is True
    with CaptureQueriesContext(connection) as ctx:
        again = _answer(client)
    assert again == first
    assert _domain_queries(ctx.captured_queries) == []
    assert [q for q in ctx.captured_queries if "public_publicanswer" in q["sql"]], ctx.captured_queries


def test_suspending_a_permit_shows_in_the_next_answer(world: Any, client: Any) -> None:
    from lotacao.permits.services.sanctions import suspend_permit

    assert _answer(client)["authorized"] is True  # the row is computed and clean
    permit = world.objects["recife"]["permits.permit"]
    until = timezone.localdate() + dt.timedelta(days=10)
    suspend_permit(actor=world.users["gestor.recife"], permit=permit, until=until, reason="teste")
    after = _answer(client)
    assert after["authorized"] is False
    assert any("suspensa" in reason for reason in after["reasons"])
    assert after["records"][0]["permit_status"] == "Suspensa"


def test_a_measure_in_force_shows_in_the_next_answer(world: Any, client: Any) -> None:
    from lotacao.enforcement.models import Measure
    from lotacao.enforcement.sanctions.measures import record_measure

    notice = world.objects["recife"]["enforcement.infractionnotice"]
    notice.vehicle = world.objects["recife"]["registry.vehicle"]
    notice.plate = "ABA1C23"
    notice.save()
    assert _answer(client)["authorized"] is True
    record_measure(
        None, notice, Measure.Kind.VEHICLE_RETENTION, timezone.now(), "retido na via", None, [], "teste"
    )
    after = _answer(client)
    assert after["authorized"] is False
    assert any("não autorizado a operar" in reason for reason in after["reasons"])


def test_a_seal_expiring_with_the_date_is_seen_that_day_and_the_nightly_job_stores_it(
    world: Any, client: Any, monkeypatch: Any
) -> None:
    seal = world.objects["recife"]["inspections.seal"]
    permit = world.objects["recife"]["permits.permit"]
    permit.valid_until = seal.valid_until + dt.timedelta(days=100)
    permit.save()
    assert _answer(client)["records"][0]["seal_valid_until"] == seal.valid_until.isoformat()
    next_day = seal.valid_until + dt.timedelta(days=1)
    yesterday_s = (
        PublicAnswer.objects.filter(vehicle=seal.vehicle).values("day", "changes_on", "body", "dirty").get()
    )
    assert yesterday_s["changes_on"] <= next_day  # the answer knows it may change by then
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: next_day)
    # Before the nightly job: yesterday's row is not served; the answer is computed.
    before_job = _answer(client)
    assert before_job["authorized"] is False and before_job["checked_on"] == next_day.isoformat()
    assert any("selo" in reason.lower() for reason in before_job["reasons"])
    # The nightly job recomputes the rows whose answer changes with the new day (this seal's),
    # not the others; then every row holds for the new day and the answer is the stored row.
    PublicAnswer.objects.filter(vehicle=seal.vehicle).update(**yesterday_s)  # as if nobody had asked
    counts = readmodel.refresh(next_day)
    row = PublicAnswer.objects.get(vehicle=seal.vehicle)
    assert row.day == next_day and not row.dirty
    assert counts["recalculadas"] == PublicAnswer.objects.filter(day=next_day).count() >= 1
    assert all(
        not r.dirty and readmodel.current(r.day, r.changes_on, next_day) for r in PublicAnswer.objects.all()
    )
    with CaptureQueriesContext(connection) as ctx:
        stored = _answer(client)
    assert _domain_queries(ctx.captured_queries) == []
    assert stored["authorized"] is False and any("vencido" in r.lower() for r in stored["reasons"])


def test_the_nightly_run_includes_the_public_answers(world: Any) -> None:
    from lotacao.ops.nightly import JOBS

    assert JOBS[-1].name == "public_answers"
    PublicAnswer.objects.all().delete()  # vehicles loaded in bulk have no row
    counts = JOBS[-1].function(timezone.localdate())
    assert counts["novas"] == counts["recalculadas"] == PublicAnswer.objects.count() >= 2
    assert not PublicAnswer.objects.filter(dirty=True).exists()


def test_a_reader_that_computed_before_a_change_cannot_write_over_it(world: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    today = timezone.localdate()
    readmodel.records("ABA1C23", today)
    row = PublicAnswer.objects.get(vehicle=vehicle)
    old = readmodel.compute(vehicle, today)  # computed from the snapshot before the change
    changed(vehicle_ids=[vehicle.pk])  # a writer's change, committed with its mark
    assert readmodel._store(vehicle.pk, row.version, today, old) is False
    row.refresh_from_db()
    assert row.dirty is True and row.version > 0


def test_a_writer_marks_a_vehicle_that_has_no_row_yet(world: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    PublicAnswer.objects.filter(vehicle=vehicle).delete()
    changed(plates=[("recife", "ABA1C23")])
    row = PublicAnswer.objects.get(vehicle=vehicle)
    assert row.dirty is True and row.version == 1 and row.body == ""
    # A reader that computed before the mark inserts nothing over it.
    readmodel._insert(vehicle, timezone.localdate(), {"authorized": True})
    assert PublicAnswer.objects.get(vehicle=vehicle).dirty is True


def test_moving_a_permit_to_another_vehicle_marks_both(world: Any, client: Any) -> None:
    from lotacao.registry import services

    permit = world.objects["recife"]["permits.permit"]
    old = permit.vehicle
    assert _answer(client)["authorized"] is True
    other = services.create_vehicle(
        actor=None,
        jurisdiction=world.a,
        plate="ABA1C24",
        manufacture_year=2021,
        category="van",
        seats=16,
        doors=4,
        holder=world.objects["recife"]["registry.holder"],
        reason="teste",
    )
    _answer(client, "ABA1C24")
    permit.vehicle = other
    permit.save()
    assert PublicAnswer.objects.get(vehicle=old).dirty and PublicAnswer.objects.get(vehicle=other).dirty
    left = _answer(client)  # the old vehicle has no permit any more
    assert left["authorized"] is False and left["records"][0]["permit_number"] is None
    assert _answer(client, "ABA1C24")["records"][0]["permit_number"] == permit.number


def test_an_unknown_plate_is_a_verdict_not_an_empty_list(client: Any, db: Any) -> None:
    body = _answer(client, "ZZZ9Z99")
    assert body["authorized"] is False and body["reasons"] == [UNKNOWN_PLATE] and body["records"] == []
    page = client.get("/publico/veiculos/ZZZ9Z99/").content.decode()
    assert "não há veículo autorizado com esta placa" in page


def test_a_known_plate_carries_the_verdict_on_top(world: Any, client: Any) -> None:
    from lotacao.permits.services.sanctions import suspend_permit

    body = _answer(client)
    assert body["authorized"] is True and body["reasons"] == []
    assert "Veículo autorizado" in client.get("/publico/veiculos/ABA1C23/").content.decode()
    permit = world.objects["recife"]["permits.permit"]
    until = timezone.localdate() + dt.timedelta(days=5)
    suspend_permit(actor=world.users["gestor.recife"], permit=permit, until=until, reason="teste")
    body = _answer(client)
    assert body["authorized"] is False and body["reasons"] == body["records"][0]["reasons"]
    page = client.get("/publico/veiculos/ABA1C23/").content.decode()
    # the headline names the state (issue 24): the vehicle and its permit are on the page below it
    assert "Não autorizado: veículo com permissão suspensa" in page
    assert "não há veículo autorizado com esta placa" not in page


def test_every_table_the_answer_reads_is_watched(world: Any) -> None:
    """A model the computation reads but the read model does not follow would leave answers stale."""
    from lotacao.registry.models import Vehicle

    by_table = {model._meta.db_table: model._meta.label for model in apps.get_models()}
    today = timezone.localdate()
    with CaptureQueriesContext(connection) as ctx:
        vehicles = list(Vehicle.unscoped.select_related("jurisdiction"))
        for vehicle in vehicles:
            readmodel.compute(vehicle, today)
        readmodel.answers(vehicles, today)  # the set-based build reads the same tables
    read = set()
    for query in ctx.captured_queries:
        for table in re.findall(r'(?:FROM|JOIN)\s+"?(\w+)"?', query["sql"]):
            if table in by_table:
                read.add(by_table[table])
    assert read, "the computation read nothing?"
    # The agency value is read with who recorded it (select_related): not part of the answer.
    not_in_the_answer = {"accounts.User"}
    assert read - set(readmodel.WATCHED) - not_in_the_answer == set(), read


@pytest.mark.postgres
def test_on_postgresql_the_plate_check_is_a_prepared_statement(
    world: Any, client: Any, settings: Any
) -> None:
    """The server neither parses nor plans the plate check again on a connection (docs/performance.md);
    behind a pooler that cannot keep prepared statements it is turned off and answers the same."""
    first = _answer(client)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("public_publicanswer" in statement for statement in prepared), prepared
    settings.LOTACAO_PUBLIC_PREPARED = False
    with CaptureQueriesContext(connection) as ctx:
        assert _answer(client) == first
    assert [q for q in ctx.captured_queries if "public_publicanswer" in q["sql"]]
