"""REST API of chartering (django-ninja), mounted at /api/chartering: the company's tracker posts
positions (JSON or GTFS Realtime VehiclePositions) with the company's API token; staff and the
company read CRC state and trips through the same scoped managers as the screens."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.chartering import permissions, privacy, tracking
from lotacao.chartering.models import CharteringCompany, Trip
from lotacao.chartering.status import crc_state

router = Router(tags=["fretamento"])


class PositionIn(Schema):
    plate: str
    at: str
    latitude: float | str
    longitude: float | str
    speed: float | str | None = None


class PositionsReceivedOut(Schema):
    recebidas: int  # how many positions were recorded


class CompanyOut(Schema):
    id: int
    cnpj: str
    name: str
    crc_number: str | None
    crc_status: str
    modalities: list[str]
    valid_until: dt.date | None


class PassengerOut(Schema):
    name: str
    document: str


class TripOut(Schema):
    id: int
    company_id: int
    crc_number: str
    modality: str
    plate: str
    origin: str
    destination: str
    departs_at: dt.datetime
    returns_at: dt.datetime | None
    status: str
    passenger_count: int
    list_purged_on: dt.date | None
    passengers: list[PassengerOut] | None = None  # with `passengers=true` (audited)


def _company_of(request: HttpRequest) -> CharteringCompany:
    access = getattr(request, "access", None)
    if access is None or access.holder_id is None:
        raise HttpError(403, "Somente a conta da empresa envia as posições do seu rastreador.")
    company: CharteringCompany | None = CharteringCompany.objects.filter(holder_id=access.holder_id).first()
    if company is None:
        raise HttpError(403, "Esta conta não é de empresa do cadastro de fretamento.")
    return company


@router.post("/positions", response={201: PositionsReceivedOut})
def post_positions(request: HttpRequest, payload: list[PositionIn]) -> Any:
    """Positions of the company's vehicles as JSON: plate, at (ISO with zone), latitude, longitude,
    speed (km/h). All or nothing: a refused item refuses the batch (422, reason in Portuguese)."""
    company = _company_of(request)
    fixes = tracking.fixes_from_json([item.dict() for item in payload])
    return Status(201, {"recebidas": tracking.record_positions(company=company, fixes=fixes)})


@router.post("/positions/gtfs-rt", response={201: PositionsReceivedOut})
def post_gtfs_rt(request: HttpRequest) -> Any:
    """A GTFS Realtime FeedMessage (application/x-protobuf) of VehiclePositions; the vehicle's
    license_plate (or id) is its plate."""
    company = _company_of(request)
    fixes = tracking.fixes_from_gtfs_rt(request.body)
    return Status(201, {"recebidas": tracking.record_positions(company=company, fixes=fixes)})


@router.get("/companies/{company_id}", response=CompanyOut)
def company(request: HttpRequest, company_id: int) -> dict[str, Any]:
    row = get_object_or_404(CharteringCompany.objects.select_related("holder__company"), pk=company_id)
    state = crc_state(row, timezone.localdate())
    return {
        "id": row.pk,
        "cnpj": row.party.cnpj,
        "name": row.party.legal_name,
        "crc_number": state.crc.number if state.crc else None,
        "crc_status": state.status,
        "modalities": state.modalities,
        "valid_until": state.crc.valid_until.isoformat() if state.crc else None,
    }


@router.get("/trips/{trip_id}", response=TripOut, exclude_unset=True)
def trip(request: HttpRequest, trip_id: int, passengers: bool = False) -> dict[str, Any]:
    """A trip's manifest; `passengers=true` adds the list (company, inspectors, managers; audited)."""
    row = get_object_or_404(Trip.objects.select_related("company", "vehicle", "crc"), pk=trip_id)
    data: dict[str, Any] = {
        "id": row.pk,
        "company_id": row.company_id,
        "crc_number": row.crc.number,
        "modality": row.modality,
        "plate": row.vehicle.plate,
        "origin": row.origin,
        "destination": row.destination,
        "departs_at": row.departs_at.isoformat(),
        "returns_at": row.returns_at.isoformat() if row.returns_at else None,
        "status": row.status,
        "passenger_count": row.passenger_count,
        "list_purged_on": row.list_purged_on.isoformat() if row.list_purged_on else None,
    }
    if passengers:
        access = getattr(request, "access", None)
        if not permissions.can_see_passengers(access, row.company):
            raise HttpError(403, "Lista de passageiros: somente a empresa, os fiscais e os gestores.")
        data["passengers"] = [
            {"name": p.name, "document": p.document}
            for p in privacy.open_list(user=request.user, access=access, trip=row, channel="api")
        ]
    return data
