"""The GTFS export, checked by the canonical rule set (gtfs-validator, written by others): 0 errors."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import json
import zipfile
from pathlib import Path
from typing import Any

from gtfs_validator.cli import main as validate

from lotacao.lines import gtfs, places, services
from tests.lines.conftest import agency_value, approved_line, permit, resolution_if_gated

D = dt.date(2025, 3, 1)


def notices(feed: bytes, folder: Path) -> dict[str, tuple[str, int]]:
    path = folder / "feed.zip"
    path.write_bytes(feed)
    out = folder / "report"
    assert validate(["-i", str(path), "-o", str(out), "-c", "BR", "-d", D.isoformat()]) == 0
    report = json.loads((out / "report.json").read_text())
    return {n["code"]: (n["severity"], n["totalNotices"]) for n in report["notices"]}


def test_a_recife_feed_with_headways_and_fixed_trips_has_no_errors(lines_db: Any, tmp_path: Path) -> None:
    night = approved_line("recife", grounds=["temporal"], valid_from=D)
    services.issue_service_order(
        actor=None,
        line=night,
        valid_from=D,
        resolution=resolution_if_gated("recife", "fleet.change", D),
        fleet=3,
        trip_minutes=40,
        act="OSO 1/2025",
        reason="t",
        periods=[
            {"day_type": "weekday", "first": 22 * 60, "last": 28 * 60, "headway": 20},
            {"day_type": "sunday", "first": 6 * 60, "last": 23 * 60, "headway": 30},
            {"day_type": "holiday", "departures": [7 * 60, 9 * 60]},
        ],
    )
    day = approved_line("recife", valid_from=D)
    services.issue_service_order(
        actor=None,
        line=day,
        valid_from=D,
        resolution=resolution_if_gated("recife", "fleet.change", D),
        fleet=2,
        trip_minutes=35,
        act="OSO 2/2025",
        reason="t",
        periods=[
            {"day_type": "weekday", "departures": [6 * 60, 6 * 60 + 30, 23 * 60 + 50, 24 * 60 + 20]},
            {"day_type": "saturday", "first": 6 * 60, "last": 12 * 60, "headway": 15},
        ],
    )
    agency_value("recife", "calendar.municipal_holidays", ["07-16", "12-08"])
    feed = gtfs.export("recife", D, "https://lotacao.example.org/publico/linhas/recife/")
    found = notices(feed, tmp_path)
    errors = {code: n for code, (severity, n) in found.items() if severity == "ERROR"}
    assert errors == {}, found
    with zipfile.ZipFile(io.BytesIO(feed)) as archive:
        names = set(archive.namelist())
        info = archive.read("feed_info.txt").decode()
        dates = archive.read("calendar_dates.txt").decode()
        times = archive.read("stop_times.txt").decode()
    assert {
        "agency.txt",
        "routes.txt",
        "stops.txt",
        "trips.txt",
        "stop_times.txt",
        "frequencies.txt",
        "calendar.txt",
        "calendar_dates.txt",
        "shapes.txt",
        "feed_info.txt",
    } <= names
    assert f"{night.code} OSO nº 1 v1" in info and f"{day.code} OSO nº 1 v1" in info
    assert f"{night.code}-oso1-holiday,20250716,1" in dates  # municipal holiday (the agency's value)
    assert f"{night.code}-oso1-weekday,20250421,2" in dates  # Tiradentes: weekday service off
    assert ",24:20:00," in times  # a departure after midnight keeps counting hours


def test_only_lines_and_orders_in_force_are_published(lines_db: Any, tmp_path: Path) -> None:
    line = approved_line("esteio", valid_from=D)
    later = approved_line("esteio", valid_from=dt.date(2025, 9, 1))
    for item, start in ((line, D), (later, dt.date(2025, 9, 1))):
        services.issue_service_order(
            actor=None,
            line=item,
            valid_from=start,
            fleet=1,
            trip_minutes=30,
            act="OSO",
            reason="t",
            periods=[{"day_type": "weekday", "first": 360, "last": 600, "headway": 30}],
        )
    car = permit("esteio", line)
    places.assign_place(actor=None, permit=car, line=line, starts_on=D, reason="t")
    with zipfile.ZipFile(io.BytesIO(gtfs.export("esteio", D, "https://x.example.org/"))) as archive:
        routes = archive.read("routes.txt").decode()
    assert line.code in routes and later.code not in routes
    assert (
        notices(gtfs.export("esteio", D, "https://x.example.org/"), tmp_path).get("foreign_key_violation")
        is None
    )


def test_stop_times_written_as_text_are_the_csv_writers_bytes(lines_db: Any) -> None:
    """stop_times.txt is formatted directly (the bulk of a feed, bench/bench_gtfs.py), not row by
    row through the csv writer: the bytes must be what the csv writer makes of the same rows,
    a field with a comma or a quote included (quoted as the csv module quotes it)."""
    import csv

    line = approved_line("recife", valid_from=D)
    services.issue_service_order(
        actor=None,
        line=line,
        valid_from=D,
        resolution=resolution_if_gated("recife", "fleet.change", D),
        fleet=2,
        trip_minutes=35,
        act="OSO 3/2025",
        reason="t",
        both_directions=True,
        periods=[
            {"day_type": "weekday", "departures": [6 * 60, 23 * 60 + 50, 24 * 60 + 20]},
            {"day_type": "sunday", "first": 6 * 60, "last": 9 * 60, "headway": 30},
        ],
    )
    feed = gtfs.build("recife", D, "https://x.example.org/")
    pk, place = next(iter(feed.stop_of.items()))
    feed.stop_of[pk] = dataclasses.replace(place, stop_id=f'{place.stop_id}, "praça"')
    expected = io.StringIO()
    csv.writer(expected, lineterminator="\n").writerows(
        row for p in feed.services() for rows in gtfs._stop_times(feed, p) for row in rows
    )
    assert "".join(gtfs._stop_times_text(feed)) == expected.getvalue()
    assert '"praça"""' in expected.getvalue() and ",24:55:00," in expected.getvalue()
