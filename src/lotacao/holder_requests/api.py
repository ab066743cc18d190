"""The API of lotacao.holder_requests (mounted in lotacao.api.main at the root: each
operation's path is whole).

The holder lists, files and reads their own requests (and asks first what the law requires);
the agency's gestor and atendente decide them. Same scope and services as the screens.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.councils.selectors import resolution_by_id
from lotacao.permits.models import Permit
from lotacao.registry.models import Holder, Vehicle

from . import procedures, services
from .models import InspectionSlot, Request

router = Router(tags=["requerimentos"])
KINDS_VIA_API = tuple(k for k in Request.Kind.values if k != Request.Kind.DOCUMENT)


class RequirementOut(Schema):
    label: str
    met: bool
    detail: str
    citation: str


class RequirementsOut(Schema):
    kind: str
    can_file: bool
    requirements: list[RequirementOut]
    notes: list[RequirementOut]


class RequestOut(Schema):
    id: int
    protocol: str
    kind: str
    kind_label: str
    status: str
    status_label: str
    filed_on: dt.date
    statement: str
    permit_id: int | None
    vehicle_id: int | None
    document_id: int | None
    slot_starts_at: dt.datetime | None
    requirements: list[RequirementOut]
    decided_on: dt.date | None
    decision_reasons: str
    decision_citation: str
    effect: str


class SubstituteIn(Schema):
    plate: str
    category: str
    manufacture_year: int
    seats: int
    doors: int
    decharacterization_proof: str = ""


class RequestIn(Schema):
    kind: str
    statement: str = ""
    permit_id: int | None = None
    vehicle_id: int | None = None
    slot_id: int | None = None
    substitute: SubstituteIn | None = None


class DecisionIn(Schema):
    approve: bool
    reasons: str
    citation: str = ""
    approval_reference: str = ""
    users_heard: bool = False
    valid_until: dt.date | None = None
    resolution_id: int | None = None  # the council's resolution, where the law requires one


def _requirements(items: list[dict[str, Any]]) -> list[RequirementOut]:
    return [
        RequirementOut(
            label=str(i.get("label", "")),
            met=bool(i.get("met")),
            detail=str(i.get("detail", "")),
            citation=str(i.get("citation", "")),
        )
        for i in items
    ]


def _out(r: Request) -> RequestOut:
    return RequestOut(
        id=r.pk,
        protocol=r.protocol,
        kind=r.kind,
        kind_label=r.get_kind_display(),
        status=r.status,
        status_label=r.get_status_display(),
        filed_on=r.filed_on,
        statement=r.statement,
        permit_id=r.permit_id,
        vehicle_id=r.vehicle_id,
        document_id=r.document_id,
        slot_starts_at=r.slot.starts_at if r.slot_id and r.slot else None,
        requirements=_requirements(r.requirements),
        decided_on=r.decided_on,
        decision_reasons=r.decision_reasons,
        decision_citation=r.decision_citation,
        effect=r.effect,
    )


def _holder(request: HttpRequest) -> Holder:
    access = getattr(request, "access", None)
    if access is None or not access.is_holder:
        raise HttpError(403, "Somente o permissionário, com a conta dele, protocola requerimentos.")
    holder: Holder = get_object_or_404(Holder.objects.all(), pk=access.holder_id)
    return holder


def _kind(kind: str) -> str:
    if kind == Request.Kind.DOCUMENT:
        raise HttpError(422, "O envio de documento é feito pelo portal, com o arquivo anexado.")
    if kind not in KINDS_VIA_API:
        raise HttpError(422, f"Requerimento desconhecido: {kind}.")
    return kind


@router.get("/requests", response=list[RequestOut])
def list_requests(request: HttpRequest) -> list[RequestOut]:
    """The signed-in holder's requests, or the agency's for its staff (newest first)."""
    rows = Request.objects.select_related("slot").order_by("-filed_on", "-id")[:500]
    return [_out(r) for r in rows]


@router.get("/requests/requirements", response=RequirementsOut)
def requirements(
    request: HttpRequest, kind: str, permit_id: int | None = None, vehicle_id: int | None = None
) -> RequirementsOut:
    """What the law requires before the holder can file a request of `kind`, and whether it is met."""
    holder = _holder(request)
    kind = _kind(kind)
    permit = Permit.objects.filter(holder=holder, pk=permit_id).first() if permit_id else None
    vehicle = Vehicle.objects.filter(holder=holder, pk=vehicle_id).first() if vehicle_id else None
    result = procedures.check(kind, holder=holder, permit=permit, vehicle=vehicle)
    return RequirementsOut(
        kind=kind,
        can_file=result.ok,
        requirements=_requirements(result.as_list()),
        notes=_requirements(
            [
                {"label": n.label, "met": True, "detail": n.detail, "citation": n.citation}
                for n in result.notes
            ]
        ),
    )


@router.post("/requests", response={201: RequestOut})
def file_request(request: HttpRequest, payload: RequestIn) -> Status[RequestOut]:
    """File a request (application, renewal, vehicle substitution, inspection booking); 422 with
    every requirement of the law not met."""
    holder = _holder(request)
    kind = _kind(payload.kind)
    permit = Permit.objects.filter(holder=holder, pk=payload.permit_id).first() if payload.permit_id else None
    vehicle = (
        Vehicle.objects.filter(holder=holder, pk=payload.vehicle_id).first() if payload.vehicle_id else None
    )
    slot = (
        InspectionSlot.unscoped.filter(jurisdiction_id=holder.jurisdiction_id, pk=payload.slot_id).first()
        if payload.slot_id
        else None
    )
    filed = services.file_request(
        actor=request.user,
        holder=holder,
        kind=kind,
        statement=payload.statement,
        permit=permit,
        vehicle=vehicle,
        slot=slot,
        substitute=payload.substitute.dict() if payload.substitute else None,
    )
    return Status(201, _out(filed))


@router.get("/requests/{request_id}", response=RequestOut)
def get_request(request: HttpRequest, request_id: int) -> RequestOut:
    return _out(get_object_or_404(Request.objects.select_related("slot"), pk=request_id))


@router.post("/requests/{request_id}/decision", response=RequestOut)
def decide(request: HttpRequest, request_id: int, payload: DecisionIn) -> RequestOut:
    """The agency's decision (gestor or atendente of the request's jurisdiction), with reasons."""
    obj = get_object_or_404(Request.objects.all(), pk=request_id)
    try:
        decided = services.decide_request(
            actor=request.user,
            request=obj,
            approve=payload.approve,
            reasons=payload.reasons,
            citation=payload.citation,
            approval_reference=payload.approval_reference,
            users_heard=payload.users_heard,
            valid_until=payload.valid_until,
            resolution=resolution_by_id(obj.jurisdiction_id, payload.resolution_id),
        )
    except PermissionDenied as denied:
        raise HttpError(403, str(denied)) from denied
    return _out(decided)
