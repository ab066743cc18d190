"""The bodies that judge and how they sit: judging bodies created from the pack's
`process.bodies` (members, term, quorum, majority, `president_votes: tie_only`,
`diligence_sessions`), their members with mandates, sessions with presence and quorum, the
agenda in the law's order (Esteio Anexo I art. 25 § 4º: diligences first), diligences watched
for the law's number of sessions (§ 5º), and the tally of votes (§ 1º)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.law import value
from lotacao.enforcement.due_process.procedure import body_rules, short_cites
from lotacao.enforcement.models import AgendaItem, BodyMember, Filing, JudgingBody, Session
from lotacao.enforcement.reading import br as _br


def _require_reason(reason: str) -> None:
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo (fica registrado na auditoria).")


def ensure_bodies(code: str, on: dt.date) -> list[JudgingBody]:
    """The jurisdiction's judging bodies, created from the pack on first use."""
    bodies = []
    for rules in value(code, "process.bodies", on) or []:
        body, _ = JudgingBody.unscoped.get_or_create(
            jurisdiction_id=code,
            key=rules["key"],
            defaults={
                "name": rules["name"],
                "collegiate": bool(rules.get("collegiate", True)),
                "citation": "; ".join(short_cites(rules)),
            },
        )
        bodies.append(body)
    return bodies


def body_for(code: str, key: str | None, on: dt.date) -> JudgingBody | None:
    if key is None:
        return None
    ensure_bodies(code, on)
    return JudgingBody.unscoped.filter(jurisdiction_id=code, key=key).first()


@transaction.atomic
def add_member(
    *,
    actor: Any,
    body: JudgingBody,
    name: str,
    role: str,
    starts_on: dt.date,
    reason: str,
    ends_on: dt.date | None = None,
    seat: str = "",
    act: str = "",
    user: Any = None,
) -> BodyMember:
    _require_reason(reason)
    if not (name or "").strip():
        raise ValidationError("Informe o nome do membro.")
    if role not in BodyMember.Role.values:
        raise ValidationError("Função desconhecida: presidente, membro ou suplente.")
    rules = body_rules(body.jurisdiction_id, body.key, starts_on)
    if ends_on is None and rules.get("term_years"):
        years = int(rules["term_years"])
        try:
            ends_on = starts_on.replace(year=starts_on.year + years) - dt.timedelta(days=1)
        except ValueError:
            ends_on = starts_on.replace(year=starts_on.year + years, day=28)
    if ends_on is not None and ends_on < starts_on:
        raise ValidationError("O fim do mandato não pode ser anterior ao início.")
    serving = [
        m for m in body.members.all() if m.serves_on(starts_on) and m.role != BodyMember.Role.ALTERNATE
    ]
    seats = rules.get("members")
    if role != BodyMember.Role.ALTERNATE and seats and len(serving) >= int(seats):
        raise ValidationError(
            f"O {body.name} tem {seats} membros titulares ({'; '.join(short_cites(rules))}) e já estão todos "
            f"nomeados em {_br(starts_on)}."
        )
    if role == BodyMember.Role.PRESIDENT and any(m.role == BodyMember.Role.PRESIDENT for m in serving):
        raise ValidationError("Já há presidente com mandato nessa data.")
    member = BodyMember(
        jurisdiction_id=body.jurisdiction_id,
        body=body,
        name=name.strip(),
        role=role,
        starts_on=starts_on,
        ends_on=ends_on,
        seat=seat.strip(),
        act=act.strip(),
        user=user,
    )
    return create_audited(actor=actor, instance=member, reason=reason, action="enforcement.body_member_added")


@transaction.atomic
def schedule_session(
    *, actor: Any, body: JudgingBody, held_on: dt.date, reason: str, kind: str = Session.Kind.ORDINARY
) -> Session:
    _require_reason(reason)
    if kind not in Session.Kind.values:
        raise ValidationError("Tipo de sessão desconhecido.")
    if not body.collegiate:
        raise ValidationError(f"{body.name} decide sozinho: não há sessões de julgamento.")
    body = JudgingBody.unscoped.select_for_update().get(pk=body.pk)
    last = Session.unscoped.filter(body=body).aggregate(n=Max("number"))["n"] or 0
    session = Session(
        jurisdiction_id=body.jurisdiction_id, body=body, number=last + 1, kind=kind, held_on=held_on
    )
    return create_audited(
        actor=actor, instance=session, reason=reason, action="enforcement.session_scheduled"
    )


def _diligence_priority(filing: Filing) -> bool:
    return filing.status == Filing.Status.DILIGENCE


def agenda_order(filings: Iterable[Filing]) -> list[Filing]:
    """Filing (protocol) order, with those awaiting a diligence first (Esteio Anexo I art. 25
    § 4º: "julgados preferencialmente na ordem de protocolo, com exceção daqueles que tiverem
    pedido de diligência, cujo julgamento será priorizado")."""
    return sorted(filings, key=lambda f: (not _diligence_priority(f), f.filed_at, f.pk))


@transaction.atomic
def build_agenda(*, actor: Any, session: Session, reason: str = "Pauta da sessão") -> list[AgendaItem]:
    """Put every undecided filing of the body on the session's agenda, in the law's order."""
    session = Session.unscoped.select_for_update().get(pk=session.pk)
    if session.status == Session.Status.CLOSED:
        raise ValidationError("A sessão está encerrada.")
    waiting = Filing.unscoped.filter(
        body=session.body, status__in=[Filing.Status.PENDING, Filing.Status.DILIGENCE]
    ).exclude(agenda_items__session=session)
    current = list(session.agenda.select_related("filing"))
    ordered = agenda_order([i.filing for i in current] + list(waiting))
    existing = {i.filing_id: i for i in current}
    items = []
    for position, filing in enumerate(ordered, start=1):
        item = existing.get(filing.pk)
        if item is None:
            item = AgendaItem(
                jurisdiction_id=session.jurisdiction_id,
                session=session,
                filing=filing,
                position=position,
                priority=_diligence_priority(filing),
            )
            item.save()
        elif item.position != position:
            item.position = position
            item.save(update_fields=["position"])
        items.append(item)
    update_audited(
        actor=actor,
        instance=session,
        changes={"minutes": session.minutes},
        reason=f"{reason}: {len(items)} processo" + ("" if len(items) == 1 else "s"),
        action="enforcement.session_agenda",
    )
    return items


@transaction.atomic
def open_session(*, actor: Any, session: Session, present: Sequence[BodyMember], reason: str) -> Session:
    """Record who is present and open the session, if the law's quorum is met."""
    _require_reason(reason)
    session = Session.unscoped.select_for_update().get(pk=session.pk)
    if session.status == Session.Status.CLOSED:
        raise ValidationError("A sessão está encerrada.")
    members = list(present)
    for member in members:
        if member.body_id != session.body_id:
            raise ValidationError(f"{member.name} não é membro do {session.body.name}.")
        if not member.serves_on(session.held_on):
            raise ValidationError(f"O mandato de {member.name} não cobre {_br(session.held_on)}.")
    rules = body_rules(session.jurisdiction_id, session.body.key, session.held_on)
    quorum = rules.get("quorum")
    if quorum and len(members) < int(quorum):
        raise ValidationError(
            f"Sem quórum: presentes {len(members)}, a lei exige pelo menos {quorum} "
            f"({'; '.join(short_cites(rules))})."
        )
    session.present.set(members)
    return update_audited(
        actor=actor,
        instance=session,
        changes={"status": Session.Status.OPEN},
        reason=f"{reason} — presentes: {', '.join(m.name for m in members)}",
        action="enforcement.session_opened",
    )


@transaction.atomic
def close_session(*, actor: Any, session: Session, reason: str = "Encerramento da sessão") -> Session:
    """Close the session once its minutes, generated from it, are signed by the president
    (`minutes.py`); what was not judged stays pending for the next agenda."""
    from lotacao.enforcement.due_process import minutes

    session = Session.unscoped.select_for_update().get(pk=session.pk)
    if session.status == Session.Status.CLOSED:
        raise ValidationError("A sessão já está encerrada.")
    if session.status != Session.Status.OPEN:
        raise ValidationError("A sessão não foi aberta: registre as presenças primeiro.")
    minutes.require_signed(session)
    return update_audited(
        actor=actor,
        instance=session,
        changes={"status": Session.Status.CLOSED},
        reason=reason,
        action="enforcement.session_closed",
    )


@transaction.atomic
def request_diligence(*, actor: Any, item: AgendaItem, description: str, reason: str) -> Filing:
    """A member asks for a diligence (Esteio Anexo I art. 25 § 3º); the filing goes to the top
    of the next agendas and must be judged within the law's number of sessions (§ 5º)."""
    if not (description or "").strip():
        raise ValidationError("Descreva a diligência pedida.")
    session = Session.unscoped.get(pk=item.session_id)
    if session.status != Session.Status.OPEN:
        raise ValidationError("Abra a sessão (presenças e quórum) antes de deliberar.")
    filing = Filing.unscoped.select_for_update().get(pk=item.filing_id)
    if filing.status not in (Filing.Status.PENDING, Filing.Status.DILIGENCE):
        raise ValidationError("O processo já foi julgado.")
    return update_audited(
        actor=actor,
        instance=filing,
        changes={
            "status": Filing.Status.DILIGENCE,
            "diligence": description.strip(),
            "diligence_session": session,
        },
        reason=reason,
        action="enforcement.filing_diligence",
    )


def diligence_limit(filing: Filing) -> tuple[int | None, int, list[str]]:
    """(sessions allowed, ordinary sessions held since the request, citations)."""
    if filing.diligence_session is None or filing.body is None:
        return None, 0, []
    rules = body_rules(filing.jurisdiction_id, filing.body.key, filing.diligence_session.held_on)
    limit = rules.get("diligence_sessions")
    held = Session.unscoped.filter(
        body=filing.body,
        kind=Session.Kind.ORDINARY,
        number__gt=filing.diligence_session.number,
        status__in=[Session.Status.OPEN, Session.Status.CLOSED],
    ).count()
    return (int(limit) if limit else None), held, short_cites(rules)


@dataclass
class Tally:
    outcome: str
    counts: dict[str, int]
    tie_break: bool
    note: str


def tally(session: Session, votes: dict[BodyMember, str]) -> Tally:
    """The result of the votes under the body's rule (`votes.compute`): simple majority of the
    members present and not impeded who vote, the president only to break a tie where the law says
    so (Esteio Anexo I art. 25 § 1º); refused while a present member has not voted, on a tie the law
    does not break, or without quorum."""
    from lotacao.enforcement.due_process.votes import compute

    result = compute(session, votes)
    if result.refusal or result.outcome is None:
        raise ValidationError(result.refusal or "Nenhum voto registrado.")
    return Tally(result.outcome, result.counts, result.tie_break, result.note)


@transaction.atomic
def review_judgment_delay(
    *,
    actor: Any,
    decision: Any,
    justification: str = "",
    members_lost: Sequence[BodyMember] = (),
    reason: str,
    on: dt.date | None = None,
) -> Any:
    """A filing judged after the law's judging deadline (Recife art. 42), reviewed once: either the
    delay was justified (its grounds recorded), or the members who missed the deadline without
    justification lose their mandate from `on` (art. 40, II), each audited."""
    from django.utils import timezone

    from lotacao.enforcement.due_process.procedure import judgment_due
    from lotacao.enforcement.models import Decision

    _require_reason(reason)
    day = on or timezone.localdate()
    decision = (
        Decision.unscoped.select_for_update(of=("self",))
        .select_related("filing__notice__jurisdiction")
        .get(pk=decision.pk)
    )
    if decision.mandate_reviewed:
        raise ValidationError("O atraso deste julgamento já foi verificado.")
    if decision.filing is None:
        raise ValidationError("Esta decisão não julgou um protocolo.")
    due, cites = judgment_due(decision.filing)
    if due is None or decision.decided_on <= due:
        raise ValidationError("Este julgamento foi feito no prazo da lei: não há atraso a verificar.")
    justification = (justification or "").strip()
    if bool(justification) == bool(members_lost):
        raise ValidationError(
            "Informe a justificativa do atraso ou os membros que perdem o mandato (art. 40, II), não os dois."
        )
    for member in members_lost:
        if member.body_id != decision.body_id:
            raise ValidationError(f"{member.name} não é membro do órgão que julgou.")
        if not member.serves_on(day):
            raise ValidationError(f"O mandato de {member.name} já não está em vigor.")
        update_audited(
            actor=actor,
            instance=member,
            changes={"ends_on": day},
            reason=(
                f"Perda do mandato (art. 40, II): julgamento do protocolo {decision.filing.receipt} em "
                f"{_br(decision.decided_on)}, depois do prazo de {_br(due)} ({'; '.join(cites)}). {reason}"
            ),
            action="enforcement.mandate_lost",
        )
    return update_audited(
        actor=actor,
        instance=decision,
        changes={"mandate_reviewed": True, "delay_justification": justification},
        reason=reason,
        action="enforcement.judgment_delay_justified" if justification else "enforcement.mandate_lost",
    )
