"""The API of lotacao.ombudsman (mounted in lotacao.api.main at the root: each operation's path is whole).

Public (no authentication, never personal data in an answer, rate-limited per address):
- `POST /public/complaints` files a manifestation (Lei 13.460/2017): 201 with the protocol, the
  access code (shown only here) and the due date of the answer (art. 16: 30 days);
- `GET /public/complaints/{protocol}?code=…` its status and answer; 404 without the right code.
Staff (token or session, the ombudsman's roles): `/ombudsman/complaints` (the queue) and the steps.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from ninja import Field, Router, Schema, Status
from ninja.errors import HttpError

from lotacao.core.api_schema import ProblemDetail
from lotacao.ombudsman import permissions, selectors, services
from lotacao.ombudsman.limits import FilingLimit, FollowLimit
from lotacao.ombudsman.models import DESCRIPTION_MAX, PLACE_MAX, Complaint

router = Router(tags=["ouvidoria"])


class ComplaintIn(Schema):
    jurisdiction: str = Field(max_length=40)
    kind: str = Field(max_length=20, description="reclamacao, denuncia, sugestao, elogio ou solicitacao")
    description: str = Field(max_length=DESCRIPTION_MAX)
    plate: str = Field("", max_length=10)
    line: str = Field("", max_length=20)
    occurred_at: dt.datetime | None = None
    place: str = Field("", max_length=PLACE_MAX)
    contact: str = Field("", max_length=200, description="e-mail ou telefone, se quiser ser avisado")


class ReceiptOut(Schema):
    protocol: str
    access_code: str
    due: dt.date
    status: str


class PublicStatusOut(Schema):
    protocol: str
    jurisdiction: str
    kind: str
    kind_label: str
    status: str
    status_label: str
    received_on: dt.date
    due: dt.date
    extended: bool
    extension_reason: str
    plate: str
    line: str
    answered_on: dt.date | None
    answer: str
    measures: str


def _follow_url(request: HttpRequest) -> str:
    return request.build_absolute_uri(reverse("public:complaint_follow"))


@router.post(
    "/public/complaints",
    auth=None,
    response={201: ReceiptOut, 422: ProblemDetail},
    throttle=[FilingLimit()],
    url_name="public_complaint_file",
)
def file_complaint(request: HttpRequest, payload: ComplaintIn) -> Any:
    """File a manifestation. Identification is never required (art. 10, § 1º): `contact` is
    optional and never shown in any public answer. Keep the protocol and the access code."""
    complaint, code = services.file_complaint(
        jurisdiction=payload.jurisdiction,
        kind=payload.kind,
        description=payload.description,
        plate=payload.plate,
        line=payload.line,
        occurred_at=payload.occurred_at,
        place=payload.place,
        contact=payload.contact,
    )
    return Status(
        201,
        {
            "protocol": complaint.protocol,
            "access_code": services.display_code(code),
            "due": complaint.due_on,
            "status": complaint.status,
        },
    )


@router.get(
    "/public/complaints/{protocol}",
    auth=None,
    response={200: PublicStatusOut, 404: ProblemDetail},
    throttle=[FollowLimit()],
    url_name="public_complaint_status",
)
def complaint_status(request: HttpRequest, response: HttpResponse, protocol: str, code: str = "") -> Any:
    """The status and the answer of a manifestation, with its access code; 404 otherwise (the
    same answer whether the protocol exists or not)."""
    found = selectors.by_protocol_and_code(protocol, code)
    if found is None:
        raise HttpError(404, "Manifestação não encontrada: confira o protocolo e o código de acesso.")
    response["Cache-Control"] = "no-store"
    return selectors.public_status(found)


class StaffRowOut(Schema):
    id: int
    protocol: str
    jurisdiction: str
    kind: str
    channel: str
    status: str
    plate: str
    line: str | None
    received_at: dt.datetime
    due: dt.date
    extended: bool
    days_left: int


def _row(c: Complaint) -> dict[str, Any]:
    return {
        "id": c.pk,
        "protocol": c.protocol,
        "jurisdiction": c.jurisdiction_id,
        "kind": c.kind,
        "channel": c.channel,
        "status": c.status,
        "plate": c.plate,
        "line": c.line.code if c.line is not None else None,
        "received_at": c.received_at,
        "due": c.due_on,
        "extended": c.extended_on is not None,
        "days_left": (c.due_on - timezone.localdate()).days,
    }


def _own(request: HttpRequest, pk: int) -> Complaint:
    complaint: Complaint = get_object_or_404(Complaint.objects.select_related("line"), pk=pk)  # 404 outside
    if not permissions.allowed(
        getattr(request, "access", None), complaint.jurisdiction_id, permissions.QUEUE_ROLES
    ):
        raise HttpError(403, "Seu perfil não permite esta ação da ouvidoria nesta jurisdição.")
    return complaint


@router.get("/ombudsman/complaints", response=list[StaffRowOut])
def queue(request: HttpRequest, status: str = "") -> Any:
    """The ombudsman's queue (open manifestations by due date; `status` filters). No identity."""
    codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.QUEUE_ROLES)
    rows = selectors.queue(codes, status)
    return [_row(c) for c in rows[:500]]


class StepIn(Schema):
    action: str = Field(description="triage, forward, extend, answer ou close")
    note: str = Field("", max_length=services.ANSWER_MAX)
    unit: str = Field("", max_length=20)
    answer: str = Field("", max_length=services.ANSWER_MAX)
    measures: str = Field("", max_length=services.ANSWER_MAX)


@router.post("/ombudsman/complaints/{pk}/steps", response={200: StaffRowOut, 422: ProblemDetail})
def step(request: HttpRequest, pk: int, payload: StepIn) -> Any:
    """Take one step of the state table (ombudsman/states.py) on a manifestation."""
    complaint = _own(request, pk)
    user = request.user
    if payload.action == "triage":
        done = services.triage(actor=user, complaint=complaint, note=payload.note)
    elif payload.action == "forward":
        done = services.forward(actor=user, complaint=complaint, unit=payload.unit, note=payload.note)
    elif payload.action == "extend":
        done = services.extend(actor=user, complaint=complaint, reason=payload.note)
    elif payload.action == "answer":
        done = services.answer(
            actor=user,
            complaint=complaint,
            text=payload.answer,
            measures=payload.measures,
            follow_url=_follow_url(request),
        )
    elif payload.action == "close":
        done = services.close(actor=user, complaint=complaint, note=payload.note)
    else:
        raise HttpError(422, "Ação desconhecida: use triage, forward, extend, answer ou close.")
    return _row(done)
