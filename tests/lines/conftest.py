"""Helpers for the lines tests: jurisdictions, lines with an approved version, permits, a bus GTFS.

Coordinates are real places' neighbourhoods (Recife, Cabo, Esteio, Maricá); distances in the
scenarios are laid out in metres with `east(lon, lat, metres)`.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import zipfile
from pathlib import Path
from typing import Any

import pytest

from lotacao.core.sample_ids import sample_cpf

_seq = itertools.count(1)
ORIGIN = {
    "recife": (-34.900, -8.050),
    "cabo": (-35.030, -8.290),
    "esteio": (-51.180, -29.860),
    "marica": (-42.820, -22.920),
    "pernambuco": (-34.900, -8.060),
}
NAMES = {
    "recife": "Recife",
    "cabo": "Cabo de Santo Agostinho",
    "esteio": "Esteio",
    "marica": "Maricá",
    "pernambuco": "Pernambuco",
}


def east(lon: float, lat: float, metres: float) -> float:
    """The longitude `metres` east of (lon, lat)."""
    return lon + metres / (111_320 * math.cos(math.radians(lat)))


def jurisdiction(code: str) -> Any:
    from lotacao.core.models import Jurisdiction
    from lotacao.law.packs import get_pack

    pack = get_pack(code)
    found, _ = Jurisdiction.objects.get_or_create(
        code=code,
        defaults={
            "name": NAMES[code],
            "official_name": f"Órgão gestor de {NAMES[code]}",
            "state": pack.state,
            "timezone": pack.timezone,
        },
    )
    return found


def straight(code: str, metres: float = 2000) -> list[list[float]]:
    lon, lat = ORIGIN[code]
    return [[lon, lat], [east(lon, lat, metres / 2), lat], [east(lon, lat, metres), lat]]


def new_line(code: str, line_code: str | None = None) -> Any:
    from lotacao.registry import services

    return services.create_line(
        actor=None,
        jurisdiction=jurisdiction(code),
        code=line_code or f"T-{next(_seq)}",
        name="Linha de teste",
        reason="teste",
    )


def version_kwargs(code: str, **over: Any) -> dict[str, Any]:
    itinerary = over.pop("itinerary", None) or straight(code)
    data: dict[str, Any] = {
        "shape": "local",
        "grounds": ["geographic"] if code in ("recife", "marica") else [],
        "region": "Centro" if code == "marica" else "",
        "origin": "Bairro",
        "destination": "Centro",
        "itinerary": itinerary,
        "stops": [
            {"name": "Terminal Bairro", "lat": itinerary[0][1], "lon": itinerary[0][0], "kind": "terminal"},
            {"name": "Terminal Centro", "lat": itinerary[-1][1], "lon": itinerary[-1][0], "kind": "terminal"},
        ],
        "study": "Estudo de viabilidade nº 1/2025",
        "reason": "teste",
    }
    data.update(over)
    return data


def resolution_if_gated(code: str, gate: str, on: dt.date) -> Any:
    from lotacao.councils.testing import resolution_if_gated as make

    return make(code, gate, on)


def approved_line(code: str, valid_from: dt.date = dt.date(2025, 1, 1), **over: Any) -> Any:
    from lotacao.lines import services

    line = new_line(code)
    version = services.draft_version(actor=None, line=line, on=valid_from, **version_kwargs(code, **over))
    services.approve_version(
        actor=None,
        version=version,
        act="Ato nº 1/2025",
        approved_on=valid_from,
        valid_from=valid_from,
        reason="teste",
        resolution=resolution_if_gated(code, "line.create", valid_from),
    )
    return line


def agency_value(code: str, parameter: str, value: Any, since: dt.date = dt.date(2000, 1, 1)) -> None:
    from lotacao.core.law import pack_for
    from lotacao.web.agency_values import set_agency_value

    since = max(since, pack_for(code).start)
    set_agency_value(
        actor=None,
        jurisdiction=jurisdiction(code),
        parameter=parameter,
        valid_from=since,
        value=value,
        cite="Portaria de teste",
        reason="teste",
    )


def permit(code: str, line: Any = None, status: str = "active") -> Any:
    from lotacao.permits.models import Permit
    from lotacao.registry import services

    n = next(_seq)
    j = jurisdiction(code)
    person = services.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(300_000_000 + n),
        full_name=f"Permissionário {n}",
        reason="teste",
    )
    holder = services.register_holder(actor=None, person=person, reason="teste")
    vehicle = services.create_vehicle(
        actor=None,
        jurisdiction=j,
        plate=f"TST{n % 10}A{n % 100:02d}",
        manufacture_year=2022,
        category="van",
        seats=16,
        doors=4,
        holder=holder,
        reason="teste",
    )
    return Permit.objects.create(
        jurisdiction=j,
        holder=holder,
        line=line,
        vehicle=vehicle,
        status=status,
        number=f"{n:04d}/2025",
        applied_on=dt.date(2024, 12, 1),
        granted_on=dt.date(2025, 1, 1),
        valid_until=dt.date(2030, 12, 31),
    )


def bus_gtfs(folder: Path, routes: list[dict[str, Any]], name: str = "onibus.zip") -> Path:
    """A small bus GTFS: each route {id, name, shape: [[lon, lat]...], stops: [[lon, lat]...],
    departures: {"weekday": ["07:00", ...]}}."""
    tables: dict[str, list[str]] = {
        "agency.txt": [
            "agency_id,agency_name,agency_url,agency_timezone",
            "BUS,Ônibus,https://onibus.example.org,America/Sao_Paulo",
        ],
        "routes.txt": ["route_id,agency_id,route_short_name,route_long_name,route_type"],
        "stops.txt": ["stop_id,stop_name,stop_lat,stop_lon"],
        "trips.txt": ["route_id,service_id,trip_id,shape_id"],
        "stop_times.txt": ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"],
        "calendar.txt": [
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
            "WK,1,1,1,1,1,0,0,20240101,20301231",
            "SA,0,0,0,0,0,1,0,20240101,20301231",
            "SU,0,0,0,0,0,0,1,20240101,20301231",
        ],
        "shapes.txt": ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence"],
    }
    services = {"weekday": "WK", "saturday": "SA", "sunday": "SU"}
    for r in routes:
        rid = r["id"]
        tables["routes.txt"].append(f"{rid},BUS,{rid},{r.get('name', rid)},3")
        for n, (lon, lat) in enumerate(r["shape"], start=1):
            tables["shapes.txt"].append(f"SH{rid},{lat},{lon},{n}")
        for n, (lon, lat) in enumerate(r["stops"], start=1):
            tables["stops.txt"].append(f"{rid}-S{n},Parada {n} da {rid},{lat},{lon}")
        for kind, times in r.get("departures", {}).items():
            for t in times:
                trip = f"{rid}-{kind}-{t.replace(':', '')}"
                tables["trips.txt"].append(f"{rid},{services[kind]},{trip},SH{rid}")
                h, m = (int(x) for x in t.split(":"))
                for n, _ in enumerate(r["stops"], start=1):
                    clock = f"{h + (m + 5 * (n - 1)) // 60:02d}:{(m + 5 * (n - 1)) % 60:02d}:00"
                    tables["stop_times.txt"].append(f"{trip},{clock},{clock},{rid}-S{n},{n}")
    path = folder / name
    with zipfile.ZipFile(path, "w") as archive:
        for file, rows in tables.items():
            archive.writestr(file, "\n".join(rows) + "\n")
    return path


def import_bus(code: str, folder: Path, routes: list[dict[str, Any]]) -> Any:
    from lotacao.lines.busnet import import_network

    return import_network(
        actor=None,
        jurisdiction=jurisdiction(code),
        path=bus_gtfs(folder, routes),
        source_name="onibus.zip",
        reason="teste",
    )


@pytest.fixture
def lines_db(db: Any) -> None:
    """The database, with the layered packs forgotten between tests (agency values change them)."""
    from lotacao.core import law

    law._CACHE.clear()
    yield
    law._CACHE.clear()
