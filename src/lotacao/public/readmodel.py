"""The public plate check's read model: kept current in the writer's transaction, filled by readers.

The SQL here is written by hand (an upsert that bumps a version, a join on the plate): table names
come from the models' meta and every value is a bound parameter, hence the S608 exemptions.

Reading a plate is one indexed query on `PublicAnswer` joined to the plate's vehicles, prepared
once per PostgreSQL connection (`_fetch`). A row is served as stored while it is clean and computed
for today; otherwise the answer is computed from the domains (`core.vehicle_verdict.merged_verdict`: every
provider of the `public_vehicle_info` seam) and written back only if the row's version did not move.

What keeps it current:
- every save or delete of a model the answer is made of (`WATCHED`) marks the affected rows dirty
  and bumps their version in the same transaction, inserting a dirty row for a vehicle that has
  none yet, so a reader that computed from an older snapshot can never write its answer over it;
- `core.vehicle_verdict.changed(...)` (the `verdict_changed` signal) for a service that changes
  them by a path that saves no model;
- the nightly job `refresh` for what changes with the date alone (a seal or a permit expiring, a
  suspension or a measure ending): it recomputes every row not computed for the new day. Until it
  reaches a row, that row is computed when asked, as before.

`tests/public/test_readmodel.py` checks that every table the computation reads is watched.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.apps import apps
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections, router
from django.db.models import Model
from django.db.models.signals import post_delete, post_save, pre_save

from lotacao.core.vehicle_verdict import merged_verdict, merged_verdicts, verdict_changed

log = logging.getLogger("lotacao.public")

PUBLIC_KEYS = (
    "authorized",
    "permit_number",
    "permit_status",
    "permit_valid_until",
    "line_code",
    "line_name",
    "seal_valid_until",
    "insurance_valid_until",
    "reasons",
    "company_name",
    "company_cnpj",
    "crc_status",
    "crc_valid_until",
    "modalities",
    "service_kind",
    "service_number",
    "service_status",
    "service_valid_until",
    "service_fare",
)


# --------------------------------------------------------------------------- computing an answer


def compute(vehicle: Any, day: dt.date, lines: dict[tuple[str, str], bool] | None = None) -> dict[str, Any]:
    """The public record of one vehicle on `day` (no personal data), JSON-ready. `lines` remembers,
    within one batch of the nightly run, whether a line has a public page (many vehicles share a
    line). It is emptied after each batch's versions are read: a line changed after that marks its
    vehicles, whose rows the run then cannot write, and one changed before is read fresh."""
    from lotacao.lines import selectors as lines_selectors

    info = merged_verdict(vehicle, day)
    place = lines_selectors.vehicle_place(vehicle, day)  # the line the vehicle operates today
    if place is not None:
        info.update(line_code=place.line.code, line_name=place.line.name)
    record: dict[str, Any] = {k: info[k] for k in PUBLIC_KEYS if k in info}
    line_key = (vehicle.jurisdiction_id, info.get("line_code") or "")
    if lines is not None and line_key in lines:
        record["line_public"] = lines[line_key]
    else:
        record["line_public"] = lines_selectors.public_line_exists(line_key[0], info.get("line_code"), day)
        if lines is not None:
            lines[line_key] = record["line_public"]
    record.update(
        jurisdiction=vehicle.jurisdiction_id,
        jurisdiction_name=vehicle.jurisdiction.name,
        agency=vehicle.jurisdiction.official_name,
        category=vehicle.get_category_display(),
        manufacture_year=vehicle.manufacture_year,
    )
    # Dates as ISO text, exactly as the API has always answered them.
    return dict(orjson.loads(orjson.dumps(record, default=str)))


def answers(vehicles: list[Any], day: dt.date) -> dict[int, tuple[str, dt.date | None]]:
    """The public records of many vehicles on `day`, set-based: each domain asked once for all of
    them (`merged_verdicts`), the lines in two queries — the same records `compute` gives one by one
    (tests/public/test_readmodel_build.py holds them equal), as the JSON text stored, each with the
    first day after `day` it may differ by the date alone (None: only a write changes it)."""
    from lotacao.lines import selectors as lines_selectors

    if not vehicles:
        return {}
    verdicts = merged_verdicts(vehicles, day)
    places, moves = lines_selectors.vehicle_places([v.pk for v in vehicles], day)
    records: dict[int, dict[str, Any]] = {}
    for vehicle in vehicles:
        info = verdicts[vehicle.pk]
        place = places.get(vehicle.pk)
        if place is not None:
            info.update(line_code=place.line.code, line_name=place.line.name)
        records[vehicle.pk] = {k: info[k] for k in PUBLIC_KEYS if k in info}
    public = lines_selectors.public_lines_exist(
        {(v.jurisdiction_id, records[v.pk].get("line_code") or "") for v in vehicles}, day
    )
    out: dict[int, tuple[str, dt.date | None]] = {}
    for vehicle in vehicles:
        record = records[vehicle.pk]
        line_public, line_from = public[(vehicle.jurisdiction_id, record.get("line_code") or "")]
        record["line_public"] = line_public
        jurisdiction = vehicle.jurisdiction
        record.update(
            jurisdiction=vehicle.jurisdiction_id,
            jurisdiction_name=jurisdiction.name,
            agency=jurisdiction.official_name,
            category=vehicle.get_category_display(),
            manufacture_year=vehicle.manufacture_year,
        )
        found = [d for d in (verdicts[vehicle.pk]["changes_on"], moves.get(vehicle.pk), line_from) if d]
        out[vehicle.pk] = (orjson.dumps(record, default=str).decode(), min(found) if found else None)
    return out


def _vehicles(ids: Iterable[int]) -> list[Any]:
    from lotacao.registry.models import Vehicle

    return list(Vehicle.unscoped.filter(pk__in=list(ids)).select_related("jurisdiction").order_by("pk"))


# --------------------------------------------------------------------------- reading


def _table() -> str:
    from lotacao.public.models import PublicAnswer

    return PublicAnswer._meta.db_table


def _write_alias() -> str:
    from lotacao.public.models import PublicAnswer

    return router.db_for_write(PublicAnswer) or "default"


def _read_alias() -> str:
    from lotacao.public.models import PublicAnswer

    return router.db_for_read(PublicAnswer) or "default"


def records(plate: str, day: dt.date) -> list[dict[str, Any]]:
    """The public records of a (clean) plate on today's date `day`, one per jurisdiction.

    One query: the plate's vehicles with their rows (none for an unknown plate)."""
    from lotacao.registry.models import Vehicle

    sql = (
        f"SELECT v.id, a.day, a.dirty, a.version, a.body, a.changes_on FROM {Vehicle._meta.db_table} v "  # noqa: S608
        f"LEFT JOIN {_table()} a ON a.vehicle_id = v.id WHERE v.plate = %s ORDER BY v.id"
    )
    conn = connections[_read_alias()]
    retry = not conn.in_atomic_block
    if retry:
        # No "SELECT 1" probe before the query (CONN_HEALTH_CHECKS) — it would double the
        # round trips of the public check; a connection found broken is reopened once instead.
        conn.health_check_done = True  # type: ignore[attr-defined]
    try:
        rows = _fetch(conn, sql, [plate])
    except (OperationalError, InterfaceError):
        if not retry:
            raise
        conn.close()
        rows = _fetch(conn, sql, [plate])
    out: dict[int, dict[str, Any]] = {}
    stale: dict[int, int | None] = {}
    for vehicle_id, row_day, dirty, version, body, changes_on in rows:
        if isinstance(row_day, str):  # SQLite through a raw cursor
            row_day = dt.date.fromisoformat(row_day)
        if isinstance(changes_on, str):
            changes_on = dt.date.fromisoformat(changes_on)
        if version is None:  # a vehicle without a row yet (loaded in bulk)
            stale[vehicle_id] = None
        elif dirty or not body or row_day is None or not current(row_day, changes_on, day):
            stale[vehicle_id] = version
        else:
            out[vehicle_id] = orjson.loads(body)
    vehicles = _vehicles(stale) if stale else []
    computed = answers(vehicles, day)
    for vehicle in vehicles:
        text, changes_on = computed[vehicle.pk]
        version = stale[vehicle.pk]
        if version is None:
            _insert(vehicle, day, text, changes_on)
        else:
            _store(vehicle.pk, version, day, text, changes_on)
        out[vehicle.pk] = orjson.loads(text)
    return [out[k] for k in sorted(out)]


def current(row_day: dt.date, changes_on: dt.date | None, day: dt.date) -> bool:
    """Whether an answer computed for `row_day` still holds on `day` (nothing was written since)."""
    return row_day <= day and (changes_on is None or day < changes_on)


def _fetch(conn: Any, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """The rows of one read. On PostgreSQL as a prepared statement, bound on the server (psycopg
    keeps it per connection): the server neither parses nor plans the plate check again, which
    more than halves its time there (docs/performance.md). Django's own cursors bind on the client."""
    if conn.vendor != "postgresql" or not getattr(settings, "LOTACAO_PUBLIC_PREPARED", True):
        with conn.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
    import psycopg

    conn.ensure_connection()
    raw = conn.connection
    if raw.prepare_threshold is None:  # Django turns preparing off for the whole connection
        raw.prepare_threshold = 5  # psycopg's default; only cursors that bind on the server prepare
    started = time.perf_counter()
    with conn.wrap_database_errors, psycopg.Cursor(raw) as cursor:
        cursor.execute(sql, params, prepare=True)
        rows = cursor.fetchall()
    if conn.queries_logged:  # what Django's debug cursor records (DEBUG, tests counting queries)
        conn.queries_log.append(
            {"sql": sql % tuple(map(repr, params)), "time": f"{time.perf_counter() - started:.3f}"}
        )
    return rows


def _json(record: dict[str, Any] | str) -> str:
    return record if isinstance(record, str) else orjson.dumps(record, default=str).decode()


def _until(day: dt.date, changes_on: Any) -> dt.date | None:
    """A caller that does not say when the answer changes: it holds for `day` only."""
    return day + dt.timedelta(days=1) if changes_on is _ONE_DAY else changes_on


_ONE_DAY: Any = object()


def _store(
    vehicle_id: int, version: int, day: dt.date, record: dict[str, Any] | str, changes_on: Any = _ONE_DAY
) -> bool:
    """Write a computed answer unless the row changed since it was read (its version moved)."""
    with connections[_write_alias()].cursor() as cursor:
        cursor.execute(
            f"UPDATE {_table()} SET body = %s, day = %s, dirty = %s, changes_on = %s "  # noqa: S608
            "WHERE vehicle_id = %s AND version = %s",
            [_json(record), day, False, _until(day, changes_on), vehicle_id, version],
        )
        return bool(cursor.rowcount)


def _insert(vehicle: Any, day: dt.date, record: dict[str, Any] | str, changes_on: Any = _ONE_DAY) -> None:
    """A first row for a vehicle; a row a writer inserted meanwhile (dirty) is left as it is."""
    with connections[_write_alias()].cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_table()} (vehicle_id, plate, jurisdiction, day, body, version, dirty, changes_on) "  # noqa: S608, E501
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (vehicle_id) DO NOTHING",
            [
                vehicle.pk,
                vehicle.plate,
                vehicle.jurisdiction_id,
                day,
                _json(record),
                0,
                False,
                _until(day, changes_on),
            ],
        )


def _store_many_postgresql(
    conn: Any, table: str, rows: list[tuple[int, int, str, dt.date | None]], day: dt.date
) -> int:
    """One UPDATE joined to the rows as four arrays, bound on the server in binary: Django's cursors
    quote every value into the text of the query, which costs more than the update itself here."""
    import psycopg

    sql = (
        f"UPDATE {table} AS a SET body = v.body, day = %s, dirty = FALSE, changes_on = v.changes_on "  # noqa: S608
        "FROM unnest(%b::bigint[], %b::bigint[], %b::text[], %b::date[]) "
        "AS v(id, version, body, changes_on) WHERE a.vehicle_id = v.id AND a.version = v.version"
    )
    params = [day, [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows]]
    conn.ensure_connection()
    with conn.wrap_database_errors, psycopg.Cursor(conn.connection) as cursor:
        cursor.execute(sql, params)
        written = int(cursor.rowcount)
    if conn.queries_logged:
        conn.queries_log.append({"sql": sql, "time": "0"})
    return written


def store_many(
    rows: list[tuple[int, int, str, dt.date | None]], day: dt.date, using: str | None = None
) -> int:
    """Write many computed answers (vehicle, version read, JSON, changes_on) in one statement on
    PostgreSQL; a row whose version moved since it was read is left for the next reader. Returns
    how many were written."""
    if not rows:
        return 0
    conn = connections[using or _write_alias()]
    table = _table()
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            return _store_many_postgresql(conn, table, rows, day)
        written = 0
        for vehicle_id, version, body, changes_on in rows:
            cursor.execute(
                f"UPDATE {table} SET body = %s, day = %s, dirty = %s, changes_on = %s "  # noqa: S608
                "WHERE vehicle_id = %s AND version = %s",
                [body, day, False, changes_on, vehicle_id, version],
            )
            written += cursor.rowcount
        return written


# --------------------------------------------------------------------------- marking rows dirty


@dataclass
class Targets:
    """The vehicles a change reaches, by what identifies them."""

    vehicle_ids: set[int] = field(default_factory=set)
    holder_ids: set[int] = field(default_factory=set)
    plates: set[tuple[str, str]] = field(default_factory=set)  # (jurisdiction, plate)
    line_ids: set[int] = field(default_factory=set)
    jurisdictions: set[str] = field(default_factory=set)

    def __or__(self, other: Targets) -> Targets:
        return Targets(
            self.vehicle_ids | other.vehicle_ids,
            self.holder_ids | other.holder_ids,
            self.plates | other.plates,
            self.line_ids | other.line_ids,
            self.jurisdictions | other.jurisdictions,
        )

    def __bool__(self) -> bool:
        return bool(self.vehicle_ids or self.holder_ids or self.plates or self.line_ids or self.jurisdictions)


def mark(targets: Targets, using: str = "default") -> int:
    """Mark the rows of the vehicles reached dirty (a new version), inserting dirty rows for those
    without one — in the caller's transaction. Returns how many rows were touched."""
    if not targets:
        return 0
    from lotacao.permits.models import Permit
    from lotacao.registry.models import Vehicle

    vehicles = Vehicle._meta.db_table
    where: list[str] = []
    params: list[Any] = []
    if targets.vehicle_ids:
        where.append(f"v.id IN ({', '.join(['%s'] * len(targets.vehicle_ids))})")
        params.extend(sorted(targets.vehicle_ids))
    if targets.holder_ids:
        where.append(f"v.holder_id IN ({', '.join(['%s'] * len(targets.holder_ids))})")
        params.extend(sorted(targets.holder_ids))
    for code, plate in sorted(targets.plates):
        where.append("(v.jurisdiction_id = %s AND v.plate = %s)")
        params.extend([code, plate])
    if targets.line_ids:
        marks = ", ".join(["%s"] * len(targets.line_ids))
        where.append(f"v.id IN (SELECT vehicle_id FROM {Permit._meta.db_table} WHERE line_id IN ({marks}))")  # noqa: S608
        params.extend(sorted(targets.line_ids))
    if targets.jurisdictions:
        where.append(f"v.jurisdiction_id IN ({', '.join(['%s'] * len(targets.jurisdictions))})")
        params.extend(sorted(targets.jurisdictions))
    table = _table()
    sql = (
        f"INSERT INTO {table} (vehicle_id, plate, jurisdiction, day, body, version, dirty) "  # noqa: S608
        f"SELECT v.id, v.plate, v.jurisdiction_id, NULL, '', 1, %s FROM {vehicles} v "
        f"WHERE {' OR '.join(where)} "
        f"ON CONFLICT (vehicle_id) DO UPDATE SET dirty = %s, version = {table}.version + 1, "
        "plate = excluded.plate, jurisdiction = excluded.jurisdiction"
    )
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [True, *params, True])
        return int(cursor.rowcount)


def _notice_targets(notice: Any) -> Targets:
    if notice is None:
        return Targets()
    found = Targets(plates={(notice.jurisdiction_id, notice.plate)} if notice.plate else set())
    if notice.vehicle_id:
        found.vehicle_ids.add(notice.vehicle_id)
    return found


def _measure_targets(measure: Any) -> Targets:
    from lotacao.enforcement.models import InfractionNotice

    return _notice_targets(InfractionNotice._base_manager.filter(pk=measure.notice_id).first())


def _vehicle(obj: Any) -> Targets:
    return Targets(vehicle_ids={obj.vehicle_id} if obj.vehicle_id else set())


def _holder(obj: Any) -> Targets:
    return Targets(holder_ids={obj.holder_id} if obj.holder_id else set())


def _jurisdiction(obj: Any) -> Targets:
    return Targets(jurisdictions={obj.jurisdiction_id})


# What each watched model reaches. The answer is made of these rows and of nothing else (a test
# walks the tables the computation reads and finds each here).
WATCHED: dict[str, Callable[[Any], Targets]] = {
    "registry.Vehicle": lambda v: Targets(vehicle_ids={v.pk}),
    "registry.Holder": lambda h: Targets(holder_ids={h.pk}),
    "registry.Company": _jurisdiction,  # a chartering company's trade name
    "registry.Line": lambda line: Targets(line_ids={line.pk}),
    "permits.Permit": _vehicle,
    "inspections.Seal": _vehicle,
    "inspections.InsurancePolicy": _vehicle,
    "inspections.ProvisionalAuthorization": _vehicle,
    "inspections.Inspection": _vehicle,
    "enforcement.InfractionNotice": _notice_targets,
    "enforcement.Measure": _measure_targets,
    "enforcement.CourseRequirement": _holder,
    "lines.LineVersion": lambda version: Targets(line_ids={version.line_id}),
    "lines.Place": _vehicle,  # the line the vehicle operates (a place moved to another line)
    "chartering.CharteringCompany": _jurisdiction,
    "chartering.Crc": _jurisdiction,
    "chartering.CrcApplication": _jurisdiction,
    "chartering.FleetVehicle": _jurisdiction,
    "chartering.Sanction": _jurisdiction,
    "authorizations.Authorization": _vehicle,
    "core.Jurisdiction": lambda j: Targets(jurisdictions={j.pk}),
    "core.AgencyValue": _jurisdiction,
}


def _before_save(
    sender: type[Model], instance: Any, raw: bool = False, using: str = "default", **kw: Any
) -> None:
    """A row about to change may leave the vehicles it reached (a permit moved to another vehicle)."""
    if instance.pk is None:
        return
    old = sender._base_manager.using(using).filter(pk=instance.pk).first()
    if old is not None:
        instance._public_targets_before = WATCHED[sender._meta.label](old)


def _after_save(sender: type[Model], instance: Any, using: str = "default", **kw: Any) -> None:
    targets = WATCHED[sender._meta.label](instance)
    before = instance.__dict__.pop("_public_targets_before", None)
    mark(targets | before if before else targets, using)


def _after_delete(sender: type[Model], instance: Any, using: str = "default", **kw: Any) -> None:
    mark(WATCHED[sender._meta.label](instance), using)


def _on_changed(sender: Any, using: str = "default", **kw: Any) -> None:
    mark(
        Targets(
            set(kw.get("vehicle_ids") or ()),
            set(kw.get("holder_ids") or ()),
            set(kw.get("plates") or ()),
            set(kw.get("line_ids") or ()),
            set(kw.get("jurisdictions") or ()),
        ),
        using,
    )


def connect() -> None:
    """Follow the watched models (from PublicConfig.ready())."""
    for label in WATCHED:
        model = apps.get_model(label)
        uid = f"lotacao.public.readmodel:{label}"
        pre_save.connect(_before_save, sender=model, dispatch_uid=uid)
        post_save.connect(_after_save, sender=model, dispatch_uid=uid)
        post_delete.connect(_after_delete, sender=model, dispatch_uid=uid)
    verdict_changed.connect(_on_changed, dispatch_uid="lotacao.public.readmodel")


# --------------------------------------------------------------------------- the nightly job


def refresh(day: dt.date, batch: int = 500, vehicle_ids: list[int] | None = None) -> dict[str, int]:
    """The nightly job (also `manage.py build_public_answers`): recompute the answers that changed
    — marked dirty by a write, never computed, or reaching their `changes_on` — in ranges several
    workers share (lotacao.public.build). `vehicle_ids` limits it to those vehicles, in this
    process (the bench's sample)."""
    from lotacao.public import build

    if vehicle_ids is None:
        return build.run(day)
    build.add_missing_rows()
    done = kept = 0
    wanted = sorted(set(vehicle_ids))
    for start in range(0, len(wanted), batch):
        written, left = build.compute_range(
            wanted[start],
            wanted[min(start + batch, len(wanted)) - 1],
            day,
            full=False,
            only=wanted[start : start + batch],
        )
        done += written
        kept += left
    log.info("public answers refreshed for %s: %s", day.isoformat(), done)
    return {"novas": 0, "recalculadas": done, "alteradas_durante": kept}
