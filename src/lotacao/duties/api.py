"""The API of lotacao.duties (mounted in lotacao.api.main at the root: each operation's path is whole).

- `POST /portal/incidents`: the signed-in holder reports an accident or another fact; 201 with the
  protocol, the law's deadline (`due`), whether it came late and the citations.
- `GET /portal/incidents`, `GET /portal/authorizations`: the holder's own (staff: their agency's).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.core.vehicle_verdict import clean_plate
from lotacao.duties import services
from lotacao.duties.models import Authorization, IncidentReport
from lotacao.registry.models import Holder, Vehicle

router = Router(tags=["deveres do operador"])


class IncidentIn(Schema):
    occurred_at: dt.datetime
    kind: Literal["accident", "incident"]
    plate: str
    description: str
    place: str = ""
    victims: bool = False
    vehicle_withdrawn: bool = False


class IncidentOut(Schema):
    protocol: str
    kind: str
    plate: str
    occurred_at: dt.datetime
    reported_at: dt.datetime
    due: dt.date | None
    late: bool
    citations: list[str]
    deadline: str
    inspection_on: dt.date | None


class AuthorizationOut(Schema):
    id: int
    kind: str
    label: str
    plate: str | None
    status: str
    starts_on: dt.date
    ends_on: dt.date
    citation: str
    decision_reasons: str
    decision_citation: str


def _incident_out(report: IncidentReport) -> IncidentOut:
    return IncidentOut(
        protocol=report.protocol,
        kind=report.kind,
        plate=report.vehicle.plate,
        occurred_at=report.occurred_at,
        reported_at=report.reported_at,
        due=report.due_on,
        late=report.late,
        citations=list(report.citations),
        deadline=report.deadline_text,
        inspection_on=report.inspection.scheduled_for if report.inspection is not None else None,
    )


def _holder(request: HttpRequest) -> Holder:
    access = getattr(request, "access", None)
    if access is None or access.holder_id is None:
        raise HttpError(403, "Só o permissionário, com a sua conta, comunica ocorrências por aqui.")
    holder: Holder = Holder.objects.get(pk=access.holder_id)
    return holder


@router.post("/portal/incidents", response={201: IncidentOut})
def report_incident(request: HttpRequest, payload: IncidentIn) -> tuple[int, IncidentOut]:
    holder = _holder(request)
    plate = clean_plate(payload.plate)
    vehicle = Vehicle.unscoped.filter(jurisdiction_id=holder.jurisdiction_id, plate=plate).first()
    if vehicle is None or vehicle.holder_id != holder.pk:
        raise ValidationError(f"A placa {plate} não é de um veículo cadastrado em seu nome.")
    report = services.report_incident(
        actor=request.user,
        holder=holder,
        vehicle=vehicle,
        kind=payload.kind,
        occurred_at=payload.occurred_at,
        description=payload.description,
        place=payload.place,
        victims=payload.victims,
        vehicle_withdrawn=payload.vehicle_withdrawn,
        reason="Comunicação pela API",
    )
    return Status(201, _incident_out(report))  # type: ignore[return-value]


@router.get("/portal/incidents", response=list[IncidentOut])
def list_incidents(request: HttpRequest) -> list[IncidentOut]:
    rows = IncidentReport.objects.select_related("vehicle", "inspection")[:200]
    return [_incident_out(r) for r in rows]


@router.get("/portal/authorizations", response=list[AuthorizationOut])
def list_authorizations(request: HttpRequest) -> list[AuthorizationOut]:
    rows = Authorization.objects.select_related("vehicle")[:200]
    return [
        AuthorizationOut(
            id=r.pk,
            kind=r.kind,
            label=r.get_kind_display(),
            plate=r.vehicle.plate if r.vehicle_id else None,
            status=r.status,
            starts_on=r.starts_on,
            ends_on=r.ends_on,
            citation=r.citation,
            decision_reasons=r.decision_reasons,
            decision_citation=r.decision_citation,
        )
        for r in rows
    ]
