"""REST endpoints of the lines app (mounted at /api/lines): lines and their versions, approval acts,
service orders (with the law's checks, also without writing), the order in force on a date (what
an infraction notice of that date is judged against) and the import of the bus GTFS. Same scoping
and permissions as the screens."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import File, Form, Router, Schema, Status
from ninja.errors import HttpError
from ninja.files import UploadedFile

from lotacao.core.models import Jurisdiction
from lotacao.councils.selectors import resolution_by_id
from lotacao.inspections import permissions
from lotacao.lines import busnet, selectors, services
from lotacao.lines.models import LineVersion, Stop
from lotacao.registry.models import Line

router = Router(tags=["linhas"])
ROLES = ("gestor", "atendente")


def _require(request: HttpRequest, jurisdiction: str, roles: tuple[str, ...] = ROLES) -> None:
    if not permissions.allowed(getattr(request, "access", None), jurisdiction, roles):
        raise HttpError(403, "Seu perfil não permite esta ação nesta jurisdição.")


class StopIn(Schema):
    name: str
    lat: float
    lon: float
    kind: str = "stop"


class VersionIn(Schema):
    shape: str
    grounds: list[str] = []
    region: str = ""
    origin: str
    destination: str
    itinerary: list[list[float]]  # [[lon, lat], ...]
    stops: list[StopIn]
    description: str = ""
    study: str = ""
    reason: str = "Nova versão da linha pela API"


class ApproveIn(Schema):
    act: str
    approved_on: dt.date
    valid_from: dt.date
    reason: str = "Aprovação registrada pela API"
    resolution_id: int | None = None  # the council's resolution, where the law requires one


class PeriodIn(Schema):
    day_type: str
    first: int | None = None  # minutes from the service day's midnight (may pass 1440)
    last: int | None = None
    headway: int | None = None
    departures: list[int] = []


class OrderIn(Schema):
    periods: list[PeriodIn]
    fleet: int
    trip_minutes: int
    valid_from: dt.date
    act: str
    kind: str = "regular"
    cause: str = ""
    valid_until: dt.date | None = None
    vehicle_ids: list[int] = []
    terminal_capacity: int | None = None
    notes: str = ""
    both_directions: bool = False
    reason: str = "Ordem de serviço emitida pela API"
    resolution_id: int | None = None  # the council's resolution, where the law requires one


class CheckIn(Schema):
    periods: list[PeriodIn]
    valid_from: dt.date
    trip_minutes: int | None = None  # the van's trip time: its times at a shared stretch (Maricá)


class PeriodOut(Schema):
    day_type: str
    day_label: str
    first: str  # "06:00", or "04:00 (dia seguinte)" past the service day's midnight
    last: str
    until: str
    headway: int | None
    departures: list[str]
    trips: int


class OrderSummaryOut(Schema):
    """A service order as the law reads it (lotacao.lines.selectors.order_summary)."""

    label: str
    citation: str
    number: int
    kind: str
    cause: str
    valid_from: dt.date
    valid_until: dt.date | None
    act: str
    fleet: int
    trip_minutes: int
    terminal_capacity: int | None
    periods: list[PeriodOut]
    version: int


class ServiceOrderOut(OrderSummaryOut):
    vehicles: list[str]  # plates as printed


class LineRowOut(Schema):
    id: int
    jurisdiction: str
    code: str
    name: str
    version_in_force: int | None


class StopOut(Schema):
    name: str
    kind: str
    lat: float
    lon: float


class VersionOut(Schema):
    number: int
    status: str
    shape: str
    grounds: list[str]
    region: str
    origin: str
    destination: str
    itinerary: list[list[float]]  # [[lon, lat], ...]
    stops: list[StopOut]
    valid_from: dt.date | None
    approval_act: str
    approval_body: str
    checks: list[dict[str, Any]]


class LineDetailOut(Schema):
    id: int
    jurisdiction: str
    code: str
    name: str
    versions: list[VersionOut]


class FindingOut(Schema):
    rule: str
    severity: str  # "error" or "missing" (a value the law leaves to the agency, not given)
    message: str
    citation: str


class FindingsOut(Schema):
    findings: list[FindingOut]


class BusNetworkOut(Schema):
    id: int
    report: dict[str, Any]  # what was read: routes, stops, days and what was skipped


def _line(pk: int) -> Line:
    line: Line = get_object_or_404(Line.objects.all(), pk=pk)
    return line


def _version_out(v: LineVersion) -> dict[str, Any]:
    return {
        "number": v.number,
        "status": v.status,
        "shape": v.shape,
        "grounds": v.grounds,
        "region": v.region,
        "origin": v.origin,
        "destination": v.destination,
        "itinerary": v.itinerary,
        "stops": [
            {"name": s.name, "kind": s.kind, "lat": s.lat, "lon": s.lon}
            for s in Stop.objects.filter(version=v).order_by("sequence")
        ],
        "valid_from": v.valid_from,
        "approval_act": v.approval_act,
        "approval_body": v.approval_body,
        "checks": v.checks,
    }


@router.get("/lines", response=list[LineRowOut])
def list_lines(request: HttpRequest) -> list[dict[str, Any]]:
    today = timezone.localdate()
    out = []
    for line in Line.objects.order_by("jurisdiction_id", "code"):
        version = selectors.version_in_force(line, today)
        out.append(
            {
                "id": line.pk,
                "jurisdiction": line.jurisdiction_id,
                "code": line.code,
                "name": line.name,
                "version_in_force": version.number if version else None,
            }
        )
    return out


@router.get("/lines/{line_id}", response=LineDetailOut)
def get_line(request: HttpRequest, line_id: int) -> dict[str, Any]:
    line = _line(line_id)
    versions = LineVersion.objects.filter(line=line).order_by("-number")
    return {
        "id": line.pk,
        "jurisdiction": line.jurisdiction_id,
        "code": line.code,
        "name": line.name,
        "versions": [_version_out(v) for v in versions],
    }


@router.get("/lines/{line_id}/service-order", response=ServiceOrderOut)
def service_order_on(request: HttpRequest, line_id: int, on: dt.date | None = None) -> dict[str, Any]:
    """The service order in force on `on` (default today): what a notice of that date is judged
    against."""
    line = _line(line_id)
    order = selectors.service_order_in_force(line, on or timezone.localdate())
    if order is None:
        raise HttpError(404, "A linha não tinha ordem de serviço em vigor nessa data.")
    summary = selectors.order_summary(order)
    assert summary is not None
    return summary


@router.post("/lines/{line_id}/versions", response={201: VersionOut})
def draft_version(request: HttpRequest, line_id: int, payload: VersionIn) -> Status[dict[str, Any]]:
    line = _line(line_id)
    _require(request, line.jurisdiction_id)
    data = payload.dict()
    data["stops"] = [dict(s) for s in data["stops"]]
    version = services.draft_version(actor=request.user, line=line, **data)
    return Status(201, _version_out(version))


@router.post("/lines/{line_id}/versions/{number}/approve", response=VersionOut)
def approve(request: HttpRequest, line_id: int, number: int, payload: ApproveIn) -> dict[str, Any]:
    line = _line(line_id)
    _require(request, line.jurisdiction_id, ("gestor",))
    version = get_object_or_404(LineVersion.objects.filter(line=line), number=number)
    data = payload.dict()
    resolution = resolution_by_id(line.jurisdiction_id, data.pop("resolution_id"))
    done = services.approve_version(actor=request.user, version=version, resolution=resolution, **data)
    return _version_out(done)


@router.post("/lines/{line_id}/service-orders/check", response=FindingsOut)
def check_order(request: HttpRequest, line_id: int, payload: CheckIn) -> dict[str, Any]:
    """The law's findings for these periods, without writing anything."""
    line = _line(line_id)
    periods = services.period_data([p.dict() for p in payload.periods])
    findings = services.order_findings_for(line, payload.valid_from, periods, payload.trip_minutes)
    return {"findings": [f.as_dict() for f in findings]}


@router.post("/lines/{line_id}/service-orders", response={201: ServiceOrderOut})
def issue_order(request: HttpRequest, line_id: int, payload: OrderIn) -> Status[dict[str, Any]]:
    from lotacao.registry.models import Vehicle

    line = _line(line_id)
    _require(request, line.jurisdiction_id)
    data = payload.dict()
    vehicles = list(Vehicle.objects.filter(pk__in=data.pop("vehicle_ids")))
    resolution = resolution_by_id(line.jurisdiction_id, data.pop("resolution_id"))
    order = services.issue_service_order(
        actor=request.user,
        line=line,
        vehicles=vehicles,
        periods=data.pop("periods"),
        resolution=resolution,
        **data,
    )
    summary = selectors.order_summary(order)
    assert summary is not None
    return Status(201, summary)


@router.post("/bus-networks", response={201: BusNetworkOut})
def import_bus_network(
    request: HttpRequest,
    jurisdiction: Form[str],
    file: File[UploadedFile],
    reason: Form[str] = "Importação da rede de ônibus pela API",
) -> Status[dict[str, Any]]:
    _require(request, jurisdiction)
    found = get_object_or_404(Jurisdiction.objects.all(), code=jurisdiction)
    network = busnet.import_upload(actor=request.user, jurisdiction=found, upload=file, reason=reason)
    return Status(201, {"id": network.pk, "report": network.report})
