"""REST endpoints of the inspections app (mounted at /api/inspections): vehicles' insurance,
inspections (schedule, record the result), seals and the vehicle's legal status. Same scoping and
permissions as the screens: reads through scoped managers, writes by role (fiscal may inspect)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.core.api_schema import file_response
from lotacao.inspections import permissions, rules, selectors, services
from lotacao.inspections.models import Inspection, InsurancePolicy, ProvisionalAuthorization, Seal
from lotacao.inspections.pdf import seal_pdf
from lotacao.registry.models import Vehicle

router = Router(tags=["vistorias"])


class InsuranceIn(Schema):
    insurer: str
    number: str
    valid_from: dt.date
    valid_until: dt.date
    civil_liability: Decimal | None = None
    death_per_passenger: Decimal | None = None
    disability_per_passenger: Decimal | None = None
    third_party: Decimal | None = None
    reason: str = "Registro de apólice pela API"


class InsuranceOut(Schema):
    id: int
    vehicle_id: int
    insurer: str
    number: str
    valid_from: dt.date
    valid_until: dt.date
    coverage: dict[str, str]
    citations: list[str]


class ScheduleIn(Schema):
    scheduled_for: dt.date
    kind: str = "annual"
    place: str = ""
    reason: str = "Agendamento de vistoria pela API"


class ResultIn(Schema):
    performed_on: dt.date
    checklist: dict[str, bool] = {}
    faults: list[str] = []
    notes: str = ""
    representation_due: dt.date | None = None
    reason: str = "Registro de vistoria pela API"


class FaultNoticeOut(Schema):
    id: int
    number: str
    issued_on: dt.date
    faults: list[str]
    representation_due: dt.date
    resolved_on: dt.date | None


class InspectionOut(Schema):
    id: int
    vehicle_id: int
    kind: str
    status: str
    scheduled_for: dt.date
    performed_on: dt.date | None
    place: str
    checklist: list[dict[str, Any]]
    faults: list[str]
    citations: list[str]
    notice: FaultNoticeOut | None = None
    seal_id: int | None = None


class SealOut(Schema):
    id: int
    vehicle_id: int
    number: str
    issued_on: dt.date
    valid_until: dt.date
    citations: list[str]
    pdf_url: str


class ChecklistItem(Schema):
    id: str
    label: str
    cite: str


class StatusOut(Schema):
    vehicle_id: int
    plate: str
    seal_valid_until: dt.date | None
    insurance_valid_until: dt.date | None
    age_limit_years: int | None
    age_limit_reached_on: dt.date | None
    replacement_due: dt.date | None
    reasons: list[str]
    checklist: list[ChecklistItem] | None
    checklist_note: str


def _insurance(p: InsurancePolicy) -> InsuranceOut:
    return InsuranceOut(
        id=p.pk,
        vehicle_id=p.vehicle_id,
        insurer=p.insurer,
        number=p.number,
        valid_from=p.valid_from,
        valid_until=p.valid_until,
        coverage=p.coverage(),
        citations=p.citations,
    )


def _inspection(i: Inspection) -> InspectionOut:
    notice = getattr(i, "notice", None) if i.status == Inspection.Status.FAILED else None
    seal = Seal.unscoped.filter(inspection=i).values_list("pk", flat=True).first()
    return InspectionOut(
        id=i.pk,
        vehicle_id=i.vehicle_id,
        kind=i.kind,
        status=i.status,
        scheduled_for=i.scheduled_for,
        performed_on=i.performed_on,
        place=i.place,
        checklist=i.checklist,
        faults=i.faults,
        citations=i.citations,
        notice=FaultNoticeOut(
            id=notice.pk,
            number=notice.number,
            issued_on=notice.issued_on,
            faults=notice.faults,
            representation_due=notice.representation_due,
            resolved_on=notice.resolved_on,
        )
        if notice is not None
        else None,
        seal_id=seal,
    )


def _seal(s: Seal) -> SealOut:
    return SealOut(
        id=s.pk,
        vehicle_id=s.vehicle_id,
        number=s.number,
        issued_on=s.issued_on,
        valid_until=s.valid_until,
        citations=s.citations,
        pdf_url=reverse("api:seal_pdf", kwargs={"seal_id": s.pk}),
    )


class ProvisionalAuthorizationIn(Schema):
    tender_act: str
    selected_on: dt.date
    reason: str


class ProvisionalEndIn(Schema):
    reason: str


class ProvisionalAuthorizationOut(Schema):
    id: int
    vehicle_id: int
    tender_act: str
    selected_on: dt.date
    granted_on: dt.date
    valid_until: dt.date
    status: str
    status_label: str
    ended_on: dt.date | None
    citation: str


def _provisional(row: ProvisionalAuthorization) -> ProvisionalAuthorizationOut:
    return ProvisionalAuthorizationOut(
        id=row.pk,
        vehicle_id=row.vehicle_id,
        tender_act=row.tender_act,
        selected_on=row.selected_on,
        granted_on=row.granted_on,
        valid_until=row.valid_until,
        status=row.status,
        status_label=row.get_status_display(),
        ended_on=row.ended_on,
        citation=row.citation,
    )


def _require(request: HttpRequest, jurisdiction: str, roles: tuple[str, ...]) -> None:
    if not permissions.allowed(getattr(request, "access", None), jurisdiction, roles):
        raise HttpError(403, "Seu perfil não permite esta ação nesta jurisdição.")


def _vehicle(vehicle_id: int) -> Vehicle:
    vehicle: Vehicle = get_object_or_404(Vehicle.objects.all(), pk=vehicle_id)
    return vehicle


@router.get("/vehicles/{vehicle_id}/status", response=StatusOut)
def vehicle_status(request: HttpRequest, vehicle_id: int) -> StatusOut:
    vehicle = _vehicle(vehicle_id)
    today = timezone.localdate()
    info = selectors.public_vehicle_info(vehicle, today)
    age = rules.age_limit(vehicle, today)
    items, cite, why = services.checklist_for(vehicle.jurisdiction_id, today)
    return StatusOut(
        vehicle_id=vehicle.pk,
        plate=vehicle.plate,
        seal_valid_until=info["seal_valid_until"],
        insurance_valid_until=info["insurance_valid_until"],
        age_limit_years=age.limit_years,
        age_limit_reached_on=age.reached_on,
        replacement_due=age.replacement_due,
        reasons=info["reasons"],
        checklist=[ChecklistItem(**item) for item in items] if items is not None else None,
        checklist_note=why or cite,
    )


@router.get("/vehicles/{vehicle_id}/insurance", response=list[InsuranceOut])
def list_insurance(request: HttpRequest, vehicle_id: int) -> list[InsuranceOut]:
    vehicle = _vehicle(vehicle_id)
    return [_insurance(p) for p in InsurancePolicy.objects.filter(vehicle=vehicle)]


@router.post("/vehicles/{vehicle_id}/insurance", response={201: InsuranceOut})
def add_insurance(request: HttpRequest, vehicle_id: int, payload: InsuranceIn) -> Status[InsuranceOut]:
    vehicle = _vehicle(vehicle_id)
    _require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
    policy = services.register_insurance(actor=request.user, vehicle=vehicle, **payload.dict())
    return Status(201, _insurance(policy))


@router.get("/vehicles/{vehicle_id}/inspections", response=list[InspectionOut])
def list_inspections(request: HttpRequest, vehicle_id: int) -> list[InspectionOut]:
    vehicle = _vehicle(vehicle_id)
    return [_inspection(i) for i in Inspection.objects.filter(vehicle=vehicle).select_related("notice")]


@router.post("/vehicles/{vehicle_id}/inspections", response={201: InspectionOut})
def schedule(request: HttpRequest, vehicle_id: int, payload: ScheduleIn) -> Status[InspectionOut]:
    vehicle = _vehicle(vehicle_id)
    _require(request, vehicle.jurisdiction_id, permissions.INSPECTION_ROLES)
    inspection = services.schedule_inspection(actor=request.user, vehicle=vehicle, **payload.dict())
    return Status(201, _inspection(inspection))


@router.get("/inspections/{inspection_id}", response=InspectionOut)
def get_inspection(request: HttpRequest, inspection_id: int) -> InspectionOut:
    return _inspection(get_object_or_404(Inspection.objects.all(), pk=inspection_id))


@router.post("/inspections/{inspection_id}/result", response=InspectionOut)
def record_result(request: HttpRequest, inspection_id: int, payload: ResultIn) -> InspectionOut:
    inspection = get_object_or_404(Inspection.objects.all(), pk=inspection_id)
    _require(request, inspection.jurisdiction_id, permissions.INSPECTION_ROLES)
    done = services.record_inspection(actor=request.user, inspection=inspection, **payload.dict())
    return _inspection(Inspection.objects.select_related("notice").get(pk=done.pk))


@router.get("/vehicles/{vehicle_id}/seals", response=list[SealOut])
def list_seals(request: HttpRequest, vehicle_id: int) -> list[SealOut]:
    vehicle = _vehicle(vehicle_id)
    return [_seal(s) for s in Seal.objects.filter(vehicle=vehicle)]


@router.post("/vehicles/{vehicle_id}/seals", response={201: SealOut})
def issue(request: HttpRequest, vehicle_id: int, reason: str = "Emissão de selo pela API") -> Status[SealOut]:
    vehicle = _vehicle(vehicle_id)
    _require(request, vehicle.jurisdiction_id, permissions.INSPECTION_ROLES)
    return Status(201, _seal(services.issue_seal(actor=request.user, vehicle=vehicle, reason=reason)))


@router.get(
    "/seals/{seal_id}/pdf",
    url_name="seal_pdf",
    openapi_extra=file_response("O selo de vistoria (PDF).", "application/pdf"),
)
def seal_as_pdf(request: HttpRequest, seal_id: int) -> HttpResponse:
    seal = get_object_or_404(Seal.objects.select_related("vehicle"), pk=seal_id)
    public = request.build_absolute_uri(reverse("public:vehicle", kwargs={"plate": seal.vehicle.plate}))
    return HttpResponse(seal_pdf(seal, public), content_type="application/pdf")


@router.get("/vehicles/{vehicle_id}/provisional-authorizations", response=list[ProvisionalAuthorizationOut])
def list_provisionals(request: HttpRequest, vehicle_id: int) -> list[ProvisionalAuthorizationOut]:
    """The provisional authorizations of an over-age vehicle (Maricá art. 25, § 6º)."""
    vehicle = _vehicle(vehicle_id)
    return [_provisional(row) for row in ProvisionalAuthorization.objects.filter(vehicle=vehicle)]


@router.post("/vehicles/{vehicle_id}/provisional-authorizations", response={201: ProvisionalAuthorizationOut})
def grant_provisional(
    request: HttpRequest, vehicle_id: int, payload: ProvisionalAuthorizationIn
) -> Status[ProvisionalAuthorizationOut]:
    """Grant it to the holder selected in the tender; refused where the law has none, for a vehicle
    not over the law's years at the selection, after the term, or when one is in force."""
    vehicle = _vehicle(vehicle_id)
    _require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
    row = services.grant_provisional(actor=request.user, vehicle=vehicle, **payload.dict())
    return Status(201, _provisional(row))


@router.post("/provisional-authorizations/{authorization_id}/end", response=ProvisionalAuthorizationOut)
def end_provisional(
    request: HttpRequest, authorization_id: int, payload: ProvisionalEndIn
) -> ProvisionalAuthorizationOut:
    """End the one in force: the vehicle was replaced."""
    row = get_object_or_404(ProvisionalAuthorization.objects.all(), pk=authorization_id)
    _require(request, row.jurisdiction_id, permissions.VEHICLE_ROLES)
    ended = services.end_provisional(actor=request.user, authorization=row, reason=payload.reason)
    return _provisional(ended)

