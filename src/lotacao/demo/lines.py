"""Demo lines: in each municipal jurisdiction, the two demo lines with an itinerary, stops and a
service order in force, one more line drafted and waiting for its approving act, a bus GTFS of a
few routes to check against, and the live permits' places. Idempotent (a line with versions is
left as it is). Pernambuco's chartering has no lines.

The layouts respect each law's checks: in Cabo a van stop stands 20 m from the bus stop where the
itinerary overlaps a bus line (art. 17, p.ú.); in Maricá the vans pass the shared stretch 20
minutes from the bus's passing times (art. 4, § 2º); in Recife a night line runs 22:00–04:00 (art. 1, § 3º).
Cabo's and Maricá's texts leave open when two itineraries overlap, and Maricá's regions: the demo
records them as the agency's values ("Portaria de demonstração").
"""

from __future__ import annotations

import datetime as dt
import math
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.demo import councils as demo_councils
from lotacao.demo.base import REASON
from lotacao.lines import busnet, places, selectors, services
from lotacao.lines import law as lines_law
from lotacao.lines.models import BusNetwork, LineVersion, Place
from lotacao.permits.models import Permit
from lotacao.registry import services as registry
from lotacao.registry.models import Line

Point = tuple[float, float]  # (lon, lat)

# Two end points (lon, lat) of each demo line, and of the drafted one.
PATHS: dict[str, dict[str, tuple[Point, Point]]] = {
    "recife": {
        "L-101": ((-34.9177, -8.0265), (-34.8990, -8.0570)),
        "L-205": ((-34.9410, -8.1200), (-34.8990, -8.0570)),  # to the Derby terminal of L-101
        "L-300": ((-34.9560, -8.0900), (-34.9050, -8.0750)),
    },
    "cabo": {
        "C-01": ((-35.0070, -8.2150), (-35.0320, -8.2850)),
        "C-02": ((-34.9530, -8.3330), (-35.0320, -8.2850)),  # the same Centro terminal
        "C-03": ((-35.0600, -8.2500), (-35.0330, -8.2840)),
    },
    "esteio": {
        "A-1": ((-51.1790, -29.8530), (-51.1600, -29.8420)),
        "A-2": ((-51.1790, -29.8530), (-51.1650, -29.8700)),
        "A-3": ((-51.1950, -29.8450), (-51.1790, -29.8530)),
    },
    "marica": {
        "M-10": ((-42.9700, -22.9600), (-42.8190, -22.9190)),
        "M-20": ((-42.6900, -22.9550), (-42.8190, -22.9190)),  # the same Centro terminal
        "M-30": ((-42.8800, -22.8900), (-42.8200, -22.9180)),
    },
}
# A terminal two lines share bears one name (the GTFS publishes it as one station).
TERMINAL_NAMES: dict[Point, str] = {(-34.8990, -8.0570): "Terminal Derby"}
DRAFT = {"recife": "L-300", "cabo": "C-03", "esteio": "A-3", "marica": "M-30"}
DRAFT_NAMES = {
    "L-300": "Jardim São Paulo — Afogados",
    "C-03": "Charnequinha — Centro",
    "A-3": "Autolotação Vila Pedreira — Centro",
    "M-30": "Inoã — Centro",
}
REGIONS = {"M-10": "Itaipuaçu", "M-20": "Ponta Negra", "M-30": "Inoã"}
# Each demo line's three stops between its terminals, named as the city names those places
# (a market, an avenue, a square), in the order the line runs from its origin.
STOP_NAMES: dict[str, tuple[str, str, str]] = {
    "L-101": ("Mercado de Casa Amarela", "Estrada do Arraial", "Praça do Derby"),
    "L-205": ("UR-1 do Ibura", "Avenida Mascarenhas de Morais", "Rua da Imperatriz"),
    "L-300": ("Praça do Jardim São Paulo", "Avenida Recife", "Mercado de Afogados"),
    "C-01": ("Mercado de Ponte dos Carvalhos", "BR-101, Charneca", "Praça da Matriz do Cabo"),
    "C-02": ("Praia de Gaibu", "PE-028, Enseada dos Corais", "Praça da Matriz do Cabo"),
    "C-03": ("Escola de Charnequinha", "Avenida Presidente Vargas", "Praça da Matriz do Cabo"),
    "A-1": ("Estação Esteio do Trensurb", "Avenida Presidente Vargas", "Praça do Parque Amador"),
    "A-2": ("Estação Esteio do Trensurb", "Avenida Padre Claret", "Escola do Novo Esteio"),
    "A-3": ("Praça da Vila Pedreira", "Avenida Padre Claret", "Estação Esteio do Trensurb"),
    "M-10": (
        "Avenida Carlos Marighella",
        "Rodovia Amaral Peixoto, Flamengo",
        "Praça Orlando de Barros Pimentel",
    ),
    "M-20": ("Farol de Ponta Negra", "Rodovia Amaral Peixoto, Bambuí", "Praça Orlando de Barros Pimentel"),
    "M-30": ("Mercado de Inoã", "Rodovia Amaral Peixoto, Inoã", "Praça Orlando de Barros Pimentel"),
}


# The bus network's three routes in each city (the GTFS the lines are checked against).
BUS_ROUTE_NAMES: dict[str, tuple[str, str, str]] = {
    "recife": (
        "Derby — Terminal Integrado Joana Bezerra",
        "Ibura — Shopping Recife",
        "Circular da Boa Vista",
    ),
    "cabo": (
        "Centro — Terminal Integrado do Cabo",
        "Gaibu — Ponte dos Carvalhos",
        "Circular do Centro do Cabo",
    ),
    "esteio": ("Centro — Estação Esteio", "Novo Esteio — Parque Amador", "Circular do Centro de Esteio"),
    "marica": ("Centro — Itaipuaçu pela RJ-106", "Ponta Negra — Centro", "Circular do Centro de Maricá"),
}


def ends_of(line: Line) -> tuple[str, str]:
    """The line's origin and destination: its own, or read from its name ("Jardim São Paulo —
    Afogados"; Esteio's "Autolotação Vila Pedreira — Centro")."""
    if line.origin and line.destination:
        return line.origin, line.destination
    first, _, last = line.name.removeprefix("Autolotação ").partition(" — ")
    return line.origin or first.strip(), line.destination or last.strip()


# The municipal holidays (the laws fix none) and the open data's contact are the agency's values.
AGENCY_VALUES: dict[str, dict[str, Any]] = {
    "recife": {
        "calendar.municipal_holidays": ["07-16", "12-08"],  # N. Sra. do Carmo, N. Sra. da Conceição
        "gtfs.contact_email": "dados@recife.example.org",
        "fare.benefits": ["elderly_free", "disabled_free", "school_pass", "transit_voucher"],
    },
    "cabo": {
        "lines.shared_stretch": {"buffer_m": 25, "min_length_m": 300},
        "calendar.municipal_holidays": ["07-09"],  # emancipação política (demonstração)
        "gtfs.contact_email": "dados@cabo.example.org",
    },
    "esteio": {
        "calendar.municipal_holidays": ["08-15"],  # padroeira (demonstração)
        "gtfs.contact_email": "dados@esteio.example.org",
        "fare.benefits": ["over_65_free", "school_pass"],
    },
    "marica": {
        "lines.shared_stretch": {"buffer_m": 25, "min_length_m": 300},
        "lines.regions": ["Centro", "Itaipuaçu", "Inoã", "Ponta Negra", "São José do Imbassaí"],
        "calendar.municipal_holidays": ["05-26"],  # emancipação política (demonstração)
        "gtfs.contact_email": "dados@marica.example.org",
    },
}
SPEED_KMH = 18  # the demo's commercial speed of a van in town, stops included
# Wheelchair access is recorded for two stops of each line (the first: no; the middle: yes).


def at(a: Point, b: Point, f: float, metres_left: float = 0.0) -> Point:
    """The point a fraction `f` of the way from a to b, moved `metres_left` to the left of it."""
    lon, lat = a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f
    if metres_left:
        dx, dy = (b[0] - a[0]) * math.cos(math.radians(lat)), b[1] - a[1]
        norm = math.hypot(dx, dy) or 1.0
        shift = metres_left / 111_320
        lon += -dy / norm * shift / math.cos(math.radians(lat))
        lat += dx / norm * shift
    return (round(lon, 7), round(lat, 7))


def along(a: Point, b: Point, f: float, metres: float) -> Point:
    """The point `metres` further along a→b than the fraction `f`."""
    length = math.hypot((b[0] - a[0]) * 111_320 * math.cos(math.radians(a[1])), (b[1] - a[1]) * 111_320)
    return at(a, b, f + metres / length)


def load(today: dt.date, summary: Any) -> None:
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        code = jurisdiction.code
        if code not in PATHS or not lines_law.has_lines(code, today):
            continue  # Pernambuco's chartering has no lines
        _agency_values(jurisdiction, today)
        if not BusNetwork.unscoped.filter(jurisdiction=jurisdiction).exists():
            _bus_network(jurisdiction)
            summary.created += 1
        since = dt.date(today.year - 3, 1, 2)
        for line_code, ends in PATHS[code].items():
            line = _line(jurisdiction, line_code)
            if LineVersion.unscoped.filter(line=line).exists():
                summary.existing += 1
                continue
            _version(line, ends, since, approve=line_code != DRAFT[code])
            if line_code != DRAFT[code]:
                _order(line, since, ends)
            summary.created += 1
        _places(jurisdiction, today, summary)


def _agency_values(jurisdiction: Jurisdiction, today: dt.date) -> None:
    from lotacao.web.agency_values import set_agency_value

    for parameter, value in AGENCY_VALUES.get(jurisdiction.code, {}).items():
        if AgencyValue.unscoped.filter(jurisdiction=jurisdiction, parameter=parameter).exists():
            continue
        set_agency_value(
            actor=None,
            jurisdiction=jurisdiction,
            parameter=parameter,
            valid_from=lines_law.pack_start(jurisdiction.code),
            value=value,
            cite="Portaria de demonstração nº 1",
            reason=REASON,
        )


def _line(jurisdiction: Jurisdiction, code: str) -> Line:
    line = Line.unscoped.filter(jurisdiction=jurisdiction, code=code).first()
    if line is not None:
        return line
    return registry.create_line(
        actor=None,
        jurisdiction=jurisdiction,
        code=code,
        name=DRAFT_NAMES[code],
        reason=REASON,
    )


def _version(line: Line, ends: tuple[Point, Point], since: dt.date, *, approve: bool) -> LineVersion:
    a, b = ends
    code = line.jurisdiction_id
    temporal = code == "recife" and line.code == "L-205"  # the demo's night line
    origin, destination = ends_of(line)
    first, middle, last = STOP_NAMES[line.code]
    stops = [
        {"name": TERMINAL_NAMES.get(a, f"Terminal {origin}"), "lon": a[0], "lat": a[1], "kind": "terminal"},
        {"name": first, "lon": at(a, b, 0.15)[0], "lat": at(a, b, 0.15)[1], "wheelchair": "no"},
        {"name": middle, "lon": along(a, b, 0.5, 20)[0], "lat": along(a, b, 0.5, 20)[1], "wheelchair": "yes"},
        {"name": last, "lon": at(a, b, 0.85)[0], "lat": at(a, b, 0.85)[1]},
        {
            "name": TERMINAL_NAMES.get(b, f"Terminal {destination}"),
            "lon": b[0],
            "lat": b[1],
            "kind": "terminal",
        },
    ]
    version = services.draft_version(
        actor=None,
        line=line,
        on=since,
        shape="local",
        grounds=(["temporal"] if temporal else ["geographic"])
        if lines_law.entry(code, "lines.grounds", since)
        else [],
        region=REGIONS.get(line.code, ""),
        origin=origin,
        destination=destination,
        itinerary=[list(a), list(at(a, b, 0.3)), list(at(a, b, 0.7)), list(b)],
        stops=stops,
        study="Estudo técnico de demonstração nº 1",
        reason=REASON,
    )
    if approve:
        rule, _cite = lines_law.approval(code, since)
        gate = "line.create" if version.number == 1 else "line.change"
        services.approve_version(
            actor=None,
            version=version,
            act=f"{rule.get('act', 'Ato')} nº {line.code} (demonstração)",
            approved_on=since,
            valid_from=since,
            reason=REASON,
            resolution=demo_councils.resolution(code, gate, since, f"Criação da linha {line.code}"),
        )
    return version


def trip_minutes(ends: tuple[Point, Point]) -> int:
    """Running time from the itinerary's length at the demo's commercial speed (at least 5 min)."""
    from lotacao.lines.geometry import length_m

    a, b = ends
    metres = length_m([list(a), list(at(a, b, 0.3)), list(at(a, b, 0.7)), list(b)])
    return max(5, round(metres / 1000 / SPEED_KMH * 60))


def _stretch_lag(line: Line, ends: tuple[Point, Point]) -> int:
    """Maricá art. 4, § 2º compares times at the shared stretch: the minutes the van takes from its
    origin to where the demo bus 101 joins it (35 % of the way), so its departures can be set for
    it to pass there 20 minutes from the buses; 0 where the law compares nothing."""
    first = next(iter(PATHS[line.jurisdiction_id]))
    if line.jurisdiction_id != "marica" or line.code != first:
        return 0
    return round(trip_minutes(ends) * 0.35)


def _order(line: Line, since: dt.date, ends: tuple[Point, Point]) -> None:
    night = line.jurisdiction_id == "recife" and line.code == "L-205"
    if night:
        periods = [
            {"day_type": "weekday", "first": 22 * 60, "last": 28 * 60, "headway": 20},
            {"day_type": "saturday", "first": 22 * 60, "last": 28 * 60, "headway": 30},
            {"day_type": "sunday", "first": 6 * 60, "last": 22 * 60, "headway": 30},
            {"day_type": "holiday", "first": 6 * 60, "last": 22 * 60, "headway": 30},
        ]
    else:  # at :20 and :40; in Maricá, at the shared stretch 20 minutes from the buses passing on the hour
        hours = range(6, 21)
        lag = _stretch_lag(line, ends)
        periods = [
            {"day_type": "weekday", "departures": [h * 60 + (m - lag) % 60 for h in hours for m in (20, 40)]},
            {"day_type": "saturday", "departures": [h * 60 + (20 - lag) % 60 for h in hours]},
            {"day_type": "sunday", "departures": [h * 60 + (40 - lag) % 60 for h in range(7, 19, 2)]},
        ]
    label, _cite = lines_law.service_order_label(line.jurisdiction_id, since)
    services.issue_service_order(
        actor=None,
        line=line,
        periods=periods,
        fleet=3,
        trip_minutes=trip_minutes(ends),
        both_directions=True,
        valid_from=since,
        act=f"{label} nº 1 da linha {line.code} (demonstração)",
        terminal_capacity=2,
        reason=REASON,
        resolution=demo_councils.resolution(
            line.jurisdiction_id, "fleet.change", since, f"Frota de 3 veículos na linha {line.code}"
        )
        if services.fleet_changes(line, since, 3, "")
        else None,
    )


def _bus_network(jurisdiction: Jurisdiction) -> None:
    """A bus GTFS of three routes: one runs along the middle of the first demo line (Cabo's stop
    distance and Maricá's departures are checked against it), two elsewhere."""
    first, second, *_ = PATHS[jurisdiction.code].values()
    a, b = first
    names = BUS_ROUTE_NAMES[jurisdiction.code]
    routes = [
        (
            "101",
            names[0],
            [at(a, b, 0.35), at(a, b, 0.5), at(a, b, 0.65)],
            [at(a, b, 0.35), at(a, b, 0.5)],
        ),
        ("202", names[1], [at(*second, 0.0, 400), at(*second, 1.0, 400)], [at(*second, 0.5, 400)]),
        ("303", names[2], [at(a, b, 0.0, 900), at(a, b, 1.0, 900)], [at(a, b, 0.5, 900)]),
    ]
    tables = {
        "agency.txt": [
            "agency_id,agency_name,agency_url,agency_timezone",
            f"BUS,Ônibus de {jurisdiction.name},https://onibus.example.org,America/Sao_Paulo",
        ],
        "routes.txt": ["route_id,agency_id,route_short_name,route_long_name,route_type"],
        "stops.txt": ["stop_id,stop_name,stop_lat,stop_lon"],
        "trips.txt": ["route_id,service_id,trip_id,shape_id"],
        "stop_times.txt": ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"],
        "calendar.txt": [
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
            "WK,1,1,1,1,1,0,0,20200101,20351231",
            "SU,0,0,0,0,0,0,1,20200101,20351231",
        ],
        "shapes.txt": ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence"],
        "feed_info.txt": [
            "feed_publisher_name,feed_publisher_url,feed_lang,feed_version",
            "Demonstração,https://onibus.example.org,pt,demo-1",
        ],
    }
    for rid, name, shape, stops in routes:
        tables["routes.txt"].append(f"{rid},BUS,{rid},{name},3")
        tables["shapes.txt"] += [f"S{rid},{lat},{lon},{n}" for n, (lon, lat) in enumerate(shape, 1)]
        tables["stops.txt"] += [
            f"{rid}-{n},Parada {n} da linha {rid},{lat},{lon}" for n, (lon, lat) in enumerate(stops, 1)
        ]
        for service, hours in (("WK", range(5, 23)), ("SU", range(7, 20, 2))):
            for h in hours:
                trip = f"{rid}-{service}-{h:02d}"
                tables["trips.txt"].append(f"{rid},{service},{trip},S{rid}")
                tables["stop_times.txt"] += [
                    f"{trip},{h:02d}:{5 * (n - 1):02d}:00,{h:02d}:{5 * (n - 1):02d}:00,{rid}-{n},{n}"
                    for n in range(1, len(stops) + 1)
                ]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "onibus.zip"
        with zipfile.ZipFile(path, "w") as archive:
            for name, rows in tables.items():
                archive.writestr(name, "\n".join(rows) + "\n")
        busnet.import_network(
            actor=None,
            jurisdiction=jurisdiction,
            path=path,
            source_name="onibus-demonstracao.zip",
            reason=REASON,
        )


def _places(jurisdiction: Jurisdiction, today: dt.date, summary: Any) -> None:
    """Places of the live permits on their lines; trips recorded for all but one, so the work queue
    shows what each law asks (Maricá's re-award after 30 days, Esteio's unused permit)."""
    live = Permit.unscoped.filter(jurisdiction=jurisdiction, status__in=Permit.LIVE, line__isnull=False)
    for n, permit in enumerate(live.order_by("id")):
        if Place.unscoped.filter(permit=permit).exists():
            summary.existing += 1
            continue
        start = permit.granted_on or today
        if permit.line is None or selectors.version_in_force(permit.line, start) is None:
            continue
        place = places.assign_place(
            actor=None,
            permit=permit,
            line=permit.line,
            starts_on=start,
            act=f"Ato de autorização da permissão {permit.number}",
            reason=REASON,
        )
        if n == 0:  # operates: a first trip at the start and a recent one
            places.record_trips(actor=None, place=place, on=start, reason=REASON)
            places.record_trips(actor=None, place=place, on=today - dt.timedelta(days=3), reason=REASON)
        summary.created += 1
