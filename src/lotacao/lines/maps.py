"""The line maps: Leaflet from our own static files, tiles from the server in LOTACAO_MAP_TILES.

The Content-Security-Policy allows images from our own origin only; a page with a map adds the
tile server's origin to `img-src` for that response alone (django-csp's per-response update).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse


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
