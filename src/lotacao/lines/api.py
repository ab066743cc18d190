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


# --- the life of a line: change requests, the hearing, the decision, the end, temporary changes ---


class ChangeRequestIn(Schema):
    jurisdiction: str
    kind: str  # itinerary | stops | timetable | fleet | create | end
    origin: str = "agency"  # public | holder | agency
    line_id: int | None = None
    holder_id: int | None = None
    requester_name: str = ""
    requester_contact: str = ""
    proposal: str
    reasons: str
    study: str = ""


class LineRequestAnswerOut(Schema):
    party: str
    holder_id: int | None
    entity_id: int | None
    agrees: bool
    text: str
    answered_on: dt.date


class ChangeRequestOut(Schema):
    id: int
    number: int
    jurisdiction: str
    line_id: int | None
    kind: str
    origin: str
    status: str
    status_label: str
    proposal: str
    reasons: str
    study: str
    has_study_file: bool
    filed_on: dt.date
    hearing_opened_on: dt.date | None
    hearing_until: dt.date | None
    decided_on: dt.date | None
    act: str
    act_date: dt.date | None
    effective_on: dt.date | None
    resolution_id: int | None
    # the line's draft version an approved change of itinerary or stops led to, while it waits
    draft_version: int | None = None
    law: str  # what the law says about the hearing (or the reading where it is silent)
    answers: list[LineRequestAnswerOut]


class LineRequestHearingIn(Schema):
    until: dt.date
    reason: str = "Oitiva aberta pela API"


class LineRequestAnswerIn(Schema):
    party: str = ""
    holder_id: int | None = None
    entity_id: int | None = None
    agrees: bool
    text: str
    answered_on: dt.date | None = None


class LineRequestStepIn(Schema):
    reason: str


class LineRequestStudyIn(Schema):
    study: str
    reason: str = "Estudo anexado pela API"


class LineRequestDecisionIn(Schema):
    approve: bool
    reasons: str
    act: str
    act_date: dt.date
    effective_on: dt.date | None = None
    resolution_id: int | None = None  # the council's resolution, where the law submits it (councils)


class LineEndIn(Schema):
    effective_on: dt.date
    act: str
    act_date: dt.date
    reasons: str
    fate: str = ""  # move | end (where the law lets staff choose)
    target_line_id: int | None = None
    request_id: int | None = None
    resolution_id: int | None = None


class LineEndOut(Schema):
    line_id: int
    effective_on: dt.date
    fate: str
    fate_reading: str
    target_line_id: int | None
    act: str
    act_date: dt.date
    done_on: dt.date | None


class LineTemporaryIn(Schema):
    cause: str  # works | event | other
    description: str
    starts_on: dt.date
    ends_on: dt.date
    act: str
    suspended: bool = False
    itinerary: list[list[float]] = []
    stops: list[StopIn] = []
    reason: str = "Alteração temporária registrada pela API"


class LineTemporaryOut(Schema):
    id: int
    cause: str
    description: str
    starts_on: dt.date
    ends_on: dt.date
    suspended: bool
    itinerary: list[list[float]]
    stops: list[dict[str, Any]]
    act: str
    cancelled: bool


def _request_out(req: Any) -> dict[str, Any]:
    from lotacao.lines import life
    from lotacao.lines.models import HearingAnswer

    return {
        "id": req.pk,
        "number": req.number,
        "jurisdiction": req.jurisdiction_id,
        "line_id": req.line_id,
        "kind": req.kind,
        "origin": req.origin,
        "status": req.status,
        "status_label": req.get_status_display(),
        "proposal": req.proposal,
        "reasons": req.reasons,
        "study": req.study,
        "has_study_file": bool(req.study_file),
        "filed_on": req.filed_on,
        "hearing_opened_on": req.hearing_opened_on,
        "hearing_until": req.hearing_until,
        "decided_on": req.decided_on,
        "act": req.act,
        "act_date": req.act_date,
        "effective_on": req.effective_on,
        "resolution_id": req.resolution_id,
        "draft_version": getattr(life.drafted_version(req), "number", None),
        "law": life.hearing_rule(req.jurisdiction_id, timezone.localdate()).text(),
        "answers": [
            {
                "party": a.party,
                "holder_id": a.holder_id,
                "entity_id": a.entity_id,
                "agrees": a.agrees,
                "text": a.text,
                "answered_on": a.answered_on,
            }
            for a in HearingAnswer.objects.filter(request=req)
        ],
    }


def _resolution(pk: int | None) -> Any:
    from lotacao.councils.models import Resolution

    return get_object_or_404(Resolution.objects.all(), pk=pk) if pk else None


def _request(pk: int) -> Any:
    from lotacao.lines.models import ChangeRequest

    return get_object_or_404(ChangeRequest.objects.all(), pk=pk)


@router.get("/change-requests", response=list[ChangeRequestOut])
def list_change_requests(request: HttpRequest, line_id: int | None = None) -> list[dict[str, Any]]:
    from lotacao.lines.models import ChangeRequest

    rows = ChangeRequest.objects.order_by("-filed_on", "-number")
    if line_id is not None:
        rows = rows.filter(line_id=line_id)
    return [_request_out(r) for r in rows[:200]]


@router.post("/change-requests", response={201: ChangeRequestOut})
def file_change_request(request: HttpRequest, payload: ChangeRequestIn) -> Status[dict[str, Any]]:
    from lotacao.lines import life
    from lotacao.registry.models import Holder

    _require(request, payload.jurisdiction)
    line = _line(payload.line_id) if payload.line_id is not None else None
    holder = (
        get_object_or_404(Holder.objects.all(), pk=payload.holder_id)
        if payload.holder_id is not None
        else None
    )
    req = life.file_request(
        actor=request.user,
        jurisdiction_code=payload.jurisdiction,
        kind=payload.kind,
        origin=payload.origin,
        line=line,
        holder=holder,
        requester_name=payload.requester_name,
        requester_contact=payload.requester_contact,
        proposal=payload.proposal,
        reasons=payload.reasons,
        study=payload.study,
    )
    return Status(201, _request_out(req))


@router.get("/change-requests/{request_id}", response=ChangeRequestOut)
def get_change_request(request: HttpRequest, request_id: int) -> dict[str, Any]:
    return _request_out(_request(request_id))


@router.post("/change-requests/{request_id}/hearing", response=ChangeRequestOut)
def open_change_hearing(
    request: HttpRequest, request_id: int, payload: LineRequestHearingIn
) -> dict[str, Any]:
    from lotacao.lines import life

    req = _request(request_id)
    _require(request, req.jurisdiction_id)
    return _request_out(
        life.open_hearing(actor=request.user, request=req, until=payload.until, reason=payload.reason)
    )


@router.post("/change-requests/{request_id}/answers", response={201: ChangeRequestOut})
def record_change_answer(
    request: HttpRequest, request_id: int, payload: LineRequestAnswerIn
) -> Status[dict[str, Any]]:
    from lotacao.lines import life
    from lotacao.registry.models import Company, Holder

    req = _request(request_id)
    _require(request, req.jurisdiction_id)
    holder = get_object_or_404(Holder.objects.all(), pk=payload.holder_id) if payload.holder_id else None
    entity = get_object_or_404(Company.objects.all(), pk=payload.entity_id) if payload.entity_id else None
    life.record_answer(
        actor=request.user,
        request=req,
        party=payload.party,
        agrees=payload.agrees,
        text=payload.text,
        on=payload.answered_on,
        holder=holder,
        entity=entity,
    )
    return Status(201, _request_out(_request(request_id)))


@router.post("/change-requests/{request_id}/study", response=ChangeRequestOut)
def attach_change_study(request: HttpRequest, request_id: int, payload: LineRequestStudyIn) -> dict[str, Any]:
    from lotacao.lines import life

    req = _request(request_id)
    _require(request, req.jurisdiction_id)
    return _request_out(
        life.attach_study(actor=request.user, request=req, study=payload.study, reason=payload.reason)
    )


@router.post("/change-requests/{request_id}/to-study", response=ChangeRequestOut)
def move_change_to_study(request: HttpRequest, request_id: int, payload: LineRequestStepIn) -> dict[str, Any]:
    from lotacao.lines import life

    req = _request(request_id)
    _require(request, req.jurisdiction_id)
    return _request_out(life.to_study(actor=request.user, request=req, reason=payload.reason))


@router.post("/change-requests/{request_id}/decision", response=ChangeRequestOut)
def decide_change_request(
    request: HttpRequest, request_id: int, payload: LineRequestDecisionIn
) -> dict[str, Any]:
    from lotacao.lines import life

    req = _request(request_id)
    _require(request, req.jurisdiction_id, ("gestor",))
    done = life.decide(
        actor=request.user,
        request=req,
        approve=payload.approve,
        reasons=payload.reasons,
        act=payload.act,
        act_date=payload.act_date,
        effective_on=payload.effective_on,
        resolution=_resolution(payload.resolution_id),
    )
    return _request_out(done)


def _end_out(e: Any) -> dict[str, Any]:
    return {
        "line_id": e.line_id,
        "effective_on": e.effective_on,
        "fate": e.fate,
        "fate_reading": e.fate_reading,
        "target_line_id": e.target_id,
        "act": e.act,
        "act_date": e.act_date,
        "done_on": e.done_on,
    }


@router.post("/lines/{line_id}/end", response={201: LineEndOut})
def end_line(request: HttpRequest, line_id: int, payload: LineEndIn) -> Status[dict[str, Any]]:
    from lotacao.lines import life

    line = _line(line_id)
    _require(request, line.jurisdiction_id, ("gestor",))
    target = _line(payload.target_line_id) if payload.target_line_id else None
    req = _request(payload.request_id) if payload.request_id else None
    ending = life.end_line(
        actor=request.user,
        line=line,
        effective_on=payload.effective_on,
        act=payload.act,
        act_date=payload.act_date,
        reasons=payload.reasons,
        fate=payload.fate,
        target=target,
        request=req,
        resolution=_resolution(payload.resolution_id),
    )
    return Status(201, _end_out(ending))


def _temporary_out(t: Any) -> dict[str, Any]:
    return {
        "id": t.pk,
        "cause": t.cause,
        "description": t.description,
        "starts_on": t.starts_on,
        "ends_on": t.ends_on,
        "suspended": t.suspended,
        "itinerary": t.itinerary,
        "stops": t.stops,
        "act": t.act,
        "cancelled": t.cancelled,
    }


@router.get("/lines/{line_id}/temporary-changes", response=list[LineTemporaryOut])
def list_temporary_changes(request: HttpRequest, line_id: int) -> list[dict[str, Any]]:
    from lotacao.lines.models import TemporaryChange

    line = _line(line_id)
    return [_temporary_out(t) for t in TemporaryChange.objects.filter(line=line).order_by("starts_on")]


@router.post("/lines/{line_id}/temporary-changes", response={201: LineTemporaryOut})
def add_temporary_change(
    request: HttpRequest, line_id: int, payload: LineTemporaryIn
) -> Status[dict[str, Any]]:
    from lotacao.lines import life

    line = _line(line_id)
    _require(request, line.jurisdiction_id)
    change = life.add_temporary_change(
        actor=request.user,
        line=line,
        cause=payload.cause,
        description=payload.description,
        starts_on=payload.starts_on,
        ends_on=payload.ends_on,
        act=payload.act,
        reason=payload.reason,
        suspended=payload.suspended,
        itinerary=payload.itinerary,
        stops=[dict(s) for s in payload.stops],
    )
    return Status(201, _temporary_out(change))
