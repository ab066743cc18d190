"""Reading rosters: the one in force on a line on a day, and what it says of a vehicle (the
inspector's road check shows it beside the plate)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q

from lotacao.core.formats import lower_first
from lotacao.registry.models import Line, Vehicle
from lotacao.rosters.models import Roster, RosterEntry

IN_FORCE = (Roster.Status.APPROVED, Roster.Status.SUPERSEDED)


def roster_in_force(line: Line, on: dt.date) -> Roster | None:
    """The approved roster of the line covering `on` (a superseded one still covers the days
    before its successor began)."""
    return (
        Roster.objects.filter(line=line, status__in=IN_FORCE, starts_on__lte=on)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))
        .order_by("-starts_on", "-id")
        .first()
    )


def vehicle_roster(vehicle: Vehicle, line: Line | None, on: dt.date) -> dict[str, Any] | None:
    """What the roster in force on the vehicle's line says of it: the rows of this vehicle, and
    whether one serves today ({"roster", "entries", "today", "line"}); None when the line has none."""
    if line is None:
        return None
    roster = roster_in_force(line, on)
    if roster is None:
        return {"roster": None, "entries": [], "today": [], "line": line}
    entries = list(RosterEntry.objects.filter(roster=roster, vehicle=vehicle).select_related("driver"))
    return {
        "roster": roster,
        "entries": entries,
        "today": [e for e in entries if e.serves(on)],
        "line": line,
    }


def line_vehicles_and_drivers(line: Line, on: dt.date) -> tuple[list[Vehicle], list[tuple[Any, str]]]:
    """The vehicles with a live permit on the line, and the people who may drive them (each
    holder, each current auxiliary or relief driver), for the roster's row form."""
    from lotacao.permits.models import Permit, PermitAgent

    vehicles: list[Vehicle] = []
    drivers: dict[int, tuple[Any, str]] = {}
    permits = Permit.objects.filter(line=line, status__in=Permit.LIVE).select_related(
        "vehicle", "holder__person"
    )
    for permit in permits:
        if permit.vehicle is None or permit.effective_status(on) not in Permit.LIVE:
            continue
        vehicles.append(permit.vehicle)
        plate = permit.vehicle.plate_display
        if permit.holder.person is not None:
            drivers[permit.holder.person.pk] = (
                permit.holder.person,
                f"{permit.holder.person.full_name} (permissionário, {plate})",
            )
        agents = PermitAgent.objects.filter(permit=permit, role__in=("auxiliary_driver", "relief_driver"))
        for agent in agents.select_related("person"):
            if agent.is_current(on) and not agent.is_suspended(on):
                drivers.setdefault(
                    agent.person.pk,
                    (
                        agent.person,
                        f"{agent.person.full_name} ({lower_first(agent.get_role_display())}, {plate})",
                    ),
                )
    return vehicles, sorted(drivers.values(), key=lambda d: d[1])
