"""Read-only selectors of the permits app, for other apps and the public page.

`public_vehicle_info` never returns personal data (no name, CPF or CNPJ): only the permit's
number, status, validity and line.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q, QuerySet

from lotacao.core.bulk import among
from lotacao.core.formats import br_date, lower_first
from lotacao.permits.models import Permit, PermitAgent
from lotacao.registry.models import Holder


def live_permits(on: dt.date) -> QuerySet[Permit]:
    """Permits in force on `on` (active or suspended, within their term, not withdrawn) — unscoped."""
    return (
        Permit.unscoped.filter(status__in=Permit.LIVE)
        .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=on))
        .exclude(withdrawal_notice_on__isnull=False, ends_on__lte=on)
    )


def active_permit_for_vehicle(vehicle: Any, on: dt.date) -> Permit | None:
    """The permit the vehicle serves on `on` (active or suspended and within its term), if any."""
    return (
        live_permits(on).filter(vehicle=vehicle).select_related("line").order_by("-granted_on", "-id").first()
    )


def last_permit_for_vehicle(vehicle: Any) -> Permit | None:
    return (
        Permit.unscoped.filter(vehicle=vehicle)
        .exclude(status__in=Permit.OPEN)
        .select_related("line")
        .order_by("-granted_on", "-id")
        .first()
    )


def vehicle_permit(vehicle: Any) -> Permit | None:
    """The live (active or suspended) permit a vehicle serves, the newest if several."""
    return Permit._base_manager.filter(vehicle=vehicle, status__in=Permit.LIVE).order_by("-pk").first()


def public_vehicle_info(vehicle: Any, on: dt.date) -> dict[str, Any]:
    """What the public may know about a vehicle's permit on `on` (no personal data)."""
    return _public_part(active_permit_for_vehicle(vehicle, on) or last_permit_for_vehicle(vehicle), on)


def public_vehicle_info_many(vehicles: list[Any], on: dt.date) -> dict[int, dict[str, Any]]:
    """`public_vehicle_info` of many vehicles with one query (the read model's rebuild), each
    part with `changes_on`: the first day after `on` its answer may differ by the date alone (a
    live permit's term or withdrawal running out), absent when only a write changes it."""
    ids = [v.pk for v in vehicles]
    chosen: dict[int, Permit] = {}
    changes: dict[int, dt.date] = {}
    rows = (
        Permit.unscoped.filter(among("vehicle_id", ids))
        .exclude(status__in=Permit.OPEN)
        .select_related("line")
        .order_by("vehicle_id", "-granted_on", "-id")
    )
    last: dict[int, Permit] = {}
    for permit in rows:
        vehicle_id = permit.vehicle_id
        if vehicle_id is None:
            continue
        if _live(permit, on):
            chosen.setdefault(vehicle_id, permit)
        last.setdefault(vehicle_id, permit)
        if permit.status in Permit.LIVE:
            for day in (
                permit.valid_until + dt.timedelta(days=1) if permit.valid_until else None,
                permit.ends_on if permit.withdrawal_notice_on is not None else None,
            ):
                if day is not None and day > on and day < changes.get(vehicle_id, dt.date.max):
                    changes[vehicle_id] = day
    out: dict[int, dict[str, Any]] = {}
    for vehicle_id in ids:
        part = _public_part(chosen.get(vehicle_id) or last.get(vehicle_id), on)
        if vehicle_id in changes:
            part["changes_on"] = changes[vehicle_id]
        out[vehicle_id] = part
    return out


def _live(permit: Permit, on: dt.date) -> bool:
    """`live_permits(on)` on one loaded row."""
    return (
        permit.status in Permit.LIVE
        and (permit.valid_until is None or permit.valid_until >= on)
        and not (
            permit.withdrawal_notice_on is not None and permit.ends_on is not None and permit.ends_on <= on
        )
    )


def _public_part(permit: Permit | None, on: dt.date) -> dict[str, Any]:
    if permit is None:
        return {
            "authorized": False,
            "permit_number": None,
            "permit_status": None,
            "permit_valid_until": None,
            "line_code": None,
            "line_name": None,
            "reasons": ["Veículo sem permissão vigente."],
        }
    status = permit.effective_status(on)
    reasons: list[str] = []
    authorized = status == Permit.Status.ACTIVE
    if status == Permit.Status.SUSPENDED:
        until = f" até {br_date(permit.suspended_until)}" if permit.suspended_until else ""
        reasons.append(f"Permissão suspensa{until}.")
    elif status == Permit.Status.EXPIRED:
        reasons.append(f"Permissão vencida em {br_date(permit.valid_until)}.")
    elif not authorized:
        reasons.append(f"Permissão {lower_first(Permit.Status(status).label)}.")
    line = permit.line
    return {
        "authorized": authorized,
        "permit_number": permit.number or None,
        "permit_status": str(Permit.Status(status).label),
        "permit_valid_until": permit.valid_until,
        "line_code": line.code if line else None,
        "line_name": line.name if line else None,
        "reasons": reasons,
    }


def permits_of_holder(holder: Any) -> QuerySet[Permit]:
    return Permit.unscoped.filter(holder=holder)


def person_roles(*, code: str, person: Any, on: dt.date) -> set[str]:
    """The roles a person holds in a jurisdiction on a day (the seam `person_roles`, asked by the
    courses): permissionário when a holder record is theirs, and each preposto role in force."""
    roles: set[str] = set()
    if Holder.unscoped.filter(jurisdiction_id=code, person_id=person.pk).exists():
        roles.add("holder")
    agents = PermitAgent.unscoped.filter(jurisdiction_id=code, person_id=person.pk, starts_on__lte=on).filter(
        Q(ends_on__isnull=True) | Q(ends_on__gte=on)
    )
    roles.update(agents.values_list("role", flat=True))
    return roles
