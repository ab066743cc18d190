"""The councils API, mounted by lotacao.api.main at `/councils`.

- `GET /councils/gates/{code}`: the decisions the law of `code` submits to a council, with articles;
- `GET /councils`, `GET /councils/{id}`: councils in the user's scope, with seats and members;
- `POST /councils/{id}/members`, `/sessions`, `/resolutions`; `POST /councils/sessions/{id}/attendance`
  (answers what followed: mandates lost, seats passed to alternates or vacant);
- `GET /councils/{id}/resolutions`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from . import gates, permissions, services
from .models import Council, Member, Resolution, Seat, Session

router = Router(tags=["conselhos"])


class GateOut(Schema):
    key: str
    council: str
    kind: str
    label: str
    citation: str
    quote: str
    condition: str
    explanation: str


class MemberOut(Schema):
    id: int
    seat: int
    name: str
    role: str
    starts_on: dt.date
    ends_on: dt.date | None
    ended_on: dt.date | None
    end_reason: str


class SeatOut(Schema):
    id: int
    number: int
    represents: str
    vacant_since: dt.date | None


class CouncilOut(Schema):
    id: int
    jurisdiction: str
    key: str
    name: str
    acronym: str
    kind: str
    legal_basis: str
    seat_count: int | None
    mandate_months: int | None


class CouncilDetailOut(CouncilOut):
    seats: list[SeatOut]
    members: list[MemberOut]


class ResolutionOut(Schema):
    id: int
    kind: str
    number: int
    year: int
    dated_on: dt.date
    subject: str
    gate: str
    favorable: bool
    revoked_on: dt.date | None
    session_id: int | None
    citation: str


class SessionOut(Schema):
    id: int
    held_on: dt.date
    kind: str
    agenda: str


class ConsequenceOut(Schema):
    member_id: int
    message: str


class AttendanceResultOut(Schema):
    recorded: int
    consequences: list[ConsequenceOut]


class MemberIn(Schema):
    seat_id: int
    name: str
    role: str
    starts_on: dt.date
    ends_on: dt.date | None = None
    appointed_by: str = ""
    reason: str = "Membro cadastrado pela API"


class SessionIn(Schema):
    held_on: dt.date
    kind: str = "ordinaria"
    agenda: str
    reason: str = "Sessão aberta pela API"


class AttendanceEntryIn(Schema):
    member_id: int
    status: str
    justification: str = ""


class AttendanceIn(Schema):
    entries: list[AttendanceEntryIn]
    reason: str = "Presença registrada pela API"


class ResolutionIn(Schema):
    kind: str = "resolucao"
    number: int
    dated_on: dt.date
    subject: str
    text: str
    session_id: int | None = None
    gate: str = ""
    favorable: bool = True
    reason: str = "Resolução registrada pela API"


def _require(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    if not permissions.allowed(getattr(request, "access", None), code, roles):
        raise HttpError(403, "Seu perfil não permite esta ação nos conselhos.")


def _council(request: HttpRequest, council_id: int, roles: tuple[str, ...]) -> Council:
    council: Council = get_object_or_404(Council.objects.all(), pk=council_id)
    _require(request, council.jurisdiction_id, roles)
    return council


def _council_out(c: Council) -> dict[str, Any]:
    return {
        "id": c.pk,
        "jurisdiction": c.jurisdiction_id,
        "key": c.key,
        "name": c.name,
        "acronym": c.acronym,
        "kind": c.kind,
        "legal_basis": c.legal_basis,
        "seat_count": c.seat_count,
        "mandate_months": c.mandate_months,
    }


def _resolution_out(r: Resolution) -> dict[str, Any]:
    return {
        "id": r.pk,
        "kind": r.kind,
        "number": r.number,
        "year": r.year,
        "dated_on": r.dated_on,
        "subject": r.subject,
        "gate": r.gate,
        "favorable": r.favorable,
        "revoked_on": r.revoked_on,
        "session_id": r.session_id,
        "citation": r.citation,
    }


def _member_out(m: Member) -> dict[str, Any]:
    return {
        "id": m.pk,
        "seat": m.seat.number,
        "name": m.name,
        "role": m.role,
        "starts_on": m.starts_on,
        "ends_on": m.ends_on,
        "ended_on": m.ended_on,
        "end_reason": m.end_reason,
    }


@router.get("/gates/{code}", response=list[GateOut])
def list_gates(request: HttpRequest, code: str) -> list[dict[str, Any]]:
    """The decisions the law of `code` submits to a council (empty: the law has none)."""
    return [
        {
            "key": g.key,
            "council": g.council,
            "kind": g.kind,
            "label": g.label,
            "citation": gates.cite(code, g),
            "quote": g.quote,
            "condition": g.condition,
            "explanation": gates.explain(code, g.key),
        }
        for g in gates.GATES.get(code, {}).values()
    ]


@router.get("", response=list[CouncilOut])
def list_councils(request: HttpRequest) -> list[dict[str, Any]]:
    codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.VIEW_ROLES)
    return [_council_out(c) for c in Council.objects.filter(jurisdiction_id__in=codes)]


@router.get("/{council_id}", response=CouncilDetailOut)
def get_council(request: HttpRequest, council_id: int) -> dict[str, Any]:
    council = _council(request, council_id, permissions.VIEW_ROLES)
    seats = [
        {"id": s.pk, "number": s.number, "represents": s.represents, "vacant_since": s.vacant_since}
        for s in Seat.objects.filter(council=council)
    ]
    members = [_member_out(m) for m in Member.objects.filter(council=council).select_related("seat")]
    return {**_council_out(council), "seats": seats, "members": members}


@router.get("/{council_id}/resolutions", response=list[ResolutionOut])
def list_resolutions(request: HttpRequest, council_id: int) -> list[dict[str, Any]]:
    council = _council(request, council_id, permissions.VIEW_ROLES)
    return [_resolution_out(r) for r in Resolution.objects.filter(council=council).select_related("council")]


@router.post("/{council_id}/members", response={201: MemberOut})
def add_member(request: HttpRequest, council_id: int, payload: MemberIn) -> Status[dict[str, Any]]:
    council = _council(request, council_id, permissions.RECORD_ROLES)
    seat = get_object_or_404(Seat.objects.filter(council=council), pk=payload.seat_id)
    data = payload.dict()
    data.pop("seat_id")
    member = services.appoint_member(actor=request.user, seat=seat, **data)
    return Status(201, _member_out(member))


@router.post("/{council_id}/sessions", response={201: SessionOut})
def open_session(request: HttpRequest, council_id: int, payload: SessionIn) -> Status[dict[str, Any]]:
    council = _council(request, council_id, permissions.RECORD_ROLES)
    session = services.open_session(actor=request.user, council=council, **payload.dict())
    return Status(
        201, {"id": session.pk, "held_on": session.held_on, "kind": session.kind, "agenda": session.agenda}
    )


@router.post("/sessions/{session_id}/attendance", response={201: AttendanceResultOut})
def record_attendance(request: HttpRequest, session_id: int, payload: AttendanceIn) -> Status[dict[str, Any]]:
    session: Session = get_object_or_404(Session.objects.select_related("council"), pk=session_id)
    _require(request, session.jurisdiction_id, permissions.RECORD_ROLES)
    entries = {e.member_id: (e.status, e.justification) for e in payload.entries}
    done = services.record_attendance(
        actor=request.user, session=session, entries=entries, reason=payload.reason
    )
    consequences = [{"member_id": c.member.pk, "message": c.message} for c in done]
    return Status(201, {"recorded": len(entries), "consequences": consequences})


@router.post("/{council_id}/resolutions", response={201: ResolutionOut})
def register_resolution(
    request: HttpRequest, council_id: int, payload: ResolutionIn
) -> Status[dict[str, Any]]:
    council = _council(request, council_id, permissions.RECORD_ROLES)
    data = payload.dict()
    session_id = data.pop("session_id")
    session = (
        get_object_or_404(Session.objects.filter(council=council), pk=session_id) if session_id else None
    )
    resolution = services.register_resolution(actor=request.user, council=council, session=session, **data)
    return Status(201, _resolution_out(resolution))
