"""Rosters and duty logs: every write audited in the same transaction (lotacao.audit).

Rosters (Recife art. 6º, §§ 2º e 3º; Cabo arts. 19 e 20): drawn up for a line and a period,
submitted through the line's representative (or coordinator/auxiliary), approved or refused by
the agency with reasons. Refused, with nothing changed:
- a law without the roster procedure (`rosters.submitters` absent);
- a submitter who is not a representative of that line, in a position the law names, in office
  on the day;
- a period that overlaps another roster of the line awaiting decision, or an approved one it
  would not cleanly follow (starting on or before its start, or ending before its end);
- a row whose vehicle has no live permit on the line, or whose driver is neither the permit's
  holder nor a current, unsuspended auxiliary or relief driver of that permit.
Approving supersedes the approved roster the new one follows: it ends the day before.

Duty logs (Recife art. 9º; Esteio Anexo II, II-06 e III-16; Maricá art. 40, XXXVIII): one
driver's periods of a day on a vehicle, checked by the engine; the verdict and the infractions it
suggests are kept with the log.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, snapshot, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.core.law import LawError
from lotacao.law.errors import CaseError
from lotacao.law.workday import read_periods
from lotacao.permits.models import Permit, PermitAgent
from lotacao.registry.models import Line, LineRepresentative, Person, Vehicle
from lotacao.rosters import rules, states
from lotacao.rosters.models import DutyLog, Roster, RosterEntry

S = Roster.Status
DRIVER_ROLES = (PermitAgent.Role.AUXILIARY_DRIVER, PermitAgent.Role.RELIEF_DRIVER)


# --------------------------------------------------------------------------- who drives what


def live_permit(vehicle: Vehicle, on: dt.date) -> Permit | None:
    """The vehicle's permit in force on `on` (active or suspended, within its term)."""
    for permit in Permit.objects.filter(vehicle=vehicle, status__in=Permit.LIVE).select_related("holder"):
        if permit.effective_status(on) in Permit.LIVE:
            found: Permit = permit
            return found
    return None


def driver_role(permit: Permit, person: Person, on: dt.date) -> str | None:
    """How `person` may drive the permit's vehicle on `on`: `holder`, `auxiliary_driver`,
    `relief_driver`, or None (not registered for this permit)."""
    if permit.holder.person_id == person.pk:
        return DutyLog.Role.HOLDER
    for agent in PermitAgent.objects.filter(permit=permit, person=person, role__in=DRIVER_ROLES):
        if agent.is_current(on) and not agent.is_suspended(on):
            return str(agent.role)
    return None


@dataclass
class EntryData:
    vehicle: Vehicle
    driver: Person
    weekdays: str
    starts_at: dt.time
    ends_at: dt.time
    departures: str = ""


def _check_entry(line: Line, data: EntryData, on: dt.date) -> None:
    digits = "".join(sorted(set(data.weekdays)))
    if not digits or any(d not in "1234567" for d in digits):
        raise ValidationError("Escolha ao menos um dia da semana.")
    data.weekdays = digits
    if data.ends_at <= data.starts_at:
        raise ValidationError("O fim do turno deve ser depois do início.")
    permit = live_permit(data.vehicle, on)
    if permit is None or permit.line_id != line.pk:
        raise ValidationError(
            f"O veículo {data.vehicle.plate_display} não tem permissão em vigor na linha {line.code}."
        )
    if driver_role(permit, data.driver, on) is None:
        raise ValidationError(
            f"{data.driver.full_name} não é o permissionário nem condutor auxiliar ou eventual cadastrado "
            f"da permissão {permit.number or permit.pk} (veículo {data.vehicle.plate_display})."
        )


# --------------------------------------------------------------------------- rosters


def overlap_refusal(roster: Roster) -> str:
    """Why the roster's period collides with another of its line ("" when it does not)."""
    others = Roster.objects.filter(line=roster.line, status__in=(S.SUBMITTED, S.APPROVED)).exclude(
        pk=roster.pk
    )
    for other in others:
        if not _overlaps(roster, other):
            continue
        if other.status == S.SUBMITTED:
            return (
                f"já há escala desta linha submetida para o período {other.period_display}, que se sobrepõe "
                "a este; o órgão decide aquela antes"
            )
        starts_later = roster.starts_on > other.starts_on
        ends_later = roster.ends_on is None or (other.ends_on is not None and roster.ends_on >= other.ends_on)
        if not (starts_later and ends_later):
            return (
                f"o período se sobrepõe à escala aprovada {other.period_display}; "
                "uma escala nova começa depois "
                "do início da que está em vigor e vai até o fim dela ou além"
            )
    return ""


def _overlaps(a: Roster, b: Roster) -> bool:
    far = dt.date.max
    return a.starts_on <= (b.ends_on or far) and b.starts_on <= (a.ends_on or far)


@transaction.atomic
def create_roster(
    *,
    actor: Any,
    line: Line,
    starts_on: dt.date,
    ends_on: dt.date | None,
    notes: str = "",
    entries: list[EntryData] | None = None,
) -> Roster:
    code = line.jurisdiction_id
    positions, citation = rules.submitters(code, starts_on)
    if not positions:
        raise ValidationError(
            f"A {rules.law_name(code)} não prevê escalas operacionais submetidas "
            "pelos representantes da linha."
        )
    if ends_on is not None and ends_on < starts_on:
        raise ValidationError("O fim da vigência deve ser igual ou posterior ao início.")
    roster = Roster(
        jurisdiction_id=code,
        line=line,
        starts_on=starts_on,
        ends_on=ends_on,
        notes=notes,
        citation=citation,
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    create_audited(
        actor=actor, instance=roster, reason="Escala da linha em elaboração", action="rosters.roster_created"
    )
    for data in entries or []:
        add_entry(actor=actor, roster=roster, data=data)
    return roster


@transaction.atomic
def add_entry(*, actor: Any, roster: Roster, data: EntryData) -> RosterEntry:
    if roster.status not in states.EDITABLE:
        raise ValidationError(
            f"Não é possível alterar a escala: a escala {states.STATUS_PHRASES[S(roster.status)]}."
        )
    _check_entry(roster.line, data, roster.starts_on)
    entry = RosterEntry(
        jurisdiction_id=roster.jurisdiction_id,
        roster=roster,
        vehicle=data.vehicle,
        driver=data.driver,
        weekdays=data.weekdays,
        starts_at=data.starts_at,
        ends_at=data.ends_at,
        departures=data.departures.strip(),
    )
    return create_audited(
        actor=actor, instance=entry, reason="Linha incluída na escala", action="rosters.entry_added"
    )


@transaction.atomic
def remove_entry(*, actor: Any, entry: RosterEntry) -> None:
    roster = entry.roster
    if roster.status not in states.EDITABLE:
        raise ValidationError(
            f"Não é possível alterar a escala: a escala {states.STATUS_PHRASES[S(roster.status)]}."
        )
    record(
        actor=actor,
        action="rosters.entry_removed",
        instance=entry,
        reason="Linha retirada da escala",
        before=snapshot(entry),
    )
    entry.delete()


def _representative_refusal(roster: Roster, representative: LineRepresentative, on: dt.date) -> str:
    positions, citation = rules.submitters(roster.jurisdiction_id, on)
    if not positions:
        law = rules.law_name(roster.jurisdiction_id)
        return f"a {law} não prevê escalas submetidas pelos representantes da linha"
    if representative.line_id != roster.line_id:
        return f"{representative.person.full_name} não é representante da linha {roster.line.code}"
    if representative.position not in positions:
        return (
            f"quem submete a escala é o {rules.submitters_words(positions)} da linha ({citation}), e "
            f"{representative.person.full_name} é {lower_first(representative.position_label)}"
        )
    ended = representative.ended_on is not None and representative.ended_on <= on
    out = representative.term_start > on or (
        representative.term_end is not None and representative.term_end < on
    )
    if ended or out:
        return f"o mandato de {representative.person.full_name} não está em curso em {br_date(on)}"
    return ""


@transaction.atomic
def submit_roster(
    *, actor: Any, roster: Roster, representative: LineRepresentative, on: dt.date | None = None
) -> Roster:
    roster = Roster.objects.select_for_update().get(pk=roster.pk)
    states.require(roster, "submit")
    on = on or timezone.localdate()
    why = _representative_refusal(roster, representative, on)
    if why:
        raise ValidationError(f"Não é possível submeter a escala: {why}.")
    if not roster.entries.exists():
        raise ValidationError("Não é possível submeter a escala: inclua ao menos um veículo e condutor.")
    for entry in roster.entries.select_related("vehicle", "driver"):
        _check_entry(
            roster.line,
            EntryData(entry.vehicle, entry.driver, entry.weekdays, entry.starts_at, entry.ends_at),
            roster.starts_on,
        )
    why = overlap_refusal(roster)
    if why:
        raise ValidationError(f"Não é possível submeter a escala: {why}.")
    who = (
        f"{representative.person.full_name} ({lower_first(representative.position_label)}; {roster.citation})"
    )
    reason = f"Escala submetida por {who}"
    return update_audited(
        actor=actor,
        instance=roster,
        changes={"status": S.SUBMITTED, "submitted_by": representative, "submitted_at": timezone.now()},
        reason=reason,
        action="rosters.roster_submitted",
    )


@transaction.atomic
def decide_roster(
    *, actor: Any, roster: Roster, approve: bool, reasons: str, on: dt.date | None = None
) -> Roster:
    roster = Roster.objects.select_for_update().get(pk=roster.pk)
    states.require(roster, "approve" if approve else "refuse")
    reasons = (reasons or "").strip()
    if not reasons:
        raise ValidationError("Informe as razões da decisão.")
    on = on or timezone.localdate()
    if approve:
        why = overlap_refusal(roster)
        if why:
            raise ValidationError(f"Não é possível aprovar a escala: {why}.")
        for entry in roster.entries.select_related("vehicle", "driver"):
            try:
                _check_entry(
                    roster.line,
                    EntryData(entry.vehicle, entry.driver, entry.weekdays, entry.starts_at, entry.ends_at),
                    roster.starts_on,
                )
            except ValidationError as error:
                raise ValidationError(f"Não é possível aprovar a escala: {error.messages[0]}") from error
        _supersede_previous(actor, roster)
    changes = {
        "status": S.APPROVED if approve else S.REFUSED,
        "decided_on": on,
        "decided_by": actor if getattr(actor, "pk", None) else None,
        "decision_reasons": reasons,
    }
    word = "aprovada" if approve else "recusada"
    return update_audited(
        actor=actor,
        instance=roster,
        changes=changes,
        reason=f"Escala {word}: {reasons}",
        action="rosters.roster_approved" if approve else "rosters.roster_refused",
    )


def _supersede_previous(actor: Any, roster: Roster) -> None:
    for other in (
        Roster.objects.select_for_update().filter(line=roster.line, status=S.APPROVED).exclude(pk=roster.pk)
    ):
        if not _overlaps(roster, other):
            continue
        states.require(other, "supersede")
        update_audited(
            actor=actor,
            instance=other,
            changes={
                "status": S.SUPERSEDED,
                "ends_on": roster.starts_on - dt.timedelta(days=1),
                "superseded_by": roster,
            },
            reason=f"Substituída pela escala aprovada {roster.period_display}",
            action="rosters.roster_superseded",
        )


# --------------------------------------------------------------------------- duty logs


def _periods(raw: list[dict[str, str]]) -> list[dict[str, str]]:
    try:
        read_periods({"periods": raw})
    except CaseError as error:
        raise LawError(error) from error
    return sorted(({"start": p["start"], "end": p["end"]} for p in raw), key=lambda p: p["start"])


def _week_count(driver: Person, day: dt.date, exclude: int | None) -> int:
    """Days the driver drove in the seven ending on `day` (this one included)."""
    start = day - dt.timedelta(days=6)
    days = set(
        DutyLog.unscoped.filter(driver=driver, day__gte=start, day__lte=day)
        .exclude(pk=exclude or 0)
        .values_list("day", flat=True)
    )
    days.add(day)
    return len(days)


def _holder_drove(log: DutyLog) -> bool | None:
    """Whether the holder drove the vehicle that day (None for a company: no one to drive)."""
    if log.holder.person_id is None:
        return None
    if log.driver_id == log.holder.person_id:
        return True
    return DutyLog.objects.filter(vehicle=log.vehicle, day=log.day, driver_id=log.holder.person_id).exists()


def _verdict(log: DutyLog) -> dict[str, Any]:
    result = rules.check_workday(
        log.jurisdiction_id,
        log.day,
        log.role,
        log.periods,
        days_in_week=_week_count(log.driver, log.day, log.pk),
        holder_drove=_holder_drove(log),
    )
    return {
        "driving_minutes": int(result.get("driving_minutes") or 0),
        "within_limits": result.get("within_limits"),
        "violations": list(result.get("violations") or []),
        "suggested_infractions": list(result.get("infractions") or []),
        "explanation": str(result.get("explanation") or ""),
        "citations": list(result.get("citations") or []),
    }


@transaction.atomic
def record_duty_log(
    *, actor: Any, vehicle: Vehicle, driver: Person, day: dt.date, periods: list[dict[str, str]]
) -> DutyLog:
    """One driver's day on a vehicle, checked against the law's limits."""
    if day > timezone.localdate():
        raise ValidationError("A jornada registrada é de um dia que já começou: a data não pode ser futura.")
    permit = live_permit(vehicle, day)
    if permit is None:
        raise ValidationError(
            f"O veículo {vehicle.plate_display} não tem permissão em vigor em {br_date(day)}."
        )
    role = driver_role(permit, driver, day)
    if role is None:
        raise ValidationError(
            f"{driver.full_name} não é o permissionário nem condutor auxiliar ou eventual cadastrado da "
            f"permissão do veículo {vehicle.plate_display} em {br_date(day)}."
        )
    if DutyLog.objects.filter(driver=driver, vehicle=vehicle, day=day).exists():
        raise ValidationError(f"Já há jornada de {driver.full_name} neste veículo em {br_date(day)}.")
    log = DutyLog(
        jurisdiction_id=vehicle.jurisdiction_id,
        holder=permit.holder,
        vehicle=vehicle,
        driver=driver,
        role=role,
        day=day,
        periods=_periods(periods),
        recorded_by=actor if getattr(actor, "pk", None) else None,
    )
    for name, value in _verdict(log).items():
        setattr(log, name, value)
    reason = "Jornada registrada" + ("" if log.within_limits is not False else ": acima dos limites da lei")
    create_audited(actor=actor, instance=log, reason=reason, action="rosters.duty_logged")
    if role == DutyLog.Role.HOLDER:
        _recheck_vehicle_day(actor, log)
    return log


def _recheck_vehicle_day(actor: Any, log: DutyLog) -> None:
    """The holder's own log changes the verdict of the others on that vehicle and day."""
    for other in DutyLog.objects.filter(vehicle=log.vehicle, day=log.day).exclude(pk=log.pk):
        update_audited(
            actor=actor,
            instance=other,
            changes=_verdict(other),
            reason="Jornada conferida de novo: o permissionário conduziu o veículo no dia",
            action="rosters.duty_rechecked",
        )
