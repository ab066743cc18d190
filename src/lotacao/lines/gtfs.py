"""The GTFS feed of a jurisdiction, built only from the line versions and service orders in force.

Tables: agency, routes, stops, shapes, trips, stop_times, frequencies (headway periods: one trip
per period, `exact_times=0`) or one trip per fixed departure, calendar (a service per order and
day type) and calendar_dates (the jurisdiction's holidays: the national and state ones of the
pack's calendar and the municipal ones in force, the law's or the agency's), and feed_info whose
version names each service order used. Times past midnight are written as GTFS wants them
(Recife's night service: 22:00:00–28:00:00). No holder, vehicle, CPF or any personal data: only
the agency, the lines, their stops and timetables.

Rows are generated table by table and written with the csv module straight into the zip, so
memory stays flat however many trips there are (see bench/bench_gtfs.py).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import IO, Any

from lotacao.core import law
from lotacao.core.models import Jurisdiction
from lotacao.law.calendar import official_holidays, parse_municipal
from lotacao.lines import geometry
from lotacao.lines import law as lines_law
from lotacao.lines.models import LineVersion, ServiceOrder, ServicePeriod, Stop
from lotacao.lines.selectors import orders_in_force, versions_in_force
from lotacao.registry.models import Line

HORIZON_DAYS = 365  # an order without an end is published for a year from the export date
WEEK = {
    "weekday": (1, 1, 1, 1, 1, 0, 0),
    "saturday": (0, 0, 0, 0, 0, 1, 0),
    "sunday": (0, 0, 0, 0, 0, 0, 1),
    "holiday": (0, 0, 0, 0, 0, 0, 0),
}
HEADERS = {
    "agency.txt": ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang"],
    "routes.txt": [
        "route_id",
        "agency_id",
        "route_short_name",
        "route_long_name",
        "route_desc",
        "route_type",
    ],
    "stops.txt": ["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type"],
    "shapes.txt": ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"],
    "calendar.txt": [
        "service_id",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "start_date",
        "end_date",
    ],
    "calendar_dates.txt": ["service_id", "date", "exception_type"],
    "trips.txt": ["route_id", "service_id", "trip_id", "trip_headsign", "direction_id", "shape_id"],
    "stop_times.txt": ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"],
    "frequencies.txt": ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"],
    "feed_info.txt": [
        "feed_publisher_name",
        "feed_publisher_url",
        "feed_lang",
        "feed_start_date",
        "feed_end_date",
        "feed_version",
        "feed_contact_url",
    ],
}


class NoFeed(Exception):
    """The jurisdiction's law has no lines (Pernambuco's chartering): there is no feed."""


@lru_cache(maxsize=200_000)
def gtfs_time(minutes: int, seconds: int = 0) -> str:
    total = minutes * 60 + seconds
    return f"{total // 3600:02d}:{total % 3600 // 60:02d}:{total % 60:02d}"


def _day(d: dt.date) -> str:
    return d.strftime("%Y%m%d")


@dataclass
class Published:
    """One line as published: its version, stops, service order and periods."""

    line: Line
    version: LineVersion
    stops: list[Stop]
    order: ServiceOrder
    periods: list[ServicePeriod]
    offsets: list[int] = field(default_factory=list)  # seconds from departure to each stop


def _offsets(version: LineVersion, stops: list[Stop], trip_minutes: int) -> list[int]:
    """Seconds from the first stop to each stop, in proportion to the distance along the itinerary."""
    projection = geometry.Projection.around(version.itinerary)
    path = projection.line(version.itinerary)
    along = [path.project(projection.point(s.lon, s.lat)) for s in stops]
    for i in range(1, len(along)):  # never backwards (a stop placed off the path's order)
        along[i] = max(along[i], along[i - 1])
    span = (along[-1] - along[0]) or 1.0
    total = trip_minutes * 60
    return [round((a - along[0]) / span * total) for a in along]


def published(code: str, on: dt.date) -> list[Published]:
    """The lines with an approved version and a service order in force on `on` (a handful of
    queries for the whole jurisdiction, whatever the number of lines)."""
    lines = {x.pk: x for x in Line.unscoped.filter(jurisdiction_id=code, active=True)}
    has_version = set(
        versions_in_force(on)
        .filter(jurisdiction_id=code, line_id__in=lines)
        .values_list("line_id", flat=True)
    )
    chosen: dict[int, ServiceOrder] = {}
    rows = orders_in_force(on).filter(jurisdiction_id=code, line_id__in=has_version).select_related("version")
    for order in rows.order_by("line_id", "-valid_from", "-number"):
        best = chosen.get(order.line_id)
        if best is None or (order.kind == "temporary" and best.kind != "temporary"):
            chosen[order.line_id] = order  # a temporary order over the regular one while it lasts
    stops: dict[int, list[Stop]] = {}
    for stop in Stop.unscoped.filter(version_id__in={o.version_id for o in chosen.values()}).order_by(
        "sequence"
    ):
        stops.setdefault(stop.version_id, []).append(stop)
    periods: dict[int, list[ServicePeriod]] = {}
    for period in ServicePeriod.unscoped.filter(order__in=list(chosen.values())).order_by(
        "day_type", "first"
    ):
        periods.setdefault(period.order_id, []).append(period)
    out: list[Published] = []
    for line_id, order in sorted(chosen.items(), key=lambda item: lines[item[0]].code):
        own_stops, own_periods = stops.get(order.version_id, []), periods.get(order.pk, [])
        if len(own_stops) < 2 or not own_periods:
            continue
        item = Published(lines[line_id], order.version, own_stops, order, own_periods)
        item.offsets = _offsets(order.version, own_stops, order.trip_minutes)
        out.append(item)
    return out


def holidays(code: str, start: dt.date, end: dt.date) -> list[dt.date]:
    pack = law.pack_for(code)
    country, subdivision = pack.calendar.get("country", "BR"), pack.calendar.get("subdivision")
    days: set[dt.date] = set()
    for year in range(start.year, end.year + 1):
        days |= set(official_holidays(country, subdivision, year))
        municipal = law.value(code, "calendar.municipal_holidays", dt.date(year, 1, 1)) or []
        yearly, dated = parse_municipal(municipal)
        days |= {dt.date(year, m, d) for m, d in yearly if _valid(year, m, d)} | set(dated)
    return sorted(d for d in days if start <= d <= end)


def _valid(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


@dataclass
class Feed:
    code: str
    on: dt.date
    url: str
    lines: list[Published]
    end: dt.date
    holidays: list[dt.date]

    def version(self) -> str:
        orders = ", ".join(f"{p.line.code} OSO nº {p.order.number} v{p.version.number}" for p in self.lines)
        return f"{self.on.isoformat()} — {orders}"[:500] if orders else self.on.isoformat()


def build(code: str, on: dt.date, url: str) -> Feed:
    if not Jurisdiction.unscoped.filter(code=code).exists() or not lines_law.has_lines(code, on):
        raise NoFeed(code)
    lines = published(code, on)
    end = on + dt.timedelta(days=HORIZON_DAYS)
    return Feed(code, on, url, lines, end, holidays(code, on, end))


def _service_window(feed: Feed, order: ServiceOrder) -> tuple[dt.date, dt.date]:
    start = max(feed.on, order.valid_from)
    end = min(feed.end, order.valid_until) if order.valid_until else feed.end
    return start, end


def tables(feed: Feed) -> Iterator[tuple[str, Iterable[list[Any]]]]:
    jurisdiction = Jurisdiction.unscoped.get(code=feed.code)
    pack = law.pack_for(feed.code)
    yield "agency.txt", [[feed.code, jurisdiction.official_name, feed.url, pack.timezone, "pt"]]
    yield (
        "routes.txt",
        (
            [
                p.line.code,
                feed.code,
                p.line.code,
                p.line.name,
                f"{p.version.origin} — {p.version.destination}",
                3,
            ]
            for p in feed.lines
        ),
    )
    yield (
        "stops.txt",
        ([_stop_id(p, s), s.name, f"{s.lat:.6f}", f"{s.lon:.6f}", 0] for p in feed.lines for s in p.stops),
    )
    yield (
        "shapes.txt",
        (
            [_shape_id(p), f"{lat:.6f}", f"{lon:.6f}", n]
            for p in feed.lines
            for n, (lon, lat) in enumerate(p.version.itinerary, start=1)
        ),
    )
    yield "calendar.txt", _calendar(feed)
    yield "calendar_dates.txt", _calendar_dates(feed)
    yield "trips.txt", (row for p in feed.lines for row in _trips(feed, p))
    yield "stop_times.txt", (row for p in feed.lines for row in _stop_times(feed, p))
    yield "frequencies.txt", (row for p in feed.lines for row in _frequencies(feed, p))
    yield (
        "feed_info.txt",
        [
            [
                jurisdiction.official_name,
                feed.url,
                "pt",
                _day(feed.on),
                _day(feed.end),
                feed.version(),
                feed.url,
            ]
        ],
    )


def _stop_id(p: Published, s: Stop) -> str:
    return f"{p.line.code}-v{p.version.number}-{s.sequence}"


def _shape_id(p: Published) -> str:
    return f"{p.line.code}-v{p.version.number}"


def _service_id(p: Published, day_type: str) -> str:
    return f"{p.line.code}-oso{p.order.number}-{day_type}"


def _day_types(feed: Feed, p: Published) -> list[str]:
    kinds = sorted({period.day_type for period in p.periods})
    start, end = _service_window(feed, p.order)
    if "holiday" in kinds and not [d for d in feed.holidays if start <= d <= end]:
        kinds.remove("holiday")  # no holiday in the window: a service that never runs is left out
    return kinds


def _calendar(feed: Feed) -> Iterator[list[Any]]:
    for p in feed.lines:
        start, end = _service_window(feed, p.order)
        for kind in _day_types(feed, p):
            yield [_service_id(p, kind), *WEEK[kind], _day(start), _day(end)]


def _calendar_dates(feed: Feed) -> Iterator[list[Any]]:
    for p in feed.lines:
        kinds = _day_types(feed, p)
        if "holiday" not in kinds:
            continue  # without a holiday timetable the order runs as on any other day
        start, end = _service_window(feed, p.order)
        for day in (d for d in feed.holidays if start <= d <= end):
            for kind in kinds:
                if kind == "holiday":
                    yield [_service_id(p, kind), _day(day), 1]
                elif WEEK[kind][day.weekday()]:
                    yield [_service_id(p, kind), _day(day), 2]


def _runs(feed: Feed, p: Published) -> Iterator[tuple[str, ServicePeriod, int]]:
    """(trip_id, period, departure minutes) of each trip: one per headway period, one per departure."""
    kinds = set(_day_types(feed, p))
    for n, period in enumerate(p.periods, start=1):
        if period.day_type not in kinds:
            continue
        if period.headway:
            yield f"{_service_id(p, period.day_type)}-p{n}", period, period.first
        else:
            for t in period.times():
                yield f"{_service_id(p, period.day_type)}-p{n}-{t:04d}", period, t


def _trips(feed: Feed, p: Published) -> Iterator[list[Any]]:
    for trip_id, period, _t in _runs(feed, p):
        yield [p.line.code, _service_id(p, period.day_type), trip_id, p.version.destination, 0, _shape_id(p)]


def _stop_times(feed: Feed, p: Published) -> Iterator[list[Any]]:
    for trip_id, _period, start in _runs(feed, p):
        for stop, offset in zip(p.stops, p.offsets, strict=True):
            time = gtfs_time(start, offset)
            yield [trip_id, time, time, _stop_id(p, stop), stop.sequence]


def _frequencies(feed: Feed, p: Published) -> Iterator[list[Any]]:
    for trip_id, period, _t in _runs(feed, p):
        if period.headway:
            yield [trip_id, gtfs_time(period.first), gtfs_time(period.last), period.headway * 60, 0]


OPTIONAL = frozenset({"calendar_dates.txt", "frequencies.txt", "shapes.txt"})


def write_zip(feed: Feed, out: IO[bytes]) -> None:
    """Write the feed as a zip; an optional table without rows is left out."""
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, rows in tables(feed):
            it = iter(rows)
            first = next(it, None)
            if first is None and name in OPTIONAL:
                continue
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(HEADERS[name])
            with archive.open(name, "w") as member:
                if first is not None:
                    writer.writerow(first)
                for row in it:
                    writer.writerow(row)
                    if buffer.tell() > 1 << 20:
                        member.write(buffer.getvalue().encode("utf-8"))
                        buffer.seek(0)
                        buffer.truncate()
                member.write(buffer.getvalue().encode("utf-8"))


def export(code: str, on: dt.date, url: str) -> bytes:
    out = io.BytesIO()
    write_zip(build(code, on, url), out)
    return out.getvalue()
