"""The line maps. By default no third party is asked for anything: the public line page draws the
itinerary and its stops as an SVG on a plain background, computed here from the geometry (projected
to metres with `geometry.Projection`, simplified with shapely). Only when the agency configures its
own tile server (LOTACAO_MAP_TILES, default empty) does the page load Leaflet (our own static files)
with tiles from that server; the staff editor always uses Leaflet (clicks on a blank ground when no
tiles are configured).

The Content-Security-Policy allows images from our own origin only; a page with a map adds the
tile server's origin to `img-src` for that response alone (django-csp's per-response update).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

SVG_WIDTH = 360  # the drawing's own units; it scales to the phone's width (viewBox)
SVG_MARGIN = 18


def tiles() -> dict[str, str]:
    return {
        "tiles": str(getattr(settings, "LOTACAO_MAP_TILES", "")),
        "attribution": str(getattr(settings, "LOTACAO_MAP_ATTRIBUTION", "")),
    }


def tile_origin() -> str | None:
    url = tiles()["tiles"]
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None  # a relative template: served by our own origin
    host = parts.netloc.replace("{s}", "*")
    return f"{parts.scheme}://{host}"


def allow_tiles(response: HttpResponse) -> HttpResponse:
    origin = tile_origin()
    if origin:
        response._csp_update = {"img-src": [origin]}  # type: ignore[attr-defined]
    return response


def map_data(version: Any, stops: list[Any] | None = None) -> dict[str, Any]:
    """What the map script draws: the itinerary and the stops ([lat, lon] for Leaflet)."""
    if version is None:
        return {"itinerary": [], "stops": []}
    itinerary = version["itinerary"] if isinstance(version, dict) else version.itinerary
    stop_rows = stops if stops is not None else []
    return {
        "itinerary": [[lat, lon] for lon, lat in itinerary],
        "stops": [
            {
                "name": s["name"] if isinstance(s, dict) else s.name,
                "lat": s["lat"] if isinstance(s, dict) else s.lat,
                "lon": s["lon"] if isinstance(s, dict) else s.lon,
                "kind": s.get("kind", "stop") if isinstance(s, dict) else s.kind,
            }
            for s in stop_rows
        ],
    }


def center(code: str) -> tuple[float, float] | None:
    """Where to open an empty map: the jurisdiction's bus stops, or its lines (lat, lon)."""
    from django.db.models import Avg

    from lotacao.lines.models import BusNetwork, BusStop, Stop

    network = BusNetwork.unscoped.filter(jurisdiction_id=code, current=True).order_by("-id").first()
    rows = (
        BusStop.unscoped.filter(network=network)
        if network is not None
        else Stop.unscoped.filter(jurisdiction_id=code)
    )
    mean = rows.aggregate(lat=Avg("lat"), lon=Avg("lon"))
    if mean["lat"] is None:
        return None
    return float(mean["lat"]), float(mean["lon"])


def svg(itinerary: list[list[float]], stops: list[Any], label: str) -> SafeString:
    """The itinerary ([[lon, lat], ...]) and its stops drawn on a plain background: north up, the
    scale true in both axes (metres, SIRGAS 2000 / UTM), terminals larger, each stop numbered as
    in the list beside it. A static image (role img, with a title and a description)."""
    from lotacao.lines.geometry import Projection

    if len(itinerary) < 2:
        return SafeString("")
    projection = Projection.around(itinerary)
    path = projection.line(itinerary).simplify(2.0)
    points = [projection.point(_get(s, "lon"), _get(s, "lat")) for s in stops]
    xs = [x for x, _y in path.coords] + [p.x for p in points]
    ys = [y for _x, y in path.coords] + [p.y for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    scale = (SVG_WIDTH - 2 * SVG_MARGIN) / span
    height = round((max(ys) - min(ys)) * scale + 2 * SVG_MARGIN)
    width = round((max(xs) - min(xs)) * scale + 2 * SVG_MARGIN)
    left, top = min(xs), max(ys)

    def xy(x: float, y: float) -> tuple[str, str]:
        return f"{(x - left) * scale + SVG_MARGIN:.1f}", f"{(top - y) * scale + SVG_MARGIN:.1f}"

    line = " ".join(",".join(xy(x, y)) for x, y in path.coords)
    marks = format_html_join(
        "",
        '<g class="stop{}"><circle cx="{}" cy="{}" r="{}"><title>{}. {}</title></circle>'
        '<text x="{}" y="{}" aria-hidden="true">{}</text></g>',
        (
            (
                " terminal" if _get(s, "kind") in ("terminal", "Terminal") else "",
                *xy(p.x, p.y),
                7 if _get(s, "kind") in ("terminal", "Terminal") else 5,
                n,
                _get(s, "name"),
                f"{float(xy(p.x, p.y)[0]) + 9:.1f}",
                f"{float(xy(p.x, p.y)[1]) - 7:.1f}",
                n,
            )
            for n, (s, p) in enumerate(zip(stops, points, strict=True), start=1)
        ),
    )
    length_km = projection.line(itinerary).length / 1000
    return format_html(
        '<svg class="line-svg" viewBox="0 0 {} {}" role="img" aria-labelledby="line-svg-title line-svg-desc" '
        'xmlns="http://www.w3.org/2000/svg"><title id="line-svg-title">{}</title>'
        '<desc id="line-svg-desc">Itinerário de {} km com {} paradas, numeradas como na lista.</desc>'
        '<rect width="100%" height="100%" class="ground"/><polyline points="{}" class="path"/>{}</svg>',
        max(width, 40),
        max(height, 40),
        label,
        f"{length_km:.1f}".replace(".", ","),
        len(stops),
        line,
        marks,
    )


def _get(item: Any, key: str) -> Any:
    return item[key] if isinstance(item, dict) else getattr(item, key)
