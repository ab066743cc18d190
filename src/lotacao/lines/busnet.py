"""The conventional bus network: a city's bus GTFS read with partridge (pandas), kept as routes
(shapes, departures per day type) and stops, with a report of what was read.

Only what the laws' checks need is kept: each route's shapes (or, without shapes.txt, the stops
of its longest trip in order), each trip's first departure by day type (calendar.txt: Monday to
Friday → dias úteis, Saturday, Sunday), and each stop with the routes that call at it.
"""

from __future__ import annotations

import tempfile
import zipfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import partridge
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import record
from lotacao.core.models import Jurisdiction
from lotacao.core.uploads import open_zip
from lotacao.lines.checks import Network
from lotacao.lines.models import BusNetwork, BusRoute, BusStop

REQUIRED = ("routes.txt", "trips.txt", "stops.txt", "stop_times.txt")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday")


def _feed(path: Path, folder: Path, name: str = "enviado") -> Any:
    """The feed, unpacked into `folder` within the upload limits (lotacao.core.uploads: a zip
    bomb is refused by its declared sizes, then by what it really inflates to, rows and time)."""
    if not zipfile.is_zipfile(path):
        raise ValidationError("O arquivo enviado não é um GTFS: esperava um arquivo .zip.")
    with open_zip(path, name) as archive:
        names = {Path(info.filename).name for info in archive.members()}
        missing = [n for n in REQUIRED if n not in names]
        if missing:
            raise ValidationError(f"O GTFS enviado não tem {', '.join(missing)}: nada foi importado.")
        archive.check_declared()
        archive.extract_flat(folder)
    try:
        return partridge.load_feed(str(folder))
    except Exception as error:  # partridge/pandas raise many kinds on malformed CSV
        raise ValidationError(f"Não foi possível ler o GTFS: {error}. Nada foi importado.") from error


def _day_types(feed: Any) -> dict[str, set[str]]:
    """service_id -> day types it runs on, from calendar.txt."""
    out: dict[str, set[str]] = defaultdict(set)
    calendar = feed.calendar
    if calendar is None or calendar.empty:
        return out
    for row in calendar.itertuples(index=False):
        if any(int(getattr(row, d)) for d in WEEKDAYS):
            out[row.service_id].add("weekday")
        if int(row.saturday):
            out[row.service_id].add("saturday")
        if int(row.sunday):
            out[row.service_id].add("sunday")
    return out


def _departures(feed: Any, days: dict[str, set[str]]) -> tuple[dict[str, dict[str, list[int]]], int]:
    times = feed.stop_times.sort_values(["trip_id", "stop_sequence"]).groupby("trip_id", sort=False).first()
    trips = feed.trips.set_index("trip_id")
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    skipped = 0
    for trip_id, row in times.iterrows():
        if trip_id not in trips.index or row.departure_time != row.departure_time:  # NaN
            skipped += 1
            continue
        trip = trips.loc[trip_id]
        kinds = days.get(trip.service_id, set())
        if not kinds:
            skipped += 1
            continue
        for kind in kinds:
            out[trip.route_id][kind].append(int(row.departure_time) // 60)
    return {r: {k: sorted(v) for k, v in d.items()} for r, d in out.items()}, skipped


def _patterns(feed: Any, days: dict[str, set[str]]) -> dict[str, list[dict[str, Any]]]:
    """Each route's stop patterns with the minutes each trip passes each stop, per day type:
    `[{"coords": [[lon, lat], …], "days": {"weekday": [[m0, m1, …], …]}}]` — trips of
    frequencies.txt expanded by their headways — so a check can interpolate when a bus passes any
    point of its way (Maricá art. 4, § 2º), not only when it leaves."""
    stops = feed.stops.set_index("stop_id")
    trips = feed.trips.set_index("trip_id")
    frequencies: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    table = getattr(feed, "frequencies", None)
    if table is not None and not table.empty:
        for row in table.itertuples(index=False):
            if int(row.headway_secs) > 0:
                frequencies[str(row.trip_id)].append(
                    (int(row.start_time), int(row.end_time), int(row.headway_secs))
                )
    out: dict[str, dict[tuple[str, ...], dict[str, Any]]] = defaultdict(dict)
    ordered = feed.stop_times.sort_values(["trip_id", "stop_sequence"])
    for trip_id, group in ordered.groupby("trip_id", sort=False):
        if trip_id not in trips.index:
            continue
        trip = trips.loc[trip_id]
        kinds = days.get(trip.service_id, set())
        seconds = [t if t == t else d for t, d in zip(group.arrival_time, group.departure_time, strict=True)]
        if not kinds or any(t != t for t in seconds) or len(seconds) < 2:  # NaN: times not given
            continue
        ids = tuple(str(x) for x in group.stop_id)
        if any(i not in stops.index for i in ids):
            continue
        pattern = out[trip.route_id].setdefault(
            ids,
            {
                "coords": [[float(stops.at[i, "stop_lon"]), float(stops.at[i, "stop_lat"])] for i in ids],
                "days": defaultdict(list),
            },
        )
        first = int(seconds[0])
        starts = [first]
        for start, end, headway in frequencies.get(str(trip_id), []):
            starts = list(range(start, end, headway))
        for begin in starts:
            minutes = [int(begin + (int(t) - first)) // 60 for t in seconds]
            for kind in kinds:
                pattern["days"][kind].append(minutes)
    return {
        route: [
            {"coords": p["coords"], "days": {k: sorted(v) for k, v in p["days"].items()}}
            for p in found.values()
        ]
        for route, found in out.items()
    }


def _shapes(feed: Any) -> dict[str, list[list[float]]]:
    shapes = feed.shapes
    if shapes is None or shapes.empty:
        return {}
    out: dict[str, list[list[float]]] = {}
    for shape_id, group in shapes.sort_values(["shape_id", "shape_pt_sequence"]).groupby("shape_id"):
        out[str(shape_id)] = [
            [float(x), float(y)] for x, y in zip(group.shape_pt_lon, group.shape_pt_lat, strict=True)
        ]
    return out


def _route_geometry(feed: Any, shapes: dict[str, list[list[float]]]) -> dict[str, list[list[list[float]]]]:
    """Each route's distinct shapes; from the stops of its longest trip where it has none."""
    out: dict[str, list[list[list[float]]]] = defaultdict(list)
    trips = feed.trips
    if "shape_id" in trips.columns:
        for route_id, shape_id in trips[["route_id", "shape_id"]].drop_duplicates().itertuples(index=False):
            if isinstance(shape_id, str) and shape_id in shapes:
                out[route_id].append(shapes[shape_id])
    stops = feed.stops.set_index("stop_id")
    counts = feed.stop_times.groupby("trip_id").size()
    for route_id, group in trips.groupby("route_id"):
        if out.get(route_id):
            continue
        longest = counts.reindex(group.trip_id).idxmax()
        seq = feed.stop_times[feed.stop_times.trip_id == longest].sort_values("stop_sequence")
        coords = [[float(stops.at[s, "stop_lon"]), float(stops.at[s, "stop_lat"])] for s in seq.stop_id]
        if len(coords) >= 2:
            out[route_id].append(coords)
    return out


@transaction.atomic
def import_network(
    *, actor: Any, jurisdiction: Jurisdiction, path: Path, source_name: str, reason: str
) -> BusNetwork:
    """Read a bus GTFS and make it the jurisdiction's current network (the old one stays, unused)."""
    with tempfile.TemporaryDirectory() as folder:
        feed = _feed(path, Path(folder), source_name)
        try:  # partridge reads each file when first asked: a malformed one fails here
            days = _day_types(feed)
            departures, skipped = _departures(feed, days)
            patterns = _patterns(feed, days)
            geometry = _route_geometry(feed, _shapes(feed))
            for table in (
                "routes",
                "stops",
                "trips",
                "stop_times",
                "shapes",
                "calendar",
                "feed_info",
                "frequencies",
            ):
                getattr(feed, table)  # read now, while the unpacked files exist
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as error:
            raise ValidationError(
                f"O GTFS enviado tem um arquivo malformado ({error}): nada foi importado."
            ) from error
    route_stops: dict[str, set[str]] = defaultdict(set)
    trip_route = dict(zip(feed.trips.trip_id, feed.trips.route_id, strict=True))
    for trip_id, stop_id in zip(feed.stop_times.trip_id, feed.stop_times.stop_id, strict=True):
        route_stops[stop_id].add(trip_route.get(trip_id, ""))
    version = ""
    info = getattr(feed, "feed_info", None)
    if info is not None and not info.empty and "feed_version" in info.columns:
        version = str(info.feed_version.iloc[0] or "")
    BusNetwork.unscoped.filter(jurisdiction=jurisdiction, current=True).update(current=False)
    network = BusNetwork.unscoped.create(
        jurisdiction=jurisdiction,
        source_name=source_name[:200],
        feed_version=version[:100],
        imported_on=timezone.localdate(),
        report={},
    )
    routes = [
        BusRoute(
            jurisdiction=jurisdiction,
            network=network,
            route_id=str(r.route_id),
            short_name=str(getattr(r, "route_short_name", "") or "")[:60],
            long_name=str(getattr(r, "route_long_name", "") or "")[:200],
            shapes=geometry.get(r.route_id, []),
            departures=departures.get(r.route_id, {}),
            patterns=patterns.get(r.route_id, []),
        )
        for r in feed.routes.itertuples(index=False)
    ]
    BusRoute.unscoped.bulk_create(routes, batch_size=500)
    stops = [
        BusStop(
            jurisdiction=jurisdiction,
            network=network,
            stop_id=str(s.stop_id),
            name=str(getattr(s, "stop_name", "") or "")[:200],
            lat=float(s.stop_lat),
            lon=float(s.stop_lon),
            route_ids=sorted(r for r in route_stops.get(s.stop_id, set()) if r),
        )
        for s in feed.stops.itertuples(index=False)
        if s.stop_lat == s.stop_lat and s.stop_lon == s.stop_lon  # not NaN (stations without place)
    ]
    BusStop.unscoped.bulk_create(stops, batch_size=1000)
    network.report = _report(feed, routes, stops, days, skipped)
    network.save(update_fields=["report"])
    record(actor=actor, action="bus_network.imported", instance=network, reason=reason, after=network.report)
    return network


def _report(
    feed: Any, routes: list[BusRoute], stops: list[BusStop], days: dict[str, set[str]], skipped: int
) -> dict[str, Any]:
    without_shape = [r.short_name or r.route_id for r in routes if not r.shapes]
    warnings = []
    if skipped:
        warnings.append(
            f"{skipped} viagens sem calendário semanal (calendar.txt) não entram na comparação de horários."
        )
    if without_shape:
        warnings.append(f"Linhas sem traçado nem paradas suficientes: {', '.join(without_shape[:20])}.")
    if feed.shapes is None or feed.shapes.empty:
        warnings.append("O GTFS não tem shapes.txt: os traçados foram desenhados pela sequência das paradas.")
    return {
        "routes": len(routes),
        "stops": len(stops),
        "trips": len(feed.trips),
        "stop_times": len(feed.stop_times),
        "services": len(days),
        "warnings": warnings,
    }


def current_network(code: str) -> BusNetwork | None:
    return BusNetwork.unscoped.filter(jurisdiction_id=code, current=True).order_by("-id").first()


def network_for(code: str) -> Network | None:
    """The current bus network in the shape the checks want, or None when none was imported."""
    network = current_network(code)
    if network is None:
        return None
    routes, patterns = [], {}
    for r in BusRoute.unscoped.filter(network=network).only(
        "route_id", "short_name", "long_name", "shapes", "departures", "patterns"
    ):
        routes.append((r.route_id, str(r), r.shapes, r.departures))
        patterns[r.route_id] = r.patterns
    stops = [(s.name, s.lon, s.lat, s.route_ids) for s in BusStop.unscoped.filter(network=network)]
    return Network(routes=routes, stops=stops, patterns=patterns)


def import_upload(*, actor: Any, jurisdiction: Jurisdiction, upload: Any, reason: str) -> BusNetwork:
    """An uploaded file (a Django UploadedFile) through a temporary file."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "gtfs.zip"
        with path.open("wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
        return import_network(
            actor=actor, jurisdiction=jurisdiction, path=path, source_name=upload.name, reason=reason
        )
