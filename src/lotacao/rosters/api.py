"""The rosters API, mounted by lotacao.api.main under `/rosters`.

- `GET /rosters/rosters`, `GET /rosters/rosters/{id}`: the rosters in the user's scope, with rows;
- `POST /rosters/rosters/{id}/decision`: the gestor approves or refuses a submitted roster;
- `GET /rosters/in-force?plate=`: the roster in force on the vehicle's line today (the road check);
- `GET /rosters/duty-logs`, `POST /rosters/duty-logs`: duty logs (a holder sees their own), and a
  day recorded and checked against the law's limits (201, with the excesses and the infractions
  they suggest).
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.core.validators import normalize_cpf
from lotacao.core.vehicle_verdict import clean_plate
from lotacao.registry.models import Person, Vehicle
from lotacao.rosters import permissions, selectors, services
from lotacao.rosters.models import DutyLog, Roster, RosterEntry

router = Router(tags=["escalas e jornadas"])


class EntryOut(Schema):
    plate: str
    driver: str
    weekdays: str
    days: str
    starts_at: str  # HH:MM
    ends_at: str
    departures: str


class RosterOut(Schema):
    id: int
    jurisdiction: str
    line: str
    starts_on: dt.date
    ends_on: dt.date | None
    status: str
    status_label: str
    submitted_by: str | None
    citation: str
    decision_reasons: str
    entries: list[EntryOut]


class RosterDecisionIn(Schema):
    approve: bool
    reasons: str


class InForceOut(Schema):
    plate: str
    line: str | None
    roster: RosterOut | None
    scheduled_today: bool


class DutyPeriodIn(Schema):
    start: str
    end: str


class DutyLogIn(Schema):
    plate: str
    cpf: str
    day: dt.date
    periods: list[DutyPeriodIn]


class ViolationOut(Schema):
    rule: str
    message: str
    citation: str


class InfractionOut(Schema):
    code: str
    description: str
    citation: str


class DutyLogOut(Schema):
    id: int
    plate: str
    driver: str
    role: str
    day: dt.date
    periods: list[DutyPeriodIn]
    driving_minutes: int
    within_limits: bool | None
    violations: list[ViolationOut]
    suggested_infractions: list[InfractionOut]
    explanation: str


def _entry_out(e: RosterEntry) -> EntryOut:
    return EntryOut(
        plate=e.vehicle.plate,
        driver=e.driver.full_name,
        weekdays=e.weekdays,
        days=e.weekdays_display,
        starts_at=f"{e.starts_at:%H:%M}",
        ends_at=f"{e.ends_at:%H:%M}",
        departures=e.departures,
    )


def _roster_out(r: Roster, entries: list[RosterEntry] | None = None) -> RosterOut:
    rows = entries if entries is not None else list(r.entries.select_related("vehicle", "driver"))
    return RosterOut(
        id=r.pk,
        jurisdiction=r.jurisdiction_id,
        line=r.line.code,
        starts_on=r.starts_on,
        ends_on=r.ends_on,
        status=r.status,
        status_label=r.get_status_display(),
        submitted_by=r.submitted_by.person.full_name if r.submitted_by is not None else None,
        citation=r.citation,
        decision_reasons=r.decision_reasons,
        entries=[_entry_out(e) for e in rows],
    )


def _log_out(log: DutyLog) -> DutyLogOut:
    return DutyLogOut(
        id=log.pk,
        plate=log.vehicle.plate,
        driver=log.driver.full_name,
        role=log.role,
        day=log.day,
        periods=[DutyPeriodIn(**p) for p in log.periods],
        driving_minutes=log.driving_minutes,
        within_limits=log.within_limits,
        violations=[
            ViolationOut(**{k: v[k] for k in ("rule", "message", "citation")}) for v in log.violations
        ],
        suggested_infractions=[
            InfractionOut(code=i["code"], description=i["description"], citation=i["citation"])
            for i in log.suggested_infractions
        ],
        explanation=log.explanation,
    )


def _staff(request: HttpRequest, roles: tuple[str, ...]) -> list[str]:
    codes = permissions.jurisdictions_for(getattr(request, "access", None), roles)
    if not codes:
        raise HttpError(403, "Seu perfil não tem acesso a esta operação de escalas e jornadas.")
    return codes


@router.get("/rosters", response=list[RosterOut])
def rosters_list(request: HttpRequest) -> list[RosterOut]:
    _staff(request, permissions.VIEW_ROLES)
    rows = Roster.objects.select_related("line", "submitted_by__person")[:200]
    return [_roster_out(r) for r in rows]


@router.get("/rosters/{roster_id}", response=RosterOut)
def rosters_detail(request: HttpRequest, roster_id: int) -> RosterOut:
    _staff(request, permissions.VIEW_ROLES)
    return _roster_out(
        get_object_or_404(Roster.objects.select_related("line", "submitted_by__person"), pk=roster_id)
    )


@router.post("/rosters/{roster_id}/decision", response=RosterOut)
def rosters_decide(request: HttpRequest, roster_id: int, payload: RosterDecisionIn) -> RosterOut:
    roster = get_object_or_404(Roster.objects.select_related("line"), pk=roster_id)
    if not permissions.allowed(
        getattr(request, "access", None), roster.jurisdiction_id, permissions.DECIDE_ROLES
    ):
        raise HttpError(403, "Só o gestor aprova ou recusa a escala.")
    services.decide_roster(
        actor=request.user, roster=roster, approve=payload.approve, reasons=payload.reasons
    )
    roster.refresh_from_db()
    return _roster_out(roster)


@router.get("/in-force", response=InForceOut)
def rosters_in_force(request: HttpRequest, plate: str) -> InForceOut:
    codes = _staff(request, permissions.VIEW_ROLES)
    clean = clean_plate(plate)
    vehicle = Vehicle.objects.filter(plate=clean, jurisdiction_id__in=codes).first()
    if vehicle is None:
        raise ValidationError(f"A placa {clean or plate} não é de um veículo cadastrado.")
    today = timezone.localdate()
    permit = services.live_permit(vehicle, today)
    found = selectors.vehicle_roster(vehicle, permit.line if permit is not None else None, today)
    roster = found["roster"] if found else None
    return InForceOut(
        plate=vehicle.plate,
        line=found["line"].code if found else None,
        roster=_roster_out(roster, found["entries"]) if roster is not None and found else None,
        scheduled_today=bool(found and found["today"]),
    )


@router.get("/duty-logs", response=list[DutyLogOut])
def rosters_duty_logs(request: HttpRequest) -> list[DutyLogOut]:
    access = getattr(request, "access", None)
    if access is None or access.holder_id is None:
        _staff(request, permissions.VIEW_ROLES)
    rows = DutyLog.objects.select_related("vehicle", "driver")[:200]
    return [_log_out(r) for r in rows]


@router.post("/duty-logs", response={201: DutyLogOut})
def rosters_record_duty_log(request: HttpRequest, payload: DutyLogIn) -> tuple[int, DutyLogOut]:
    codes = _staff(request, permissions.RECORD_ROLES)
    clean = clean_plate(payload.plate)
    vehicle = Vehicle.objects.filter(plate=clean, jurisdiction_id__in=codes).first()
    if vehicle is None:
        raise ValidationError(f"A placa {clean or payload.plate} não é de um veículo cadastrado.")
    driver = Person.objects.filter(
        cpf=normalize_cpf(payload.cpf), jurisdiction_id=vehicle.jurisdiction_id
    ).first()
    if driver is None:
        raise ValidationError("O CPF informado não é de uma pessoa cadastrada.")
    log = services.record_duty_log(
        actor=request.user,
        vehicle=vehicle,
        driver=driver,
        day=payload.day,
        periods=[p.dict() for p in payload.periods],
    )
    return Status(201, _log_out(log))  # type: ignore[return-value]
