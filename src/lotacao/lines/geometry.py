"""Geometry in metres: itineraries and stops projected from WGS 84 (lon, lat) to SIRGAS 2000 / UTM.

Brazil's official datum is SIRGAS 2000; its UTM zones (EPSG:31978–31985, south) give distances in
metres with a scale error under 0.1 % inside a municipality. The zone is chosen from the
geometry's longitude (Recife and Cabo: 25S, Maricá: 23S, Esteio: 22S), so no jurisdiction is
named here. shapely does the geometry; pyproj the projection.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from pyproj import Transformer
from shapely import LineString, MultiLineString, Point
from shapely.ops import unary_union

Coords = Sequence[Sequence[float]]  # [[lon, lat], ...]


def utm_epsg(lon: float) -> int:
    """The SIRGAS 2000 / UTM south zone's EPSG code for a longitude."""
    zone = int((lon + 180) // 6) + 1
    return 31960 + zone


@lru_cache(maxsize=16)
def _transformer(epsg: int) -> Transformer:
    return Transformer.from_crs("EPSG:4326", f"EPSG:{epsg}", always_xy=True)


@dataclass(frozen=True)
class Projection:
    epsg: int

    @classmethod
    def around(cls, coords: Coords) -> Projection:
        lons = [float(c[0]) for c in coords] or [-35.0]
        return cls(utm_epsg(sum(lons) / len(lons)))

    def line(self, coords: Coords) -> LineString:
        tf = _transformer(self.epsg)
        xy = np.asarray([(c[0], c[1]) for c in coords], dtype=float)
        x, y = tf.transform(xy[:, 0], xy[:, 1])
        return LineString(np.column_stack([x, y]))

    def point(self, lon: float, lat: float) -> Point:
        x, y = _transformer(self.epsg).transform(lon, lat)
        return Point(x, y)


def valid_itinerary(coords: object) -> list[list[float]]:
    """The itinerary as [[lon, lat], ...] with at least two distinct points, or ValueError."""
    if not isinstance(coords, list) or len(coords) < 2:
        raise ValueError("O itinerário precisa de pelo menos dois pontos.")
    out: list[list[float]] = []
    for point in coords:
        if not isinstance(point, (list, tuple)) or len(point) != 2:
            raise ValueError("Cada ponto do itinerário deve ter longitude e latitude.")
        lon, lat = float(point[0]), float(point[1])
        if not (-180 <= lon <= 180 and -90 <= lat <= 90):
            raise ValueError(f"Coordenada fora do globo: {lat:.6f}, {lon:.6f}.")
        out.append([round(lon, 7), round(lat, 7)])
    if len({tuple(p) for p in out}) < 2:
        raise ValueError("O itinerário precisa de pelo menos dois pontos distintos.")
    return out


def length_m(coords: Coords) -> float:
    projection = Projection.around(coords)
    return float(projection.line(coords).length)


@dataclass(frozen=True)
class Overlap:
    """A bus route whose itinerary shares at least `min_length` metres with the line's."""

    route_id: str
    label: str
    shared_m: float
    stretch: object  # the shared part of the line (projected shapely geometry)


def overlaps(
    itinerary: Coords,
    routes: Iterable[tuple[str, str, list[Coords]]],
    *,
    buffer_m: float,
    min_length_m: float,
) -> list[Overlap]:
    """The bus routes (id, label, shapes) whose shapes run within `buffer_m` of the itinerary for at
    least `min_length_m` metres, with the shared stretch of the line."""
    projection = Projection.around(itinerary)
    line = projection.line(itinerary)
    found: list[Overlap] = []
    for route_id, label, shapes in routes:
        lines = [projection.line(s) for s in shapes if len(s) >= 2]
        if not lines:
            continue
        corridor = unary_union([g.buffer(buffer_m) for g in lines])
        shared = line.intersection(corridor)
        if shared.is_empty or shared.length < min_length_m:
            continue
        found.append(Overlap(route_id, label, float(shared.length), shared))
    return found


def near_stretch(
    projection: Projection, lon: float, lat: float, stretches: list[object], within: float
) -> bool:
    point = projection.point(lon, lat)
    return any(point.distance(s) <= within for s in stretches)


def nearest_m(
    projection: Projection, lon: float, lat: float, others: Iterable[tuple[float, float]]
) -> float | None:
    """Distance in metres from (lon, lat) to the nearest of `others` (lon, lat pairs)."""
    point = projection.point(lon, lat)
    best: float | None = None
    for olon, olat in others:
        d = float(point.distance(projection.point(olon, olat)))
        if best is None or d < best:
            best = d
    return best


def as_multiline(shapes: list[Coords]) -> MultiLineString:
    return MultiLineString([[(c[0], c[1]) for c in s] for s in shapes if len(s) >= 2])


@dataclass(frozen=True)
class RoadShare:
    """How much of an itinerary runs on the bus network's roads: in all, and per bus route."""

    line_m: float
    shared_m: float
    routes: list[tuple[str, float]]  # (label, metres shared with that route), longest first

    @property
    def share(self) -> float:
        return self.shared_m / self.line_m if self.line_m else 0.0


def road_share(
    itinerary: Coords, routes: Iterable[tuple[str, str, list[Coords]]], *, buffer_m: float
) -> RoadShare:
    """The length of the itinerary within `buffer_m` of any bus route's shape (counted once where
    several routes share a road), and per route."""
    projection = Projection.around(itinerary)
    line = projection.line(itinerary)
    corridors = []
    per_route: list[tuple[str, float]] = []
    for _route_id, label, shapes in routes:
        lines = [projection.line(s) for s in shapes if len(s) >= 2]
        if not lines:
            continue
        corridor = unary_union([g.buffer(buffer_m) for g in lines])
        shared = float(line.intersection(corridor).length)
        if shared > 0:
            per_route.append((label, shared))
            corridors.append(corridor)
    total = float(line.intersection(unary_union(corridors)).length) if corridors else 0.0
    per_route.sort(key=lambda item: -item[1])
    return RoadShare(float(line.length), total, per_route)


def stretch_entry_m(itinerary: Coords, stretch: object) -> float:
    """How far along the itinerary (metres) the shared stretch begins."""
    projection = Projection.around(itinerary)
    line = projection.line(itinerary)
    parts = list(getattr(stretch, "geoms", [stretch]))
    return min(float(line.project(Point(part.coords[0]))) for part in parts if not part.is_empty)


def passing_minutes(
    itinerary: Coords,
    at_m: float,
    pattern: Sequence[Sequence[float]],
    trips: Iterable[Sequence[int]],
    within_m: float,
) -> list[int]:
    """The minutes each trip of a bus stop pattern passes the point `at_m` metres along the
    itinerary, interpolated by distance between the two stops around it; [] when the pattern does
    not pass within `within_m` of that point."""
    projection = Projection.around(itinerary)
    point = projection.line(itinerary).interpolate(at_m)
    way = projection.line(pattern)
    if float(way.distance(point)) > within_m:
        return []
    along = float(way.project(point))
    stops = [float(way.project(projection.point(lon, lat))) for lon, lat in pattern]
    out = []
    for times in trips:
        for i in range(len(stops) - 1):
            a, b = stops[i], stops[i + 1]
            if a <= along <= b:
                share = (along - a) / (b - a) if b > a else 0.0
                out.append(round(times[i] + (times[i + 1] - times[i]) * share))
                break
    return sorted(out)
