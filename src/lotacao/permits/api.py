"""REST endpoints of the permits app (mounted by lotacao.api.main at /api/permits).

Same scoping (tenant managers) and the same permissions as the screens; a legal refusal is a 422
with the Portuguese message (lotacao.api.main turns ValidationError into 422).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Router, Schema
from ninja.errors import HttpError

from lotacao.accounts.access import ANONYMOUS
from lotacao.core.api_params import LIMIT
from lotacao.councils.selectors import resolution_by_id
from lotacao.permits import actions, services
from lotacao.permits.models import Permit
from lotacao.permits.views import run
from lotacao.registry.models import Holder, Line, Vehicle

router = Router(tags=["permissoes"])


class PermitOut(Schema):
    id: int
    jurisdiction: str
    number: str
    holder_id: int
    holder: str
    line_code: str | None
    plate: str | None
    status: str
    status_label: str
    kind: str
    applied_on: dt.date
    granted_on: dt.date | None
    valid_until: dt.date | None
    renewals: int
    eligibility: dict[str, Any] | None


class ApplicationIn(Schema):
    holder_id: int
    reason: str
    kind: str = "regular"
    residence_since: dt.date | None = None
    existing_operator: bool = False
    association_member: bool = False
    service_months: int = 0
    infraction_count: int = 0
    other_service: str = ""


class GrantIn(Schema):
    line_id: int
    vehicle_id: int
    reason: str
    number: str = ""
    valid_until: dt.date | None = None


class TransitionIn(Schema):
    reason: str
    until: dt.date | None = None
    notice_on: dt.date | None = None
    ceases_on: dt.date | None = None
    requested_on: dt.date | None = None
    approval_reference: str = ""
    users_heard: bool = False
    resolution_id: int | None = None  # renew: the council's resolution, where the law requires one
    valid_until: dt.date | None = None
    cpf: str = ""
    cause: str = ""
    consent_reference: str = ""
    event_on: dt.date | None = None
    role: str = ""
    starts_on: dt.date | None = None


def _out(p: Permit) -> PermitOut:
    today = timezone.localdate()
    return PermitOut(
        id=p.pk,
        jurisdiction=p.jurisdiction_id,
        number=p.number,
        holder_id=p.holder_id,
        holder=str(p.holder),
        line_code=p.line.code if p.line else None,
        plate=p.vehicle.plate if p.vehicle else None,
        status=p.effective_status(today),
        status_label=p.effective_status_label(today),
        kind=p.kind,
        applied_on=p.applied_on,
        granted_on=p.granted_on,
        valid_until=p.valid_until,
        renewals=p.renewals,
        eligibility=p.eligibility,
    )


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", ANONYMOUS)


def _qs() -> Any:
    return Permit.objects.select_related("holder__person", "holder__company", "line", "vehicle")


@router.get("/", response=list[PermitOut])
def list_permits(request: HttpRequest, status: str = "", q: str = "", limit: int = LIMIT) -> list[PermitOut]:
    qs = _qs()
    if status:
        qs = qs.filter(status=status)
    if q:
        qs = qs.filter(number__icontains=q) | qs.filter(vehicle__plate__startswith=q.upper().replace("-", ""))
    return [_out(p) for p in qs[:limit]]


@router.post("/applications", response=PermitOut)
def apply(request: HttpRequest, payload: ApplicationIn) -> PermitOut:
    holder = get_object_or_404(Holder.objects.all(), pk=payload.holder_id)
    if not actions.may(_access(request), holder.jurisdiction_id, "grant"):
        raise HttpError(403, "Ação reservada a gestor ou atendente.")
    data = payload.dict()
    data.pop("holder_id")
    permit = services.apply_for_permit(actor=request.user, holder=holder, **data)
    services.assess_application(actor=request.user, permit=permit, reason="Verificação dos requisitos.")
    permit.refresh_from_db()
    return _out(permit)


@router.get("/{permit_id}", response=PermitOut)
def get_permit(request: HttpRequest, permit_id: int) -> PermitOut:
    return _out(get_object_or_404(_qs(), pk=permit_id))


def _allowed(request: HttpRequest, permit: Permit, action: str) -> None:
    state = next(
        a for a in actions.available(permit, timezone.localdate(), _access(request)) if a["name"] == action
    )
    if not state["allowed"]:
        raise HttpError(403, state["why"])


@router.post("/{permit_id}/grant", response=PermitOut)
def grant(request: HttpRequest, permit_id: int, payload: GrantIn) -> PermitOut:
    permit = get_object_or_404(_qs(), pk=permit_id)
    _allowed(request, permit, "grant")
    line = get_object_or_404(Line.objects.all(), pk=payload.line_id)
    vehicle = get_object_or_404(Vehicle.objects.all(), pk=payload.vehicle_id)
    services.grant_permit(
        actor=request.user,
        permit=permit,
        line=line,
        vehicle=vehicle,
        reason=payload.reason,
        number=payload.number,
        valid_until=payload.valid_until,
    )
    return _out(get_object_or_404(_qs(), pk=permit_id))


@router.post("/{permit_id}/transitions/{action}", response=PermitOut)
def transition(request: HttpRequest, permit_id: int, action: str, payload: TransitionIn) -> PermitOut:
    """action: suspend, reinstate, revoke, withdraw, renew, transfer, agent."""
    if action not in actions.BY_NAME or action == "grant":
        raise HttpError(404, "Ação desconhecida.")
    permit = get_object_or_404(_qs(), pk=permit_id)
    _allowed(request, permit, action)
    data = payload.dict()
    required = {
        "suspend": ["until"],
        "withdraw": ["notice_on", "ceases_on"],
        "renew": ["requested_on"],
        "transfer": ["cpf", "cause", "consent_reference"],
        "agent": ["cpf", "role", "starts_on"],
    }.get(action, [])
    missing = [name for name in required if not data.get(name)]
    if missing:
        raise HttpError(422, "Campos obrigatórios: " + ", ".join(missing) + ".")
    if action == "agent" or action == "transfer":
        data["cpf"] = "".join(ch for ch in data["cpf"] if ch.isdigit())
    data["resolution"] = resolution_by_id(permit.jurisdiction_id, data.pop("resolution_id", None))
    result = run(action, actor=request.user, permit=permit, data=data)
    target = result if isinstance(result, Permit) else permit
    return _out(get_object_or_404(_qs(), pk=target.pk))
