"""Each law's checks on a line version and a service order, as findings that cite the article.

A `Finding` is an `error` (the law forbids it: the service refuses), `missing` (a value the law
leaves to the agency, or the bus network, is needed to judge: drafts keep it, approval refuses) or
`info` (a measure the law leaves to the approver's judgment, shown with the version).
Pure functions over plain data, so the editor can run them as the clerk types and the services
run the same ones before writing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from lotacao.lines import geometry
from lotacao.lines import law as lines_law
from lotacao.lines.models import DAY_TYPES, GROUND_LABELS, LineVersion, clock


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: str  # "error" | "missing" | "info" (a measure for whoever approves; never refuses)
    message: str
    citation: str = ""

    def text(self) -> str:
        return f"{self.message} ({self.citation})" if self.citation else self.message

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass
class PeriodData:
    day_type: str
    first: int
    last: int
    headway: int | None = None
    departures: Sequence[int] = ()

    def times(self) -> list[int]:
        if self.headway:
            return list(range(self.first, self.last, self.headway)) or [self.first]
        return sorted(int(t) for t in self.departures)


@dataclass
class Network:
    """The conventional bus network as the checks need it (see lotacao.lines.busnet)."""

    routes: list[tuple[str, str, list[Any], dict[str, list[int]]]]  # id, label, shapes, departures
    stops: list[tuple[str, float, float, list[str]]]  # name, lon, lat, route ids
    patterns: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # route id -> stop times


def errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == "error"]


# --------------------------------------------------------------------------- line versions


def version_findings(code: str, on: dt.date, *, shape: str, grounds: list[str], region: str) -> list[Finding]:
    """Grounds the law admits, barred line shapes (Recife art. 4, p.ú.), the region (Maricá art. 9)."""
    out: list[Finding] = []
    allowed = lines_law.need(code, "lines.grounds", on)
    if allowed is not None:
        if not grounds:
            out.append(Finding("grounds", "error", "Indique o fundamento da linha", allowed.citation))
        for ground in grounds:
            if allowed.value is not None and ground not in allowed.value:
                label = GROUND_LABELS.get(ground, ground)
                out.append(
                    Finding("grounds", "error", f"{label} não é fundamento previsto", allowed.citation)
                )
    barred = lines_law.need(code, "lines.barred_shapes", on)
    if barred is not None and barred.value is not None and shape in barred.value.get("shapes", []):
        exceptions = set(barred.value.get("unless_grounds", []))
        if not exceptions & set(grounds):
            label = str(LineVersion.Shape(shape).label).lower()
            unless = ", ".join(GROUND_LABELS.get(g, g).lower() for g in sorted(exceptions))
            text = f"Linha {label} vedada" + (f", salvo por {unless}" if unless else "")
            out.append(Finding("shape", "error", text, barred.citation))
    regions = lines_law.need(code, "lines.regions", on)
    if regions is not None:
        if not region.strip():
            out.append(Finding("region", "error", "Indique a região da linha", regions.citation))
        elif regions.missing:
            out.append(Finding("region", "missing", regions.missing_text()))
        elif region not in regions.value:
            choices = ", ".join(regions.value)
            out.append(
                Finding("region", "error", f"Região {region} desconhecida (use: {choices})", regions.citation)
            )
    return out


def stop_findings(
    code: str,
    on: dt.date,
    *,
    itinerary: list[list[float]],
    stops: list[dict[str, Any]],
    network: Network | None,
) -> list[Finding]:
    """Cabo: stops on a stretch shared with a bus line stand min–max metres from the bus stop."""
    rule = lines_law.need(code, "lines.bus_stop_distance", on)
    if rule is None or not stops:
        return []
    if rule.missing:
        return [Finding("stop_distance", "missing", rule.missing_text())]
    stretch = lines_law.need(code, "lines.shared_stretch", on)
    if network is None:
        return [_no_network(rule.citation)]
    if stretch is None or stretch.missing:
        return [Finding("stop_distance", "missing", stretch.missing_text() if stretch else "", "")]
    buffer_m = float(stretch.value["buffer_m"])
    shared = _overlaps(itinerary, network, stretch.value)
    if not shared:
        return []
    projection = geometry.Projection.around(itinerary)
    lo, hi = float(rule.value["min_m"]), float(rule.value["max_m"])
    out: list[Finding] = []
    for overlap in shared:
        bus_stops = [(lon, lat) for _n, lon, lat, routes in network.stops if overlap.route_id in routes]
        for stop in stops:
            lon, lat = float(stop["lon"]), float(stop["lat"])
            if not geometry.near_stretch(projection, lon, lat, [overlap.stretch], buffer_m):
                continue
            distance = geometry.nearest_m(projection, lon, lat, bus_stops)
            if distance is None or lo <= distance <= hi:
                continue
            out.append(
                Finding(
                    "stop_distance",
                    "error",
                    f"A parada {stop['name']} fica a {distance:.0f} m da parada de ônibus mais próxima da "
                    f"linha {overlap.label}, com a qual o itinerário se superpõe; deve ficar entre "
                    f"{lo:.0f} e {hi:.0f} m",
                    rule.citation,
                )
            )
    return out


def bus_road_findings(
    code: str, on: dt.date, *, itinerary: list[list[float]], network: Network | None
) -> list[Finding]:
    """Recife art. 1, § 5º and art. 3, § 3º: bus roads only in small stretches, without another
    way and without direct competition. The law sets no limit, so the measure — how much of the
    itinerary runs on the bus network's roads, in all and per bus line — goes to the approver."""
    rule = lines_law.need(code, "lines.bus_roads", on)
    if rule is None:
        return []
    if rule.missing:
        return [Finding("bus_roads", "missing", rule.missing_text())]
    if network is None:
        return [
            Finding(
                "bus_roads",
                "info",
                "Importe a rede de ônibus (GTFS) para medir quanto do itinerário usa vias do ônibus",
                rule.citation,
            )
        ]
    buffer_m = float(rule.value["measure_buffer_m"])
    share = geometry.road_share(
        itinerary, ((rid, label, shapes) for rid, label, shapes, _d in network.routes), buffer_m=buffer_m
    )
    if share.shared_m < 1:
        text = "O itinerário não usa vias das linhas de ônibus"
    else:
        per_route = ", ".join(f"{label} ({_km(metres)})" for label, metres in share.routes[:5])
        more = f" e mais {len(share.routes) - 5}" if len(share.routes) > 5 else ""
        text = (
            f"O itinerário percorre {_km(share.shared_m)} de {_km(share.line_m)} "
            f"({share.share * 100:.0f}%) em vias de linhas de ônibus — {per_route}{more}. A lei só "
            "admite pequenos trechos, sem outra possibilidade viária e sem concorrência direta: quem "
            "aprova avalia e justifica no ato"
        )
    return [Finding("bus_roads", "info", text, rule.citation)]


def _km(metres: float) -> str:
    return f"{metres / 1000:.1f} km".replace(".", ",") if metres >= 1000 else f"{metres:.0f} m"


# --------------------------------------------------------------------------- service orders


def order_findings(
    code: str,
    on: dt.date,
    *,
    grounds: list[str],
    periods: list[PeriodData],
    itinerary: list[list[float]],
    network: Network | None,
    trip_minutes: int | None = None,
) -> list[Finding]:
    out = _period_shape(periods)
    if out:
        return out
    out += _temporal_window(code, on, grounds, periods)
    out += _bus_separation(code, on, itinerary, periods, network, trip_minutes)
    return out


def _period_shape(periods: list[PeriodData]) -> list[Finding]:
    out: list[Finding] = []
    if not periods:
        out.append(Finding("periods", "error", "Informe ao menos um período de operação."))
    for p in periods:
        day = DAY_TYPES.get(p.day_type, p.day_type)
        if p.day_type not in DAY_TYPES:
            out.append(Finding("periods", "error", f"Tipo de dia desconhecido: {p.day_type}."))
        elif p.last < p.first:
            out.append(Finding("periods", "error", f"{day}: o fim ({clock(p.last)}) é anterior ao início."))
        elif not p.headway and not p.departures:
            out.append(Finding("periods", "error", f"{day}: informe o intervalo ou as partidas fixas."))
    return out


def _temporal_window(code: str, on: dt.date, grounds: list[str], periods: list[PeriodData]) -> list[Finding]:
    """Recife art. 1, § 3º: a line on temporal grounds alone runs 22:00–04:00 but on free days."""
    rule = lines_law.need(code, "lines.temporal_window", on)
    if rule is None or set(grounds) != {"temporal"}:
        return []
    if rule.missing:
        return [Finding("temporal_window", "missing", rule.missing_text())]
    start, end = _minutes(rule.value["start"]), _minutes(rule.value["end"])
    if end <= start:
        end += 24 * 60
    free = set(rule.value.get("free_days", []))
    out: list[Finding] = []
    for p in periods:
        if p.day_type in free:
            continue
        times = p.times()
        lo, hi = (p.first, p.last) if p.headway or not times else (times[0], times[-1])
        inside = (start <= lo and hi <= end) or hi <= end - 24 * 60
        if not inside:
            out.append(
                Finding(
                    "temporal_window",
                    "error",
                    f"{DAY_TYPES[p.day_type]}: {clock(lo)}–{clock(hi)} fora do período de "
                    f"{rule.value['start']} às {rule.value['end']} das linhas criadas por fator temporal",
                    rule.citation,
                )
            )
    return out


def _bus_separation(
    code: str,
    on: dt.date,
    itinerary: list[list[float]],
    periods: list[PeriodData],
    network: Network | None,
    trip_minutes: int | None = None,
) -> list[Finding]:
    """Maricá art. 4, § 2º: on a stretch shared with a bus line the van's times stand at least N
    minutes from the bus's — both at the start of the shared stretch: the bus's interpolated from
    its GTFS stop times (frequencies expanded), the van's from its departure and its trip time
    along the itinerary. A network imported before stop times were kept compares departures."""
    rule = lines_law.need(code, "lines.bus_separation", on)
    if rule is None:
        return []
    if rule.missing:
        return [Finding("bus_separation", "missing", rule.missing_text())]
    if network is None:
        return [_no_network(rule.citation)]
    stretch = lines_law.need(code, "lines.shared_stretch", on)
    if stretch is None or stretch.missing:
        return [Finding("bus_separation", "missing", stretch.missing_text() if stretch else "")]
    gap = int(rule.value)
    buffer_m = float(stretch.value["buffer_m"])
    departures = {route_id: deps for route_id, _l, _s, deps in network.routes}
    length = geometry.length_m(itinerary)
    out: list[Finding] = []
    for overlap in _overlaps(itinerary, network, stretch.value):
        entry = geometry.stretch_entry_m(itinerary, overlap.stretch)
        van_offset = round(trip_minutes * entry / length) if trip_minutes and length else 0
        patterns = network.patterns.get(overlap.route_id) or []
        for p in periods:
            bus_day = "sunday" if p.day_type == "holiday" else p.day_type
            if patterns:
                bus = sorted(
                    t
                    for pattern in patterns
                    for t in geometry.passing_minutes(
                        itinerary, entry, pattern["coords"], pattern["days"].get(bus_day, []), buffer_m
                    )
                )
                what = "passa no início do trecho comum às"
            else:
                bus = departures.get(overlap.route_id, {}).get(bus_day, [])
                what = "parte às"
            for departure in p.times():
                van = departure + van_offset
                close = [b for b in bus if abs(b - van) < gap]
                if close:
                    bus_time, apart = close[0], abs(close[0] - van)
                    where = (
                        f"a van das {clock(departure)} chega ao início do trecho comum às {clock(van)}"
                        if van_offset
                        else f"a partida das {clock(departure)}"
                    )
                    text = (
                        f"{DAY_TYPES[p.day_type]}: {where}, a {apart} min do ônibus da linha "
                        f"{overlap.label}, que {what} {clock(bus_time)}; a diferença mínima é de "
                        f"{gap} minutos"
                    )
                    out.append(Finding("bus_separation", "error", text, rule.citation))
                    break
    return out


def _overlaps(
    itinerary: list[list[float]], network: Network, stretch: dict[str, Any]
) -> list[geometry.Overlap]:
    return geometry.overlaps(
        itinerary,
        ((rid, label, shapes) for rid, label, shapes, _d in network.routes),
        buffer_m=float(stretch["buffer_m"]),
        min_length_m=float(stretch["min_length_m"]),
    )


def _no_network(citation: str) -> Finding:
    return Finding(
        "bus_network",
        "missing",
        "Importe a rede de ônibus (GTFS) para verificar a superposição com o transporte convencional",
        citation,
    )


def _minutes(text: str) -> int:
    hours, _, minutes = str(text).partition(":")
    return int(hours) * 60 + int(minutes or 0)


def parse_time(text: str) -> int:
    """'22:00', '04:00', '28:00' or '7h30' as minutes; ValueError with a Portuguese message."""
    raw = str(text).strip().lower().replace("h", ":")
    if raw.endswith(":"):
        raw += "00"
    hours, sep, minutes = raw.partition(":")
    if not sep or not hours.isdigit() or not minutes.isdigit() or int(minutes) >= 60 or int(hours) >= 48:
        raise ValueError(f"Horário inválido: “{text}” (use HH:MM, por exemplo 22:00 ou 04:30).")
    return int(hours) * 60 + int(minutes)
