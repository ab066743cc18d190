"""What changes councils: registering the bodies the law names, seats, members and their mandates,
sessions, attendance (with the loss of the mandate by absences, Recife art. 40, I) and
resolutions. Every change is audited; bad input raises a Portuguese ValidationError and changes
nothing."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited, record, snapshot, update_audited
from lotacao.core import law
from lotacao.core.formats import br_date, lower_first

from . import gates
from .catalogue import COUNCILS
from .models import Attendance, Council, Member, Resolution, Seat, Session


def _reason(reason: str) -> str:
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo.")
    return reason.strip()


def _add_months(day: dt.date, months: int) -> dt.date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return dt.date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise ValueError(day)  # pragma: no cover


@transaction.atomic
def register_from_law(*, actor: Any, jurisdiction_code: str, reason: str) -> list[Council]:
    """Create the councils and commissions the law names that the jurisdiction lacks."""
    reason = _reason(reason)
    made: list[Council] = []
    for item in COUNCILS.get(jurisdiction_code, ()):
        if Council.unscoped.filter(jurisdiction_id=jurisdiction_code, key=item.key).exists():
            continue
        parent = (
            Council.unscoped.filter(jurisdiction_id=jurisdiction_code, key=item.parent).first()
            if item.parent
            else None
        )
        council = Council(
            jurisdiction_id=jurisdiction_code,
            key=item.key,
            name=item.name,
            acronym=item.acronym,
            kind=item.kind,
            parent=parent,
            legal_basis=item.legal_basis,
            duties=item.duties,
            seat_count=item.seat_count,
            mandate_months=item.mandate_months,
        )
        made.append(create_audited(actor=actor, instance=council, reason=reason, action="council.registered"))
    return made


@transaction.atomic
def add_seat(*, actor: Any, council: Council, number: int, represents: str, reason: str) -> Seat:
    reason = _reason(reason)
    if not (represents or "").strip():
        raise ValidationError("Informe a quem a cadeira representa.")
    if Seat.unscoped.filter(council=council, number=number).exists():
        raise ValidationError(f"{council.short} já tem a cadeira {number}.")
    if council.seat_count and Seat.unscoped.filter(council=council).count() >= council.seat_count:
        raise ValidationError(
            f"A lei fixa {council.seat_count} membros para {council.short} ({council.legal_basis}): "
            "todas as cadeiras já estão cadastradas."
        )
    seat = Seat(
        jurisdiction_id=council.jurisdiction_id, council=council, number=number, represents=represents.strip()
    )
    return create_audited(actor=actor, instance=seat, reason=reason)


@transaction.atomic
def appoint_member(
    *,
    actor: Any,
    seat: Seat,
    name: str,
    role: str,
    starts_on: dt.date,
    reason: str,
    ends_on: dt.date | None = None,
    appointed_by: str = "",
) -> Member:
    """A titular or alternate takes the seat for a mandate (the law's length where it gives one)."""
    reason = _reason(reason)
    council = seat.council
    if not (name or "").strip():
        raise ValidationError("Informe o nome do membro.")
    if role not in Member.Role.values:
        raise ValidationError("Escolha titular ou suplente.")
    if council.mandate_months:
        longest = _add_months(starts_on, council.mandate_months) - dt.timedelta(days=1)
        if ends_on is None:
            ends_on = longest
        elif ends_on > longest:
            raise ValidationError(
                f"O mandato na {council.short} dura {council.mandate_months} meses "
                f"({council.legal_basis}): termina no máximo em {br_date(longest)}."
            )
    if ends_on is not None and ends_on < starts_on:
        raise ValidationError("O fim do mandato não pode ser anterior ao início.")
    if role == Member.Role.TITULAR and _holder(seat, Member.Role.TITULAR, starts_on) is not None:
        raise ValidationError(f"A cadeira {seat.number} já tem titular em {br_date(starts_on)}.")
    member = Member(
        jurisdiction_id=council.jurisdiction_id,
        council=council,
        seat=seat,
        name=name.strip(),
        role=role,
        starts_on=starts_on,
        ends_on=ends_on,
        appointed_by=(appointed_by or "").strip(),
    )
    member = create_audited(actor=actor, instance=member, reason=reason, action="member.appointed")
    if seat.vacant_since is not None and role == Member.Role.TITULAR:
        update_audited(actor=actor, instance=seat, changes={"vacant_since": None}, reason=reason)
    return member


def _holder(seat: Seat, role: str, day: dt.date) -> Member | None:
    for member in Member.unscoped.filter(seat=seat, role=role).order_by("starts_on"):
        if member.active_on(day):
            return member
    return None


def active_members(council: Council, day: dt.date) -> list[Member]:
    return [
        m
        for m in Member.unscoped.filter(council=council)
        .select_related("seat")
        .order_by("seat__number", "role")
        if m.active_on(day)
    ]


@transaction.atomic
def open_session(
    *, actor: Any, council: Council, held_on: dt.date, kind: str, agenda: str, reason: str
) -> Session:
    reason = _reason(reason)
    if kind not in Session.Kind.values:
        raise ValidationError("Escolha sessão ordinária ou extraordinária.")
    if not (agenda or "").strip():
        raise ValidationError("Informe a pauta da sessão.")
    session = Session(
        jurisdiction_id=council.jurisdiction_id,
        council=council,
        held_on=held_on,
        kind=kind,
        agenda=agenda.strip(),
    )
    return create_audited(actor=actor, instance=session, reason=reason, action="session.opened")


@dataclass(frozen=True)
class Consequence:
    member: Member
    message: str


@transaction.atomic
def record_attendance(
    *, actor: Any, session: Session, entries: dict[int, tuple[str, str]], reason: str
) -> list[Consequence]:
    """Record, per member id, (status, justification); then apply the law's loss of mandate.

    Every member in office on the session's date must be given; a justified absence needs its
    justification. Returns what followed (mandates lost, seats passed to alternates or vacant).
    """
    reason = _reason(reason)
    members = active_members(session.council, session.held_on)
    by_id = {m.pk: m for m in members}
    unknown = set(entries) - set(by_id)
    if unknown:
        raise ValidationError("Há presença de quem não é membro em exercício nesta sessão.")
    missing = [m.name for m in members if m.pk not in entries]
    if missing:
        raise ValidationError(
            "Informe a presença de todos os membros em exercício: falta " + ", ".join(missing) + "."
        )
    if Attendance.unscoped.filter(session=session).exists():
        raise ValidationError("A presença desta sessão já foi registrada.")
    for member_id, (status, justification) in entries.items():
        if status not in Attendance.Status.values:
            raise ValidationError("Escolha presente, falta sem justificativa ou falta justificada.")
        if status == Attendance.Status.JUSTIFIED and not (justification or "").strip():
            raise ValidationError(f"Informe a justificativa da falta de {by_id[member_id].name}.")
        attendance = Attendance(
            jurisdiction_id=session.jurisdiction_id,
            session=session,
            member=by_id[member_id],
            status=status,
            justification=(justification or "").strip(),
        )
        create_audited(actor=actor, instance=attendance, reason=reason, action="attendance.recorded")
    out: list[Consequence] = []
    for member_id, (status, _) in entries.items():
        if status == Attendance.Status.ABSENT:
            lost = _absence_loss(actor, by_id[member_id], session)
            if lost:
                out.extend(lost)
    return out


def absence_rule(council: Council, day: dt.date) -> tuple[dict[str, Any], str] | None:
    """The pack's loss of mandate by absences for this council, with its citation, if any."""
    found = law.entry(council.jurisdiction_id, "council.absence_loss", day)
    if found is None or found.status != "value":
        return None
    rule = dict(found.value)
    if rule.get("body") != council.key:
        return None
    return rule, str(found.citation)


def _semester(day: dt.date) -> tuple[int, int]:
    return day.year, 1 if day.month <= 6 else 2


def absence_count(member: Member, rule: dict[str, Any], upto: Session) -> tuple[int, int]:
    """(consecutive absences ending at `upto`, absences in `upto`'s semester) that count."""
    counted = {Attendance.Status.ABSENT}
    if rule.get("justified_count"):
        counted.add(Attendance.Status.JUSTIFIED)
    rows = list(
        Attendance.unscoped.filter(member=member, session__held_on__lte=upto.held_on)
        .select_related("session")
        .order_by("-session__held_on", "-session_id")
    )
    consecutive = 0
    for row in rows:
        if row.status not in counted:
            break  # a presence (or, where it does not count, a justified absence) ends the run
        consecutive += 1
    semester = _semester(upto.held_on)
    alternate = sum(1 for row in rows if row.status in counted and _semester(row.session.held_on) == semester)
    return consecutive, alternate


def _absence_loss(actor: Any, member: Member, session: Session) -> list[Consequence]:
    found = absence_rule(session.council, session.held_on)
    if found is None:
        return []
    rule, citation = found
    consecutive, alternate = absence_count(member, rule, session)
    if consecutive >= int(rule["consecutive"]):
        why = f"{consecutive} faltas seguidas sem justificativa"
    elif alternate >= int(rule["alternate"]):
        why = f"{alternate} faltas sem justificativa no semestre"
    else:
        return []
    note = f"{why}, a última na sessão de {br_date(session.held_on)} ({citation})"
    reason = f"Perda do mandato: {note}."
    update_audited(
        actor=actor,
        instance=member,
        changes={"ended_on": session.held_on, "end_reason": Member.EndReason.ABSENCES, "end_note": note},
        reason=reason,
        action="member.mandate_lost",
    )
    out = [Consequence(member, f"{member.name} perdeu o mandato: {note}.")]
    if member.role != Member.Role.TITULAR:
        return out
    seat = member.seat
    alternate_member = _holder(seat, Member.Role.ALTERNATE, session.held_on)
    if alternate_member is not None:
        update_audited(
            actor=actor,
            instance=alternate_member,
            changes={"role": Member.Role.TITULAR},
            reason=f"O suplente assume a cadeira {seat.number}: {note}.",
            action="member.promoted",
        )
        out.append(
            Consequence(
                alternate_member, f"{alternate_member.name}, suplente, assume a cadeira {seat.number}."
            )
        )
    else:
        update_audited(
            actor=actor,
            instance=seat,
            changes={"vacant_since": session.held_on},
            reason=f"Cadeira sem suplente: {note}.",
            action="seat.vacated",
        )
        out.append(Consequence(member, f"A cadeira {seat.number} fica vaga: não há suplente."))
    return out


@transaction.atomic
def end_mandate(*, actor: Any, member: Member, ended_on: dt.date, end_reason: str, reason: str) -> Member:
    reason = _reason(reason)
    if member.ended_on is not None:
        raise ValidationError(f"O mandato de {member.name} já foi encerrado em {br_date(member.ended_on)}.")
    if end_reason not in Member.EndReason.values or end_reason == Member.EndReason.ABSENCES:
        raise ValidationError(
            "Escolha o motivo do encerramento (a perda por faltas é registrada com a presença)."
        )
    if ended_on < member.starts_on:
        raise ValidationError("O mandato não pode terminar antes de começar.")
    return update_audited(
        actor=actor,
        instance=member,
        changes={"ended_on": ended_on, "end_reason": end_reason},
        reason=reason,
        action="member.mandate_ended",
    )


@transaction.atomic
def register_resolution(
    *,
    actor: Any,
    council: Council,
    number: int,
    dated_on: dt.date,
    subject: str,
    text: str,
    reason: str,
    kind: str = Resolution.Kind.RESOLUTION,
    session: Session | None = None,
    gate: str = "",
    favorable: bool = True,
) -> Resolution:
    """A numbered act of the council; the number is unique per council, kind and year."""
    reason = _reason(reason)
    if kind not in Resolution.Kind.values:
        raise ValidationError("Escolha resolução ou parecer.")
    if not number or int(number) < 1:
        raise ValidationError("Informe o número do ato (1 ou mais).")
    if not (subject or "").strip() or not (text or "").strip():
        raise ValidationError("Informe o assunto e o texto do ato.")
    if session is not None:
        if session.council_id != council.pk:
            raise ValidationError("A sessão informada é de outro colegiado.")
        if session.held_on > dated_on:
            raise ValidationError("O ato não pode ser anterior à sessão que o votou.")
    if gate:
        g = gates.gate(council.jurisdiction_id, gate)
        if g is None or g.council != council.key:
            raise ValidationError(f"A lei não submete essa matéria à deliberação {council.of}.")
    label = Resolution.Kind(kind).label
    if Resolution.unscoped.filter(council=council, kind=kind, year=dated_on.year, number=number).exists():
        raise ValidationError(f"Já existe {lower_first(label)} nº {number}/{dated_on.year} {council.of}.")
    resolution = Resolution(
        jurisdiction_id=council.jurisdiction_id,
        council=council,
        kind=kind,
        number=int(number),
        year=dated_on.year,
        dated_on=dated_on,
        subject=subject.strip(),
        text=text.strip(),
        session=session,
        gate=gate,
        favorable=favorable,
    )
    return create_audited(actor=actor, instance=resolution, reason=reason, action="resolution.registered")


def next_number(council: Council, kind: str, year: int) -> int:
    last = (
        Resolution.unscoped.filter(council=council, kind=kind, year=year)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return (last or 0) + 1


@transaction.atomic
def revoke_resolution(*, actor: Any, resolution: Resolution, revoked_on: dt.date, reason: str) -> Resolution:
    reason = _reason(reason)
    if resolution.revoked_on is not None:
        raise ValidationError(f"A {resolution.citation} já foi revogada.")
    if revoked_on < resolution.dated_on:
        raise ValidationError("A revogação não pode ser anterior ao ato.")
    before = snapshot(resolution)
    resolution.revoked_on = revoked_on
    resolution.revocation_note = reason
    resolution.full_clean()
    resolution.save(update_fields=["revoked_on", "revocation_note"])
    record(
        actor=actor,
        action="resolution.revoked",
        instance=resolution,
        reason=reason,
        before=before,
        after=snapshot(resolution),
    )
    return resolution
