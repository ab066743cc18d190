"""What the inspector brings from the street before a notice is drawn up: the plate's status
(may this vehicle operate here?), the registered vehicle, its active permit and the agent found
by the plate and CPF, or — from the API — the linked records by id.

The plate's status asks the same seam the public plate check merges (`public_vehicle_info` in
`lotacao.core.providers`: permits, inspections, measures and effects in force), for the vehicles
of the plate in the inspector's jurisdiction, with the holder's name (staff may see it). It does
not import the public app: enforcement sits below the edge apps.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.core.models import Jurisdiction
from lotacao.core.vehicle_verdict import clean_plate, merged_verdict
from lotacao.enforcement.models import AGENT_KINDS, OffenderKind
from lotacao.enforcement.reading import local_day
from lotacao.lines.selectors import notice_context
from lotacao.permits.models import Permit, PermitAgent
from lotacao.registry.models import Holder, Line, Person, Vehicle


def plate_vehicles(plate: str, jurisdiction: str) -> list[Vehicle]:
    """The vehicles of a (clean) plate in the inspector's jurisdiction, in a fixed order."""
    return list(
        Vehicle.unscoped.filter(plate=plate, jurisdiction_id=jurisdiction)
        .select_related("holder__person", "holder__company")
        .order_by("pk")
    )


def plate_check(plate: str, jurisdiction: str) -> dict[str, Any] | None:
    """The plate's status in the inspector's jurisdiction (`here`), with the holder's name."""
    if not plate.strip():
        return None
    try:
        clean = clean_plate(plate)
    except ValidationError as error:
        return {"plate": plate.upper(), "valid_plate": False, "error": error.messages[0], "here": []}
    day = timezone.localdate()
    here = []
    for vehicle in plate_vehicles(clean, jurisdiction):
        holder = getattr(vehicle, "holder", None)
        record = merged_verdict(vehicle, day)
        record.update(
            jurisdiction=vehicle.jurisdiction_id, holder_name=str(holder) if holder is not None else ""
        )
        here.append(record)
    return {"plate": clean, "valid_plate": True, "checked_on": day.isoformat(), "here": here}


def vehicle_permit(vehicle: Vehicle) -> Permit | None:
    """The vehicle's permit for a notice: the live one (active or suspended), else the latest
    (revoked, expired…) — the holder answers for the vehicle even when it may not operate."""
    permits = Permit.objects.filter(vehicle=vehicle)
    live = permits.filter(status__in=Permit.LIVE).order_by("-pk").first()
    return live or permits.order_by("-granted_on", "-pk").first()


def line_on(day: dt.date, vehicle: Any = None, permit: Any = None) -> Any:
    """The line the vehicle (or permit) served on `day` (its place on the line, else the permit's)."""
    found = notice_context(on=day, vehicle=vehicle, permit=permit)["line"]
    return found if found is not None else getattr(permit, "line", None)


def links_from_plate(
    jurisdiction: Jurisdiction, data: dict[str, Any], on: dt.date | None = None
) -> dict[str, Any]:
    """The registered vehicle, its permit (live, else the latest: a suspended or revoked permit
    still names the holder), the line served on the infraction's day and the agent (by CPF).
    A line the inspector chose wins over the plate's (the van may run on another line)."""
    day = on or timezone.localdate()
    raw = data.get("plate") or ""
    links: dict[str, Any] = {"plate": ""}
    chosen_line = data.get("line")
    if chosen_line is not None:
        links["line"] = chosen_line
    if not raw.strip():
        return links
    plate = clean_plate(raw)
    links["plate"] = plate
    if data["offender_kind"] == OffenderKind.UNLICENSED:
        return links
    vehicle = Vehicle.objects.filter(plate=plate, jurisdiction=jurisdiction).first()
    if vehicle is None:
        return links
    links["vehicle"] = vehicle
    permit = vehicle_permit(vehicle)
    if permit is not None:
        links["permit"] = permit
    if chosen_line is None:
        line = line_on(day, vehicle=vehicle, permit=permit)
        if line is not None:
            links["line"] = line
    document = "".join(ch for ch in (data.get("offender_document") or "") if ch.isdigit())
    if permit is not None and data["offender_kind"] in AGENT_KINDS and document:
        agent = (
            PermitAgent.objects.filter(permit=permit, person__cpf=document).select_related("person").first()
        )
        if agent is not None:
            links["agent"] = agent.person
    return links


def fields_from_form(jurisdiction: Jurisdiction, inspector: Any, data: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of `services.prepare_notice` from the phone form's cleaned data."""
    day = local_day(jurisdiction, data["drawn_up_at"])
    links = links_from_plate(jurisdiction, data, day)
    return {
        "jurisdiction": jurisdiction,
        "inspector": inspector,
        "drawn_up_at": data["drawn_up_at"],
        "offender_kind": data["offender_kind"],
        "infraction_code": data.get("infraction_code") or "",
        "infraction_group": data.get("infraction_group") or "",
        "place": data.get("place") or "",
        "description": data.get("description") or "",
        "plate": links.pop("plate", ""),
        "offender_name": data.get("offender_name") or "",
        "offender_document": data.get("offender_document") or "",
        "evidence_image": data.get("evidence_image") or "",
        "evidence_latitude": data.get("evidence_latitude"),
        "evidence_longitude": data.get("evidence_longitude"),
        **links,
    }


def links_from_ids(
    jurisdiction: Jurisdiction,
    *,
    permit_id: int | None = None,
    holder_id: int | None = None,
    agent_id: int | None = None,
    vehicle_id: int | None = None,
    line_id: int | None = None,
) -> dict[str, Any]:
    """The linked records of a request, through the scoped managers (outside scope: refused)."""
    wanted = [
        ("permit", Permit, permit_id, "Permissão"),
        ("holder", Holder, holder_id, "Permissionário"),
        ("agent", Person, agent_id, "Preposto"),
        ("vehicle", Vehicle, vehicle_id, "Veículo"),
        ("line", Line, line_id, "Linha"),
    ]
    links: dict[str, Any] = {}
    for name, model, pk, label in wanted:
        if pk is None:
            continue
        obj = model.objects.filter(pk=pk, jurisdiction=jurisdiction).first()
        if obj is None:
            raise ValidationError(f"{label} {pk}: não há esse registro nesta jurisdição.")
        links[name] = obj
    return links
