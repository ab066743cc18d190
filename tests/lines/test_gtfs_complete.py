"""The demo's GTFS of each municipal jurisdiction, read by two independent readers (feeds.py):
0 errors and 0 warnings; on 25/12 and on the municipal holiday no weekday or Saturday trip runs;
both directions; stops shared between lines, terminals as stations; fares; plausible speeds."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command

from lotacao.core import law
from lotacao.lines import gtfs
from lotacao.lines.fares import FREE
from tests import clock
from tests.lines.feeds import canonical, kit, problems

MUNICIPAL = ["recife", "cabo", "esteio", "marica"]


def _next(today: dt.date, month: int, day: int) -> dt.date:
    found = dt.date(today.year, month, day)
    return found if found > today else dt.date(today.year + 1, month, day)


def test_each_municipal_feed_is_complete_and_passes_both_readers(
    db: Any, client: Any, tmp_path: Path
) -> None:
    call_command("load_demo", stdout=StringIO())
    law._CACHE.clear()
    for code in MUNICIPAL:
        check_feed(code, tmp_path / code)
    check_line_page(client)


def check_feed(code: str, tmp_path: Path) -> None:
    today = clock.today()
    feed = gtfs.export(code, today, f"https://lotacao.example.org/publico/linhas/{code}/")
    assert problems(canonical(feed, tmp_path / "canonical", today)) == {}
    read = kit(feed, tmp_path / "kit")

    # Holidays: 25/12 (national) and the agency's municipal holiday stop weekday and Saturday trips.
    municipal = law.value(code, "calendar.municipal_holidays", today)
    assert municipal, code
    month, day = (int(x) for x in municipal[0].split("-"))
    for holiday in (_next(today, 12, 25), _next(today, month, day)):
        if holiday.weekday() == 6:
            continue  # a Sunday: the Sunday timetable runs anyway
        running = read.get_trips(date=holiday.strftime("%Y%m%d"))
        services = set(running["service_id"])
        assert not {s for s in services if s.endswith(("-weekday", "-saturday"))}, (code, holiday)
        assert services, (code, holiday)  # the Sunday (or holiday) timetable runs instead
    ordinary = today + dt.timedelta(days=1)
    while ordinary.weekday() > 4 or ordinary in gtfs.holidays(code, ordinary, ordinary):
        ordinary += dt.timedelta(days=1)
    weekday_trips = read.get_trips(date=ordinary.strftime("%Y%m%d"))
    assert any(s.endswith("-weekday") for s in weekday_trips["service_id"])

    # Both directions, with the shape of each.
    assert set(read.trips["direction_id"]) == {0, 1}
    assert read.trips.groupby("direction_id")["shape_id"].nunique().min() >= 2

    # Stops shared: a stop called at by two lines; terminals are stations with a child stop.
    times = read.stop_times.merge(read.trips[["trip_id", "route_id"]], on="trip_id")
    per_stop = times.groupby("stop_id")["route_id"].nunique()
    assert per_stop.max() >= 2, code
    stations = read.stops[read.stops["location_type"] == 1]
    assert len(stations) >= 2
    assert set(stations["stop_id"]) <= set(read.stops["parent_station"].dropna())
    assert read.stops["stop_name"].duplicated().sum() >= len(stations)  # station + child share the name

    # Fares: every route has its fare in reais.
    assert set(read.fare_rules["route_id"]) == set(read.routes["route_id"])
    assert set(read.fare_attributes["currency_type"]) == {"BRL"}

    # Plausible running times: the trips' speeds from distance and duration.
    stats = read.compute_trip_stats()
    assert stats["speed"].between(10, 40).all(), stats[["trip_id", "distance", "duration", "speed"]]

    with zipfile.ZipFile(io.BytesIO(feed)) as archive:
        info = archive.read("feed_info.txt").decode()
        routes = archive.read("routes.txt").decode()
        riders = archive.read("rider_categories.txt").decode()
        products = archive.read("fare_products.txt").decode()
    # Fares v2: the full fare is the default category; the law's gratuities are free categories.
    assert "inteira,Tarifa inteira,1," in riders
    free = {f"gratuidade-{c}" for c in law.value(code, "fare.benefits", today) or [] if c in FREE}
    assert free, code
    assert all(f",0.00,BRL,{c}" in products for c in free), (code, products)
    assert f"dados@{code}.example.org" in info
    for line in routes.splitlines()[1:]:
        fields = line.split(",")
        assert fields[4] != fields[3]  # route_desc never repeats route_long_name


def check_line_page(client: Any) -> None:
    page = client.get("/publico/linhas/recife/L-101/").content.decode()
    assert "R$" in page and "Tarifa" in page
    assert "Idosos" in page
    # The complaint channel: the complaint form, pre-filled with the jurisdiction and the line.
    assert 'href="/publico/manifestacao/?jurisdicao=recife&amp;linha=L-101"' in page
    assert "<svg" in page  # no tile server configured: the line is drawn without a third party
