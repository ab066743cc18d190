"""The set-based build of the read model (lotacao.public.build, readmodel.answers) gives exactly the
answers of the per-vehicle computation (readmodel.compute, the spec), over the demo and over
generated edge cases; an answer's `changes_on` is never later than the first day it really changes;
the night recomputes only what changed, a vehicle whose insurance ran out overnight included; and
two workers split one build without doing a range twice or leaving one out (PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import threading
from io import StringIO
from typing import Any

import orjson
import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from lotacao.public import build, readmodel
from lotacao.public.models import AnswerChunk, PublicAnswer
from tests.clock import today as clock_today


def _vehicles() -> list[Any]:
    from lotacao.registry.models import Vehicle

    return list(Vehicle.unscoped.select_related("jurisdiction").order_by("pk"))


def _same_as_the_spec(vehicles: list[Any], day: dt.date) -> dict[int, tuple[str, dt.date | None]]:
    found = readmodel.answers(vehicles, day)
    assert set(found) == {v.pk for v in vehicles}
    for vehicle in vehicles:
        assert orjson.loads(found[vehicle.pk][0]) == readmodel.compute(vehicle, day), (vehicle.plate, day)
    return found


def _changes_on_is_never_late(vehicles: list[Any], day: dt.date, horizon: int = 800) -> None:
    """Every answer holds, unchanged, on each day before its `changes_on` (checked on the days
    around every date the data holds and the day before each `changes_on`)."""
    first = readmodel.answers(vehicles, day)
    days = {day + dt.timedelta(days=k) for k in (1, 2, 7, 30, 31, 90, 180, 364, 365, 366, 400, 730)}
    days |= {c - dt.timedelta(days=1) for _, c in first.values() if c} | {c for _, c in first.values() if c}
    days = {d for d in days if day < d <= day + dt.timedelta(days=horizon)}
    for later in sorted(days):
        again = readmodel.answers(vehicles, later)
        for vehicle in vehicles:
            body, changes_on = first[vehicle.pk]
            if changes_on is None or later < changes_on:
                assert again[vehicle.pk][0] == body, (vehicle.plate, day, later, changes_on)


def test_the_set_based_build_gives_the_spec_s_answers_on_the_demo(db: Any) -> None:
    call_command("load_demo", "--quiet-logins", stdout=StringIO())
    vehicles = _vehicles()
    assert len(vehicles) > 20
    today = clock_today()
    for day in (today, today + dt.timedelta(days=45), today + dt.timedelta(days=400)):
        _same_as_the_spec(vehicles, day)
    _changes_on_is_never_late(vehicles, today)
    found = readmodel.answers(vehicles, today)
    records = [orjson.loads(body) for body, _ in found.values()]
    assert any(r["authorized"] for r in records) and any(not r["authorized"] for r in records)
    assert any(r.get("crc_status") for r in records), "the demo's chartering vehicles are compared too"


def _edge_cases(world: Any) -> dict[str, Any]:
    """Vehicles of Recife in each state the answer tells apart."""
    from lotacao.enforcement.models import CourseRequirement, Measure
    from lotacao.inspections.models import Inspection, InsurancePolicy, Seal
    from lotacao.lines.models import Place
    from lotacao.permits.models import Permit
    from lotacao.registry.models import Vehicle

    today = clock_today()
    day = dt.timedelta(days=1)
    recife = world.a
    holder = world.objects["recife"]["registry.holder"]
    line = world.objects["recife"]["registry.line"]
    made: dict[str, Any] = {}
    numbers = iter(range(1, 999))

    def vehicle(name: str, n: int, year: int = 2021, **fields: Any) -> Any:
        fields.setdefault("holder", holder)
        made[name] = Vehicle.objects.create(
            jurisdiction=recife,
            plate=f"EDG{n:04d}"[:7],
            manufacture_year=year,
            category="van",
            seats=16,
            doors=4,
            **fields,
        )
        return made[name]

    def permit(v: Any, status: str = Permit.Status.ACTIVE, **fields: Any) -> Permit:
        values: dict[str, Any] = {
            "number": f"EDG-{next(numbers):04d}/{today.year}",
            "applied_on": today - 40 * day,
            "granted_on": today - 30 * day,
            "valid_until": today + 365 * day,
            **fields,
        }
        return Permit.objects.create(
            jurisdiction=recife,
            holder=holder,
            line=line,
            vehicle=v,
            status=status,
            term_citation="teste",
            **values,
        )

    def regular(v: Any, seal_until: dt.date | None = None, insured_until: dt.date | None = None) -> None:
        Seal.objects.create(
            jurisdiction=recife,
            vehicle=v,
            number=f"S-{v.pk}",
            issued_on=today - 10 * day,
            valid_until=seal_until or today + 300 * day,
        )
        InsurancePolicy.objects.create(
            jurisdiction=recife,
            vehicle=v,
            insurer="Seguradora",
            number=f"AP-{v.pk}",
            valid_from=today - 10 * day,
            valid_until=insured_until or today + 300 * day,
        )

    n = iter(range(1, 999))
    for status in (
        Permit.Status.ACTIVE,
        Permit.Status.SUSPENDED,
        Permit.Status.REVOKED,
        Permit.Status.EXPIRED,
        Permit.Status.WITHDRAWN,
        Permit.Status.TRANSFERRED,
        Permit.Status.APPLICATION,
    ):
        v = vehicle(f"permit_{status}", next(n))
        extra: dict[str, Any] = {"number": ""} if status == Permit.Status.APPLICATION else {}
        if status == Permit.Status.SUSPENDED:
            extra["suspended_until"] = today + 9 * day
        permit(v, status, **extra)
        regular(v)
    regular(vehicle("no_permit", next(n)))
    v = vehicle("term_ran_out", next(n))
    permit(v, valid_until=today - day)
    regular(v)
    v = vehicle("term_ends_today", next(n))
    permit(v, valid_until=today)
    regular(v)
    v = vehicle("withdrawal_ahead", next(n))
    permit(v, withdrawal_notice_on=today - 5 * day, ends_on=today + 3 * day)
    regular(v)
    v = vehicle("newer_permit_expired", next(n))
    permit(v, Permit.Status.REVOKED, granted_on=today - 900 * day)
    permit(v, granted_on=today - 20 * day, valid_until=today + 2 * day)
    regular(v)
    v = vehicle("insurance_runs_out_tonight", next(n))
    permit(v)
    regular(v, insured_until=today)
    v = vehicle("insurance_expired", next(n))
    permit(v)
    regular(v, insured_until=today - 3 * day)
    v = vehicle("insurance_ahead", next(n))
    permit(v)
    Seal.objects.create(
        jurisdiction=recife, vehicle=v, number=f"S-{v.pk}", issued_on=today, valid_until=today + 99 * day
    )
    InsurancePolicy.objects.create(
        jurisdiction=recife,
        vehicle=v,
        insurer="X",
        number="1",
        valid_from=today + 4 * day,
        valid_until=today + 200 * day,
    )
    v = vehicle("failed_inspection", next(n))
    permit(v)
    Inspection.objects.create(
        jurisdiction=recife,
        vehicle=v,
        scheduled_for=today,
        performed_on=today,
        status=Inspection.Status.FAILED,
        faults=["Freios"],
    )
    InsurancePolicy.objects.create(
        jurisdiction=recife,
        vehicle=v,
        insurer="X",
        number="2",
        valid_from=today - 9 * day,
        valid_until=today + 9 * day,
    )
    v = vehicle("seal_expired", next(n))
    permit(v)
    regular(v, seal_until=today - 2 * day)
    v = vehicle("seal_runs_out_tonight", next(n))
    permit(v)
    regular(v, seal_until=today)
    v = vehicle("too_old", next(n), year=today.year - 40)
    permit(v)
    regular(v)
    v = vehicle("deregistered", next(n), deregistered_on=today - 5 * day)
    permit(v)
    regular(v)
    v = vehicle("deregistered_ahead", next(n), deregistered_on=today + 6 * day)
    permit(v)
    regular(v)
    v = vehicle("on_a_line", next(n))
    place_permit = permit(v)
    regular(v)
    Place.objects.create(
        permit=place_permit,
        line=line,
        vehicle=v,
        starts_on=today - 50 * day,
        ends_on=today + 8 * day,
        jurisdiction=recife,
    )
    notice = world.objects["recife"]["enforcement.infractionnotice"]
    for name, kind, when in (
        ("retained", Measure.Kind.VEHICLE_RETENTION, timezone.now() - dt.timedelta(days=2)),
        ("documents_seized", Measure.Kind.DOCUMENT_SEIZURE, timezone.now() - dt.timedelta(days=1)),
        ("retained_later", Measure.Kind.VEHICLE_RETENTION, timezone.now() + dt.timedelta(days=3)),
    ):
        v = vehicle(name, next(n))
        permit(v)
        regular(v)
        other = type(notice).objects.get(pk=notice.pk)
        other.pk = None
        other.number = f"{notice.number}-{v.pk}"
        other.plate = v.plate
        other.vehicle = v if name != "documents_seized" else None  # by the plate alone
        other.save()
        Measure.objects.create(jurisdiction=recife, notice=other, kind=kind, applied_at=when)
    from lotacao.registry import services

    person = services.create_person(
        actor=None,
        jurisdiction=recife,
        cpf="52998224725",
        full_name="Pessoa do curso",
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )
    course_holder = services.register_holder(actor=None, person=person, reason="teste")
    vehicle("course_pending", next(n), holder=course_holder)
    course_vehicle = made["course_pending"]
    permit(course_vehicle)
    regular(course_vehicle)
    CourseRequirement.objects.create(
        jurisdiction=recife,
        notice=notice,
        holder=course_holder,
        required_on=today - 4 * day,
        blocks_operation=True,
        citation="teste",
    )
    CourseRequirement.objects.create(
        jurisdiction=recife,
        notice=notice,
        holder=course_holder,
        required_on=today + 5 * day,
        blocks_operation=True,
        citation="teste",
    )
    return made


def test_the_set_based_build_gives_the_spec_s_answers_on_every_edge_case(world: Any) -> None:
    made = _edge_cases(world)
    vehicles = _vehicles()
    today = clock_today()
    for day in (
        today,
        today + dt.timedelta(days=1),
        today + dt.timedelta(days=4),
        today + dt.timedelta(days=10),
    ):
        _same_as_the_spec(vehicles, day)
    _changes_on_is_never_late(vehicles, today, horizon=400)
    found = readmodel.answers(vehicles, today)
    by_name = {name: (orjson.loads(found[v.pk][0]), found[v.pk][1]) for name, v in made.items()}
    assert by_name["permit_active"][0]["authorized"] is True
    for name in (
        "permit_suspended",
        "permit_revoked",
        "retained",
        "deregistered",
        "course_pending",
        "term_ran_out",
        "no_permit",
    ):
        assert by_name[name][0]["authorized"] is False, name
    assert "Sem seguro em vigor registrado." in by_name["insurance_expired"][0]["reasons"]
    assert any("selo" in r.lower() for r in by_name["failed_inspection"][0]["reasons"])
    tomorrow = today + dt.timedelta(days=1)
    for name in ("insurance_runs_out_tonight", "seal_runs_out_tonight", "term_ends_today"):
        assert by_name[name][1] == tomorrow, name
    assert by_name["withdrawal_ahead"][1] == today + dt.timedelta(days=3)
    assert by_name["retained_later"][1] is not None


def test_the_night_recomputes_only_what_changed_and_an_insurance_running_out_overnight(world: Any) -> None:
    """No write between the two nights: the vehicle whose policy ends today changes answer the next
    day all the same, and the night recomputes it and only the rows whose day came."""
    made = _edge_cases(world)
    today = clock_today()
    first = readmodel.refresh(today)
    assert first["recalculadas"] == PublicAnswer.objects.count() > 20
    assert not PublicAnswer.objects.filter(dirty=True).exists()
    again = readmodel.refresh(today)
    assert again["recalculadas"] == 0, "nothing changed since"
    tonight = made["insurance_runs_out_tonight"]
    plate = tonight.plate
    assert readmodel.records(plate, today)[0]["authorized"] is True
    tomorrow = today + dt.timedelta(days=1)
    due = set(PublicAnswer.objects.filter(changes_on__lte=tomorrow).values_list("vehicle_id", flat=True))
    assert tonight.pk in due and len(due) < PublicAnswer.objects.count() / 2
    night = readmodel.refresh(tomorrow)
    assert night["recalculadas"] == len(due)
    row = PublicAnswer.objects.get(vehicle=tonight)
    assert row.day == tomorrow and not row.dirty
    stored = orjson.loads(row.body)
    assert stored == readmodel.compute(tonight, tomorrow)
    assert "Sem seguro em vigor registrado." in stored["reasons"]
    # A row the night did not touch is served as it is on the new day, and is the spec's answer.
    kept = made["permit_active"]
    row = PublicAnswer.objects.get(vehicle=kept)
    assert row.day == today and readmodel.current(row.day, row.changes_on, tomorrow)
    assert readmodel.records(kept.plate, tomorrow) == [readmodel.compute(kept, tomorrow)]
    # A write still marks its row, and the next night recomputes it.
    from lotacao.permits.models import Permit

    Permit.objects.filter(vehicle=kept).update(status=Permit.Status.SUSPENDED)
    Permit.objects.get(vehicle=kept).save()
    assert readmodel.refresh(tomorrow)["recalculadas"] == 1
    assert orjson.loads(PublicAnswer.objects.get(vehicle=kept).body)["authorized"] is False
    # A full build recomputes every row, in ranges each taken once.
    total = PublicAnswer.objects.count()
    found = build.run(tomorrow, full=True)
    assert found["recalculadas"] == total and found["faixas"] >= 1
    # The ranges of builds a month old are not kept.
    assert build.run(tomorrow + dt.timedelta(days=31))["recalculadas"] >= 0
    assert not AnswerChunk.objects.filter(day__lte=tomorrow).exists()
    small = build.plan(tomorrow, full=True, size=7)
    assert AnswerChunk.objects.filter(build=small).count() == -(-total // 7)
    assert build.work(small) == -(-total // 7) and build.work(small) == 0
    assert build.counts(small)["recalculadas"] == total


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_split_one_build_without_double_work_or_a_gap(settings: Any) -> None:
    """Two threads, each on its own PostgreSQL connection, work one build at once: every range is
    done by exactly one of them, every row is written once, none is left."""
    from lotacao.core.models import Jurisdiction
    from lotacao.registry.models import Vehicle

    recife = Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU", state="PE")
    Vehicle.objects.bulk_create(
        Vehicle(
            jurisdiction=recife, plate=f"TWO{n:04d}", manufacture_year=2020, category="van", seats=16, doors=4
        )
        for n in range(600)
    )
    today = clock_today()
    build.add_missing_rows()
    name = build.plan(today, full=True, size=25)
    chunks = AnswerChunk.objects.filter(build=name).count()
    assert chunks == 24
    done: dict[str, int] = {}
    start = threading.Barrier(2)
    slow = build.compute_range

    def slower(*args: Any, **kwargs: Any) -> tuple[int, int]:
        import time

        time.sleep(0.02)  # both workers are in the middle of a range at the same time
        return slow(*args, **kwargs)

    def worker(label: str) -> None:
        try:
            start.wait()
            done[label] = build.work(name, worker=label)
        finally:
            connections.close_all()

    build.compute_range = slower  # type: ignore[assignment]
    try:
        threads = [threading.Thread(target=worker, args=(label,)) for label in ("um", "dois")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        build.compute_range = slow  # type: ignore[assignment]
    assert done["um"] + done["dois"] == chunks and done["um"] > 0 and done["dois"] > 0
    rows = list(AnswerChunk.objects.filter(build=name).values_list("worker", "written", "done_at"))
    assert all(r[2] is not None for r in rows)
    assert sorted({r[0] for r in rows}) == ["dois", "um"]
    assert sum(r[1] for r in rows) == 600
    assert not PublicAnswer.objects.filter(dirty=True).exists()
    assert PublicAnswer.objects.filter(day=today).count() == 600
    assert connection.vendor == "postgresql"
