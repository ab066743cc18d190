"""Read side of the lines app: what is in force on a date, for screens, other apps and the public.

`service_order_in_force(line, on)` is the OSO an infraction of `on` is judged against (a later OSO
never changes what an earlier day required). Public selectors return plain, field-limited data:
lines, stops, timetables — never a holder, a CPF or any personal data.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q, QuerySet

from lotacao.core.bulk import among
from lotacao.lines import law as lines_law
from lotacao.lines.models import DAY_TYPES, LineVersion, Place, ServiceOrder, ServicePeriod, Stop, clock
from lotacao.registry.models import Line


def versions_in_force(on: dt.date) -> QuerySet[LineVersion]:
    return LineVersion.unscoped.filter(status=LineVersion.Status.APPROVED, valid_from__lte=on)


def version_in_force(line: Any, on: dt.date) -> LineVersion | None:
    """The approved version of `line` in force on `on` (the latest to take effect by then)."""
    return versions_in_force(on).filter(line_id=line.pk).order_by("-valid_from", "-number").first()


def orders_in_force(on: dt.date) -> QuerySet[ServiceOrder]:
    return ServiceOrder.unscoped.filter(status=ServiceOrder.Status.ISSUED, valid_from__lte=on).filter(
        Q(valid_until__isnull=True) | Q(valid_until__gte=on)
    )


def service_order_in_force(line: Any, on: dt.date) -> ServiceOrder | None:
    """The service order of `line` in force on `on`: a temporary one (event, works, bus stoppage)
    over the regular one while it lasts; among equals, the latest to take effect."""
    rows = orders_in_force(on).filter(line_id=line.pk)
    temporary = rows.filter(kind=ServiceOrder.Kind.TEMPORARY).order_by("-valid_from", "-number").first()
    if temporary is not None:
        return temporary
    regular = rows.filter(kind=ServiceOrder.Kind.REGULAR)
    return regular.order_by("-valid_from", "-number").first()


def open_place(permit: Any, on: dt.date) -> Place | None:
    """The permit's place on a line on `on`."""
    return (
        Place.unscoped.filter(permit_id=permit.pk, starts_on__lte=on)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))
        .select_related("line")
        .order_by("-starts_on", "-id")
        .first()
    )


def vehicle_place(vehicle: Any, on: dt.date) -> Place | None:
    return (
        Place.unscoped.filter(vehicle_id=vehicle.pk, starts_on__lte=on)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))
        .select_related("line")
        .order_by("-starts_on", "-id")
        .first()
    )


def order_summary(order: ServiceOrder | None) -> dict[str, Any] | None:
    """What an OSO requires, in plain data (for a notice, a screen or the public page)."""
    if order is None:
        return None
    label, cite = lines_law.service_order_label(order.jurisdiction_id, order.valid_from)
    periods = []
    for p in ServicePeriod.unscoped.filter(order=order).order_by("day_type", "first"):
        times = p.times()
        periods.append(
            {
                "day_type": p.day_type,
                "day_label": DAY_TYPES[p.day_type],
                "first": clock(times[0]) if times else clock(p.first),
                "last": clock(times[-1]) if times else clock(p.last),
                "until": clock(p.last),
                "headway": p.headway,
                "departures": [clock(t) for t in times] if not p.headway else [],
                "trips": len(times),
            }
        )
    return {
        "label": label,
        "citation": cite,
        "number": order.number,
        "kind": order.get_kind_display(),
        "cause": order.get_cause_display() if order.cause else "",
        "valid_from": order.valid_from,
        "valid_until": order.valid_until,
        "act": order.act,
        "fleet": order.fleet,
        "trip_minutes": order.trip_minutes,
        "terminal_capacity": order.terminal_capacity,
        "vehicles": [v.plate_display for v in order.vehicles.all()],
        "periods": periods,
        "version": order.version.number,
    }


def notice_context(*, on: dt.date, vehicle: Any = None, permit: Any = None) -> dict[str, Any]:
    """For an infraction notice dated `on`: the line of the vehicle (or permit) and the version and
    service order in force that day, with what the order required. Empty keys when there is none."""
    place = None
    if permit is not None:
        place = open_place(permit, on)
    if place is None and vehicle is not None:
        place = vehicle_place(vehicle, on)
    line = place.line if place is not None else getattr(permit, "line", None)
    if line is None:
        return {"line": None, "version": None, "order": None, "required": None}
    version = version_in_force(line, on)
    order = service_order_in_force(line, on)
    return {"line": line, "version": version, "order": order, "required": order_summary(order)}


def stops_of(version: LineVersion) -> list[Stop]:
    return list(Stop.unscoped.filter(version=version).order_by("sequence"))


# --------------------------------------------------------------------------- public (no personal data)


def fare_info(line: Line, on: dt.date) -> Any:
    from lotacao.lines.fares import fare_info as info

    return info(line, on)


def public_lines(code: str, on: dt.date) -> list[dict[str, Any]]:
    """The lines of a jurisdiction with an approved version in force on `on`."""
    out = []
    lines = Line.unscoped.filter(jurisdiction_id=code, active=True).order_by("code")
    for line in lines:
        version = version_in_force(line, on)
        if version is None:
            continue
        out.append(
            {
                "code": line.code,
                "name": line.name,
                "origin": version.origin,
                "destination": version.destination,
                "shape": version.get_shape_display(),
                "region": version.region,
            }
        )
    return out


def public_line(code: str, line_code: str, on: dt.date) -> dict[str, Any] | None:
    """One line as the public sees it: itinerary, stops and the timetable or headways in force."""
    line = Line.unscoped.filter(jurisdiction_id=code, code=line_code, active=True).first()
    if line is None:
        return None
    version = version_in_force(line, on)
    if version is None:
        return None
    order = service_order_in_force(line, on)
    return {
        "code": line.code,
        "name": line.name,
        "jurisdiction": code,
        "origin": version.origin,
        "destination": version.destination,
        "shape": version.get_shape_display(),
        "region": version.region,
        "description": version.description,
        "itinerary": version.itinerary,
        "approval_act": version.approval_act,
        "valid_from": version.valid_from,
        "stops": [
            {
                "name": s.name,
                "kind": s.kind,
                "kind_label": s.get_kind_display(),
                "wheelchair": s.wheelchair,
                "wheelchair_label": s.get_wheelchair_display() if s.wheelchair else "",
                "lat": s.lat,
                "lon": s.lon,
            }
            for s in stops_of(version)
        ],
        "order": _public_order(order_summary(order)),
        "both_directions": bool(order.both_directions) if order is not None else False,
        "fare": fare_info(line, on).as_dict(),
        "temporary": public_temporary(line, on),
        "ends_on": _ends_on(line),
    }


def public_temporary(line: Any, on: dt.date) -> list[dict[str, Any]]:
    """The line's temporary changes (works, events) not over by `on`: dates and what changes."""
    from lotacao.lines.models import TemporaryChange

    rows = TemporaryChange.unscoped.filter(line_id=line.pk, cancelled=False, ends_on__gte=on).order_by(
        "starts_on"
    )
    return [
        {
            "cause": t.get_cause_display(),
            "description": t.description,
            "starts_on": t.starts_on,
            "ends_on": t.ends_on,
            "suspended": t.suspended,
            "stops": [s["name"] for s in t.stops],
        }
        for t in rows
    ]


def _ends_on(line: Any) -> dt.date | None:
    from lotacao.lines.models import LineEnd

    ending = LineEnd.unscoped.filter(line_id=line.pk).first()
    return ending.effective_on if ending is not None else None


def _public_order(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    if summary is None:
        return None
    summary = dict(summary)
    summary.pop("vehicles", None)  # plates tie a vehicle to a line: fine for staff, not needed here
    return summary


def public_line_exists(code: str, line_code: str | None, on: dt.date) -> bool:
    if not line_code:
        return False
    line = Line.unscoped.filter(jurisdiction_id=code, code=line_code, active=True).first()
    return line is not None and version_in_force(line, on) is not None


def vehicle_places(vehicle_ids: list[int], on: dt.date) -> tuple[dict[int, Place], dict[int, dt.date]]:
    """`vehicle_place` of many vehicles with one query (the public read model's rebuild), and for
    each vehicle whose place may change by the date alone the first day after `on` it may."""
    chosen: dict[int, Place] = {}
    changes: dict[int, dt.date] = {}
    rows = (
        Place.unscoped.filter(among("vehicle_id", vehicle_ids))
        .select_related("line")
        .order_by("vehicle_id", "-starts_on", "-id")
    )
    for place in rows:
        assert place.vehicle_id is not None
        if place.starts_on <= on and (place.ends_on is None or place.ends_on >= on):
            chosen.setdefault(place.vehicle_id, place)
        for day in (place.starts_on, place.ends_on + dt.timedelta(days=1) if place.ends_on else None):
            if day is not None and on < day < changes.get(place.vehicle_id, dt.date.max):
                changes[place.vehicle_id] = day
    return chosen, changes


def public_lines_exist(
    pairs: set[tuple[str, str]], on: dt.date
) -> dict[tuple[str, str], tuple[bool, dt.date | None]]:
    """`public_line_exists` of many (jurisdiction, line code) pairs with two queries, each with the
    first day after `on` an approved version takes effect (None: only a write changes it)."""
    out: dict[tuple[str, str], tuple[bool, dt.date | None]] = dict.fromkeys(pairs, (False, None))
    wanted = {pair for pair in pairs if pair[1]}
    if not wanted:
        return out
    lines = {
        (code, line_code): pk
        for pk, code, line_code in Line.unscoped.filter(
            jurisdiction_id__in=sorted({p[0] for p in wanted}),
            code__in=sorted({p[1] for p in wanted}),
            active=True,
        ).values_list("id", "jurisdiction_id", "code")
        if (code, line_code) in wanted
    }
    starts: dict[int, list[dt.date]] = {}
    for line_id, valid_from in LineVersion.unscoped.filter(
        status=LineVersion.Status.APPROVED, line_id__in=sorted(lines.values())
    ).values_list("line_id", "valid_from"):
        if valid_from is not None:
            starts.setdefault(line_id, []).append(valid_from)
    for pair, pk in lines.items():
        days = starts.get(pk, [])
        later = [day for day in days if day > on]
        out[pair] = (any(day <= on for day in days), min(later) if later else None)
    return out
