"""The GTFS feed of a jurisdiction, built only from the line versions and service orders in force.

Tables: agency, routes (`route_desc` only when the version describes its itinerary, `route_url`
the public line page), stops (one stop per place and name, shared by every line and version that
calls there; a terminal is a station, `location_type` 1, with its boarding point as child;
`wheelchair_boarding` where the stop's accessibility is recorded), shapes (one per direction),
trips (`direction_id` 0, and 1 for the return trips of an order that runs both ways), stop_times,
frequencies (headway periods: one trip per period, `exact_times=0`) or one trip per fixed
departure, calendar (a service per order and day type), calendar_dates (the jurisdiction's
holidays: the national and state ones of the `holidays` package for the pack's calendar and the
municipal ones in force, the law's or the agency's `calendar.municipal_holidays`: on a holiday the
weekday and Saturday services are off; the holiday timetable runs when the order has one, else the
Sunday one; on the days of a temporary change — works, an event: `TemporaryChange` — the line's
services are off, and its altered itinerary and stops, if any, run as a service of their own with
the change's dates and its own shape), fare_attributes and fare_rules (the fare act in force of
each line, billing's `FareAct`), and feed_info (`feed_contact_email`: the agency's `gtfs.contact_email`) whose
version names each service order used. A line whose end is decided (`LineEnd`) is published up to
the day before its end. Times past midnight are written as GTFS wants them
(Recife's night service: 22:00:00–28:00:00). No holder, vehicle, CPF or any personal data: only
the agency, the lines, their stops, timetables and fares.

Rows are generated table by table and written with the csv module straight into the zip, so
memory stays flat however many trips there are (see bench/bench_gtfs.py).
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import math
import unicodedata
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, islice
from typing import IO, Any

from lotacao.core import law
from lotacao.core.models import Jurisdiction
from lotacao.law.calendar import official_holidays, parse_municipal
from lotacao.lines import fares as lines_fares
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
        "route_url",
    ],
    "stops.txt": [
        "stop_id",
        "stop_name",
        "stop_lat",
        "stop_lon",
        "location_type",
        "parent_station",
        "wheelchair_boarding",
    ],
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
    "fare_attributes.txt": ["fare_id", "price", "currency_type", "payment_method", "transfers", "agency_id"],
    "fare_rules.txt": ["fare_id", "route_id"],
    "networks.txt": ["network_id", "network_name"],
    "route_networks.txt": ["route_id", "network_id"],
    "rider_categories.txt": [
        "rider_category_id",
        "rider_category_name",
        "is_default_fare_category",
        "eligibility_url",
    ],
    "fare_products.txt": ["fare_product_id", "fare_product_name", "amount", "currency", "rider_category_id"],
    "fare_leg_rules.txt": ["leg_group_id", "network_id", "fare_product_id"],
    "feed_info.txt": [
        "feed_publisher_name",
        "feed_publisher_url",
        "feed_lang",
        "feed_start_date",
        "feed_end_date",
        "feed_version",
        "feed_contact_email",
        "feed_contact_url",
    ],
}
SAME_STOP_M = 10.0  # two stops of the same name this close are one place
WHEELCHAIR = {"": 0, "yes": 1, "no": 2}


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
    tag: str = ""  # "" for the line's own service; "-alt<n>" for a temporary change's
    window: tuple[dt.date, dt.date] | None = None  # a temporary change's own dates
    off: list[tuple[dt.date, dt.date]] = field(default_factory=list)  # dates the service does not run
    last_day: dt.date | None = None  # the day before the line's end takes effect


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
    _life(out, on)
    return out


def _life(lines: list[Published], on: dt.date) -> None:
    """The line's end date and its temporary changes (works, events) over the published window."""
    from lotacao.lines.models import LineEnd, TemporaryChange

    ids = [p.line.pk for p in lines]
    ends = {e.line_id: e.effective_on for e in LineEnd.unscoped.filter(line_id__in=ids)}
    changes: dict[int, list[TemporaryChange]] = {}
    for change in TemporaryChange.unscoped.filter(line_id__in=ids, cancelled=False, ends_on__gte=on).order_by(
        "starts_on"
    ):
        changes.setdefault(change.line_id, []).append(change)
    for p in lines:
        if p.line.pk in ends:
            p.last_day = ends[p.line.pk] - dt.timedelta(days=1)
        p.off = [(c.starts_on, c.ends_on) for c in changes.get(p.line.pk, [])]
    lines[:] = [p for p in lines if p.last_day is None or p.last_day >= on]


def alternates(lines: list[Published]) -> list[Published]:
    """A temporary change's altered itinerary as a service of its own, running on its dates only."""
    from lotacao.lines.models import TemporaryChange

    out: list[Published] = []
    by_line = {p.line.pk: p for p in lines}
    rows = TemporaryChange.unscoped.filter(line_id__in=list(by_line), cancelled=False, suspended=False)
    for change in rows.order_by("line_id", "starts_on"):
        p = by_line[change.line_id]
        if not any(start == change.starts_on for start, _end in p.off) or len(change.stops) < 2:
            continue
        version = LineVersion(
            jurisdiction_id=p.version.jurisdiction_id,
            line=p.line,
            number=p.version.number,
            shape=p.version.shape,
            origin=p.version.origin,
            destination=p.version.destination,
            itinerary=change.itinerary,
            description=change.description,
        )
        stops = [
            Stop(
                pk=-(change.pk * 1000 + n),
                jurisdiction_id=p.version.jurisdiction_id,
                sequence=n,
                name=s["name"],
                lat=s["lat"],
                lon=s["lon"],
                kind=s.get("kind") or Stop.Kind.STOP,
                wheelchair=s.get("wheelchair") or "",
            )
            for n, s in enumerate(change.stops, start=1)
        ]
        item = Published(p.line, version, stops, p.order, p.periods, tag=f"-alt{change.pk}")
        item.window = (change.starts_on, change.ends_on)
        item.last_day = p.last_day
        item.offsets = _offsets(version, stops, p.order.trip_minutes)
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


@dataclass(frozen=True)
class Place:
    """One stop of the feed: a place and a name shared by every line and version calling there."""

    stop_id: str
    name: str
    lat: float
    lon: float
    terminal: bool
    wheelchair: str

    @property
    def station_id(self) -> str:
        return f"{self.stop_id}-estacao"


def _norm(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return " ".join(text.split())


def _metres(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance in metres between two (lat, lon) pairs (equirectangular: exact enough at 10 m)."""
    x = math.radians(b[1] - a[1]) * math.cos(math.radians((a[0] + b[0]) / 2))
    y = math.radians(b[0] - a[0])
    return 6_371_000 * math.hypot(x, y)


def shared_stops(lines: list[Published]) -> tuple[dict[int, Place], list[Place]]:
    """Stop pk -> its shared place, and the places: stops of the same name within SAME_STOP_M
    metres are one place whatever line or version they belong to. The id comes from the name and
    the place, so it stays the same from one version (and one export) to the next."""
    members: list[tuple[str, float, float, Stop]] = sorted(
        ((_norm(s.name), s.lat, s.lon, s) for p in lines for s in p.stops), key=lambda m: m[:3]
    )
    groups: list[list[tuple[str, float, float, Stop]]] = []
    cells: dict[tuple[str, int, int], list[int]] = {}  # (name, cell) -> groups; a cell is ~110 m
    for member in members:
        name, lat, lon = member[0], member[1], member[2]
        row, col = round(lat * 1000), round(lon * 1000)
        near = (
            i for dr in (-1, 0, 1) for dc in (-1, 0, 1) for i in cells.get((name, row + dr, col + dc), [])
        )
        found = next(
            (i for i in near if _metres((groups[i][0][1], groups[i][0][2]), (lat, lon)) <= SAME_STOP_M), None
        )
        if found is None:
            cells.setdefault((name, row, col), []).append(len(groups))
            groups.append([member])
        else:
            groups[found].append(member)
    of: dict[int, Place] = {}
    places: list[Place] = []
    for group in groups:
        name, lat, lon, first = group[0]
        digest = hashlib.blake2s(f"{name}|{lat:.4f}|{lon:.4f}".encode(), digest_size=5).hexdigest()
        access = {m[3].wheelchair for m in group} - {""}
        place = Place(
            stop_id=f"p{digest}",
            name=first.name,
            lat=lat,
            lon=lon,
            terminal=any(m[3].kind == Stop.Kind.TERMINAL for m in group),
            wheelchair=access.pop() if len(access) == 1 else "",
        )
        places.append(place)
        for m in group:
            of[m[3].pk] = place
    return of, places


@dataclass
class Feed:
    code: str
    on: dt.date
    url: str
    lines: list[Published]
    end: dt.date
    holidays: list[dt.date]
    stop_of: dict[int, Place] = field(default_factory=dict)
    places: list[Place] = field(default_factory=list)
    fares: dict[int, Any] = field(default_factory=dict)  # line id -> FareAct in force
    contact_email: str = ""
    free: list[Any] = field(default_factory=list)  # the gratuities (lines.fares.Benefit) in force
    alternates: list[Published] = field(default_factory=list)  # temporary changes' own services

    def services(self) -> list[Published]:
        return self.lines + self.alternates

    def version(self) -> str:
        orders = ", ".join(f"{p.line.code} OSO nº {p.order.number} v{p.version.number}" for p in self.lines)
        return f"{self.on.isoformat()} — {orders}"[:500] if orders else self.on.isoformat()


def build(code: str, on: dt.date, url: str) -> Feed:
    if not Jurisdiction.unscoped.filter(code=code).exists() or not lines_law.has_lines(code, on):
        raise NoFeed(code)
    lines = published(code, on)
    end = on + dt.timedelta(days=HORIZON_DAYS)
    extra = alternates(lines)
    stop_of, places = shared_stops(lines + extra)
    feed = Feed(
        code,
        on,
        url,
        lines,
        end,
        holidays(code, on, end),
        stop_of,
        places,
        lines_fares.fare_acts_on(code, on),
        str(law.value(code, "gtfs.contact_email", on) or ""),
        [b for b in lines_fares.benefits(code, on).benefits if b.code in lines_fares.FREE],
    )
    feed.alternates = [a for a in extra if _has_days(feed, a)]
    return feed


def _has_days(feed: Feed, p: Published) -> bool:
    start, end = _service_window(feed, p)
    return start <= end


def _service_window(feed: Feed, p: Published) -> tuple[dt.date, dt.date]:
    order = p.order
    start = max(feed.on, order.valid_from)
    end = min(feed.end, order.valid_until) if order.valid_until else feed.end
    if p.window is not None:
        start, end = max(start, p.window[0]), min(end, p.window[1])
    if p.last_day is not None:
        end = min(end, p.last_day)
    return start, end


def _route_desc(p: Published) -> str:
    """The itinerary's description when it says more than the line's name and its two ends."""
    text = " ".join((p.version.description or "").split())
    plain = _norm(text)
    said = {_norm(p.line.name), _norm(f"{p.version.origin} — {p.version.destination}"), ""}
    return "" if plain in said else text


def _stops_rows(feed: Feed) -> Iterator[list[Any]]:
    for place in feed.places:
        access = WHEELCHAIR[place.wheelchair]
        lat, lon = f"{place.lat:.6f}", f"{place.lon:.6f}"
        if place.terminal:
            yield [place.station_id, place.name, lat, lon, 1, "", access or ""]
            yield [place.stop_id, place.name, lat, lon, 0, place.station_id, access or ""]
        else:
            yield [place.stop_id, place.name, lat, lon, 0, "", access or ""]


def _fare_id(p: Published) -> str:
    return f"{p.line.code}-tarifa"


def _fare_rows(feed: Feed) -> Iterator[list[Any]]:
    for p in feed.lines:
        act = feed.fares.get(p.line.pk)
        if act is not None:
            yield [_fare_id(p), f"{act.amount:.2f}", "BRL", 0, 0, feed.code]


def _fare_rule_rows(feed: Feed) -> Iterator[list[Any]]:
    for p in feed.lines:
        if p.line.pk in feed.fares:
            yield [_fare_id(p), p.line.code]


def _priced(feed: Feed) -> list[tuple[Published, Any]]:
    return [(p, feed.fares[p.line.pk]) for p in feed.lines if p.line.pk in feed.fares]


def _rider_categories(feed: Feed) -> Iterator[list[Any]]:
    """Fares v2: the full fare (default), the reduced one where an act sets it, each gratuity."""
    priced = _priced(feed)
    if not priced:
        return
    yield ["inteira", "Tarifa inteira", 1, ""]
    if any(act.reduced_amount is not None for _p, act in priced):
        yield ["desconto", "Tarifa com desconto", 0, feed.url]
    for benefit in feed.free:
        yield [f"gratuidade-{benefit.code}", f"{benefit.who} (gratuidade)", 0, feed.url]


def _fare_products(feed: Feed) -> Iterator[list[Any]]:
    for p, act in _priced(feed):
        product, name = f"{p.line.code}-passagem", f"Passagem da linha {p.line.code}"
        yield [product, name, f"{act.amount:.2f}", "BRL", "inteira"]
        if act.reduced_amount is not None:
            yield [product, name, f"{act.reduced_amount:.2f}", "BRL", "desconto"]
        for benefit in feed.free:
            yield [product, name, "0.00", "BRL", f"gratuidade-{benefit.code}"]


def tables(feed: Feed) -> Iterator[tuple[str, Iterable[list[Any]]]]:
    jurisdiction = Jurisdiction.unscoped.get(code=feed.code)
    pack = law.pack_for(feed.code)
    yield "agency.txt", [[feed.code, jurisdiction.official_name, feed.url, pack.timezone, "pt"]]
    yield (
        "routes.txt",
        (
            [p.line.code, feed.code, p.line.code, p.line.name, _route_desc(p), 3, _route_url(feed, p)]
            for p in feed.lines
        ),
    )
    yield "stops.txt", _stops_rows(feed)
    yield "shapes.txt", (row for p in feed.services() for row in _shapes(p))
    yield "calendar.txt", _calendar(feed)
    yield "calendar_dates.txt", _calendar_dates(feed)
    yield "trips.txt", (row for p in feed.services() for row in _trips(feed, p))
    yield (
        "stop_times.txt",
        chain.from_iterable(rows for p in feed.services() for rows in _stop_times(feed, p)),
    )
    yield "frequencies.txt", (row for p in feed.services() for row in _frequencies(feed, p))
    yield "fare_attributes.txt", _fare_rows(feed)
    yield "fare_rules.txt", _fare_rule_rows(feed)
    yield "networks.txt", ([f"rede-{p.line.code}", f"Linha {p.line.code}"] for p, _a in _priced(feed))
    yield "route_networks.txt", ([p.line.code, f"rede-{p.line.code}"] for p, _a in _priced(feed))
    yield "rider_categories.txt", _rider_categories(feed)
    yield "fare_products.txt", _fare_products(feed)
    yield (
        "fare_leg_rules.txt",
        (
            [f"{p.line.code}-viagem", f"rede-{p.line.code}", f"{p.line.code}-passagem"]
            for p, _a in _priced(feed)
        ),
    )
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
                feed.contact_email,
                feed.url,
            ]
        ],
    )


def _route_url(feed: Feed, p: Published) -> str:
    return f"{feed.url}{p.line.code}/" if feed.url.endswith("/") else ""


def _shape_id(p: Published, direction: int = 0) -> str:
    return f"{p.line.code}-v{p.version.number}{p.tag}" + ("-volta" if direction else "")


def _shapes(p: Published) -> Iterator[list[Any]]:
    directions = [(0, p.version.itinerary)]
    if p.order.both_directions:
        directions.append((1, list(reversed(p.version.itinerary))))
    for direction, points in directions:
        for n, (lon, lat) in enumerate(points, start=1):
            yield [_shape_id(p, direction), f"{lat:.6f}", f"{lon:.6f}", n]


def _service_id(p: Published, day_type: str) -> str:
    return f"{p.line.code}-oso{p.order.number}{p.tag}-{day_type}"


def _day_types(feed: Feed, p: Published) -> list[str]:
    kinds = sorted({period.day_type for period in p.periods})
    start, end = _service_window(feed, p)
    if "holiday" in kinds and not [d for d in feed.holidays if start <= d <= end]:
        kinds.remove("holiday")  # no holiday in the window: a service that never runs is left out
    return kinds


def _calendar(feed: Feed) -> Iterator[list[Any]]:
    for p in feed.services():
        start, end = _service_window(feed, p)
        for kind in _day_types(feed, p):
            if kind != "holiday":  # the holiday service runs on the dates of calendar_dates alone
                yield [_service_id(p, kind), *WEEK[kind], _day(start), _day(end)]


def _calendar_dates(feed: Feed) -> Iterator[list[Any]]:
    """On a holiday the weekday, Saturday (and Sunday) services stop; the order's holiday timetable
    runs instead, or its Sunday one when it has no holiday timetable. On the days of a temporary
    change (works, an event) the line's own services stop: the line is suspended, or the change's
    own services (`alternates`) run instead."""
    for p in feed.services():
        kinds = _day_types(feed, p)
        start, end = _service_window(feed, p)
        off = _off_days(p, start, end)
        for day in sorted(off):
            for kind in kinds:
                if kind != "holiday" and WEEK[kind][day.weekday()]:
                    yield [_service_id(p, kind), _day(day), 2]
        instead = "holiday" if "holiday" in kinds else ("sunday" if "sunday" in kinds else None)
        for day in (d for d in feed.holidays if start <= d <= end and d not in off):
            for kind in kinds:
                if kind == "holiday":
                    continue
                runs = bool(WEEK[kind][day.weekday()])
                if runs and kind != instead:
                    yield [_service_id(p, kind), _day(day), 2]
                elif kind == instead and not runs:
                    yield [_service_id(p, kind), _day(day), 1]
            if instead == "holiday":
                yield [_service_id(p, "holiday"), _day(day), 1]


def _off_days(p: Published, start: dt.date, end: dt.date) -> set[dt.date]:
    days: set[dt.date] = set()
    for first, last in p.off:
        day = max(first, start)
        while day <= min(last, end):
            days.add(day)
            day += dt.timedelta(days=1)
    return days


def _runs(feed: Feed, p: Published) -> Iterator[tuple[str, ServicePeriod, int]]:
    """(trip_id, period, departure minutes) of each trip: one per headway period, one per departure."""
    kinds = set(_day_types(feed, p))
    for n, period in enumerate(p.periods, start=1):
        if period.day_type not in kinds:
            continue
        prefix = f"{_service_id(p, period.day_type)}-p{n}"
        if period.headway:
            yield prefix, period, period.first
        else:
            for t in period.times():
                yield f"{prefix}-{t:04d}", period, t


def _directions(p: Published) -> tuple[int, ...]:
    return (0, 1) if p.order.both_directions else (0,)


def _trip_id(trip_id: str, direction: int) -> str:
    return f"{trip_id}-volta" if direction else trip_id


def _trips(feed: Feed, p: Published) -> Iterator[list[Any]]:
    for trip_id, period, _t in _runs(feed, p):
        service = _service_id(p, period.day_type)
        for direction in _directions(p):
            headsign = p.version.origin if direction else p.version.destination
            yield [
                p.line.code,
                service,
                _trip_id(trip_id, direction),
                headsign,
                direction,
                _shape_id(p, direction),
            ]


_CLOCK: dict[int, str] = {}


def _clock(total: int) -> str:
    """HH:MM:SS of `total` seconds after midnight (past 24:00 on the next day, as GTFS writes it)."""
    text = _CLOCK.get(total)
    if text is None:
        text = _CLOCK[total] = f"{total // 3600:02d}:{total % 3600 // 60:02d}:{total % 60:02d}"
    return text


def _stop_times(feed: Feed, p: Published) -> Iterator[list[list[Any]]]:
    """The rows of stop_times, a list per trip (the zip writes `_stop_times_text` instead)."""
    ids = [feed.stop_of[s.pk].stop_id for s in p.stops]
    total = p.offsets[-1] if p.offsets else 0
    back = [total - o for o in reversed(p.offsets)]
    legs = [("", list(zip(ids, p.offsets, strict=True)))]
    if p.order.both_directions:
        legs.append(("-volta", list(zip(reversed(ids), back, strict=True))))
    for trip_id, _period, start in _runs(feed, p):
        for suffix, stops in legs:
            rows = []
            for n, (stop_id, offset) in enumerate(stops, start=1):
                time = _clock(start * 60 + offset)
                rows.append([trip_id + suffix, time, time, stop_id, n])
            yield rows


def _csv_field(text: str) -> str:
    """`text` as the csv module writes it (QUOTE_MINIMAL)."""
    if "," in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def _tails(ids: list[str], offsets: list[int]) -> list[tuple[int, str]]:
    """(offset, ",stop_id,sequence\\n") of each stop of a trip."""
    return [(o, f",{i},{n}\n") for n, (i, o) in enumerate(zip(ids, offsets, strict=True), start=1)]


def _stop_times_text(feed: Feed) -> Iterator[str]:
    """stop_times.txt's rows as the csv module writes them, a string per trip: the table is most of
    the feed (1M rows at 500 lines), and a row is two ids, one time twice and a number — formatting
    it directly costs a fraction of building a list per row for the csv writer. `_stop_times` stays
    the table's rows; tests/lines/test_gtfs.py checks the two write the same bytes."""
    for p in feed.services():
        ids = [_csv_field(feed.stop_of[s.pk].stop_id) for s in p.stops]
        total = p.offsets[-1] if p.offsets else 0
        back = [total - o for o in reversed(p.offsets)]
        legs = [("", _tails(ids, p.offsets))]
        if p.order.both_directions:
            legs.append(("-volta", _tails(list(reversed(ids)), back)))
        for trip_id, _period, start in _runs(feed, p):
            base = start * 60
            for suffix, stops in legs:
                tid = _csv_field(trip_id + suffix) + ","
                parts = []
                for offset, tail in stops:
                    time = _CLOCK.get(base + offset) or _clock(base + offset)
                    parts.append(f"{tid}{time},{time}{tail}")
                yield "".join(parts)


# Tables written as text by their own formatter, not row by row through the csv writer.
AS_TEXT = {"stop_times.txt": _stop_times_text}


def _frequencies(feed: Feed, p: Published) -> Iterator[list[Any]]:
    for trip_id, period, _t in _runs(feed, p):
        if period.headway:
            for direction in _directions(p):
                yield [
                    _trip_id(trip_id, direction),
                    gtfs_time(period.first),
                    gtfs_time(period.last),
                    period.headway * 60,
                    0,
                ]


OPTIONAL = frozenset(
    {
        "calendar_dates.txt",
        "frequencies.txt",
        "shapes.txt",
        "fare_attributes.txt",
        "fare_rules.txt",
        "networks.txt",
        "route_networks.txt",
        "rider_categories.txt",
        "fare_products.txt",
        "fare_leg_rules.txt",
    }
)


# Rows go to the csv writer in blocks (one `writerows` call per block, as fast as the csv module
# alone) and each block is deflated at level 1: the feed is written for each download and its text
# is repetitive (times and ids), so the fastest level costs little in size (bench/bench_gtfs.py).
BLOCK_ROWS = 20_000
COMPRESS_LEVEL = 1


def _flush(buffer: io.StringIO, member: IO[bytes]) -> None:
    member.write(buffer.getvalue().encode("utf-8"))
    buffer.seek(0)
    buffer.truncate()


def write_zip(feed: Feed, out: IO[bytes]) -> None:
    """Write the feed as a zip; an optional table without rows is left out."""
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL) as archive:
        for name, rows in tables(feed):
            if name in AS_TEXT:
                texts = AS_TEXT[name](feed)
                first_text = next(texts, None)
                empty = first_text is None
            else:
                it = iter(rows)
                block = list(islice(it, BLOCK_ROWS))
                empty = not block
            if empty and name in OPTIONAL:
                continue
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(HEADERS[name])
            with archive.open(name, "w") as member:
                if name in AS_TEXT:
                    if first_text is not None:
                        buffer.write(first_text)
                    for text in texts:
                        buffer.write(text)
                        if buffer.tell() > 1 << 20:
                            _flush(buffer, member)
                else:
                    while block:
                        writer.writerows(block)
                        _flush(buffer, member)
                        block = list(islice(it, BLOCK_ROWS))
                _flush(buffer, member)


def export(code: str, on: dt.date, url: str) -> bytes:
    out = io.BytesIO()
    write_zip(build(code, on, url), out)
    return out.getvalue()
