"""Due process of an infraction notice: defenses and appeals, judging bodies and their sessions,
decisions, and when a decision becomes final.

Everything that differs per law is read from the pack (`process.instances`, `process.bodies`,
the engine's deadlines): the instances in order (Recife: defense to the CDTC, then appeal to the
CRA; Esteio: appeal to the CIP; Maricá: appeal to the authority that depends on the penalty,
only after paying the fine; Pernambuco: defense to EPTI's president; Cabo: appeal to the
Council), the event that starts each deadline, the body that judges, its quorum and voting rule
where the law gives them. A decision becomes final when no instance is left: at once where it is
the last instance (or annuls the notice), or when the next instance's deadline passes with
nothing filed (`settle_due_process`, the daily job). Only then does the notice count as history
(`notices.penalty.offender_history`), and only then do its effects reach the permit
(`effects.apply_final_decision`) and the fine (`fines.sync_fine`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from lotacao.core.law import entry, value
from lotacao.core.services import create_audited, update_audited
from lotacao.enforcement.due_process.procedure import (
    SEVERITY,
    body_key,
    body_rules,
    deadline_id,
    instances,
    penalty_in_force,
    run_deadline,
    short_cites,
)
from lotacao.enforcement.models import (
    AgendaItem,
    BodyMember,
    Decision,
    Filing,
    FilingAttachment,
    InfractionNotice,
    JudgingBody,
    Session,
    Vote,
)
from lotacao.enforcement.notices import states
from lotacao.enforcement.reading import br as _br
from lotacao.enforcement.reading import local_day
from lotacao.workqueue.services import WorkItemSpec

Outcome = Decision.Outcome
NoticeStatus = InfractionNotice.Status
OPEN_FILING = (Filing.Status.PENDING, Filing.Status.DILIGENCE)
PENALTY_TYPES = {"warning", "fine", "suspension", "revocation", "course", "intervention"}
ATTACHMENT_TYPES = {"application/pdf": "PDF", "image/png": "PNG", "image/jpeg": "JPEG"}
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
DILIGENCE_KIND = "enforcement.diligence_overdue"
DECISION_NOTICE_KIND = "enforcement.decision_to_notify"


def _require_reason(reason: str) -> None:
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo (fica registrado na auditoria).")


# ------------------------------------------------------------------------------- the law's process


def _local_day(notice: InfractionNotice, moment: dt.datetime) -> dt.date:
    return local_day(notice.jurisdiction, moment)


def penalty_kind(penalty: dict[str, Any]) -> str | None:
    """The most severe penalty type of a penalty result."""
    types = {str(p.get("type")) for p in penalty.get("penalties") or []}
    return next((kind for kind in SEVERITY if kind in types), None)


def _pick(instance: dict[str, Any], key: str, penalty: dict[str, Any]) -> tuple[str | None, str]:
    """An instance's deadline or body for the penalty in force; the second value explains a gap."""
    found = deadline_id(instance, penalty) if key == "deadline" else body_key(instance, penalty)
    if found is not None:
        return found, ""
    kind = penalty_kind(penalty)
    if kind is None:
        return None, "o auto não tem penalidade registrada"
    return None, f"a lei não diz qual {'prazo' if key == 'deadline' else 'órgão'} vale para {kind}"


def _in_force_penalty(notice: InfractionNotice) -> dict[str, Any]:
    return penalty_in_force(notice, list(notice.decisions.all()))


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


def _body(code: str, key: str | None, on: dt.date) -> JudgingBody | None:
    if key is None:
        return None
    ensure_bodies(code, on)
    return JudgingBody.unscoped.filter(jurisdiction_id=code, key=key).first()


@dataclass
class Stage:
    """Where a notice stands in its due process: the instance open for filing (if any), the
    event that starts its deadline and the deadline itself."""

    instance: dict[str, Any] | None
    index: int
    start: dt.date | None = None
    due: dt.date | None = None
    explanation: str = ""
    citations: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    blocked: str = ""  # why no filing can be made now
    previous: Decision | None = None


def current_stage(notice: InfractionNotice, on: dt.date) -> Stage:
    """The instance open for a filing now, its deadline, or why none is open."""
    code = notice.jurisdiction_id
    day = _local_day(notice, notice.drawn_up_at)
    steps = instances(code, day)
    if not steps:
        found = entry(code, "process.instances", day)
        why = (found.reason if found is not None else "") or "a lei não prevê defesa ou recurso"
        return Stage(None, -1, blocked=f"Não há instância de defesa cadastrada: {why}.")
    if not states.allows(notice, states.FILE):
        return Stage(None, -1, blocked=f"O auto está {states.status_words(notice.status)}.")
    # .all() (not order_by/filter) so a caller's prefetch serves it: the daily job walks many notices
    decisions = sorted(notice.decisions.all(), key=lambda d: (d.decided_on, d.pk))
    if any(d.final for d in decisions):
        return Stage(None, -1, blocked="A decisão já é definitiva.")
    last = decisions[-1] if decisions else None
    if last is None:
        index, start = 0, notice.served_on
    else:
        position = next((i for i, s in enumerate(steps) if s["id"] == last.instance), len(steps))
        index = position + 1
        if index >= len(steps):
            return Stage(None, -1, blocked="Não há outra instância de recurso.", previous=last)
        start = last.served_on if steps[index].get("starts") == "decision_served" else notice.served_on
    instance = steps[index]
    stage = Stage(instance, index, start=start, previous=last, citations=short_cites(instance))
    if any(f.instance == instance["id"] and f.status in OPEN_FILING for f in notice.filings.all()):
        stage.blocked = f"Já há {instance['name'].lower()} protocolado aguardando julgamento."
        return stage
    deadline, gap = _pick(instance, "deadline", penalty_in_force(notice, decisions))
    if deadline is None:
        stage.missing.append(f"process.instances.{instance['id']}.deadline")
        stage.explanation = f"Prazo não calculado: {gap}."
        return stage
    if start is None:
        event = "a comunicação da decisão" if instance.get("starts") == "decision_served" else "a notificação"
        stage.explanation = f"O prazo ({deadline}) começa com {event}, ainda não registrada."
        return stage
    result = run_deadline(code, deadline, start)
    stage.due = result["due"]
    stage.explanation = result["explanation"]
    stage.citations = list(dict.fromkeys(stage.citations + result["citations"]))
    stage.missing = result["missing"]
    return stage


# ----------------------------------------------------------------------------------------- filings


def _receipt(notice: InfractionNotice, instance: dict[str, Any]) -> str:
    """`AI-2026-000012/DEF-1`, `…/REC-2`: the notice, the instance's name and the filing's order."""
    n = Filing.unscoped.filter(notice=notice).count() + 1
    word = str(instance.get("name") or instance.get("id") or "PRO").split()[0]
    return f"{notice.number}/{word[:3].upper()}-{n}"


def _check_attachment(upload: Any) -> tuple[str, int, str]:
    from lotacao.documents.services import detect_content_type

    size = int(getattr(upload, "size", 0) or 0)
    name = str(getattr(upload, "name", "anexo"))
    if size <= 0:
        raise ValidationError(f"O anexo {name} está vazio.")
    if size > MAX_ATTACHMENT_BYTES:
        raise ValidationError(f"O anexo {name} passa de {MAX_ATTACHMENT_BYTES // (1024 * 1024)} MB.")
    content_type = detect_content_type(upload)
    if content_type not in ATTACHMENT_TYPES:
        raise ValidationError(f"O anexo {name} não é PDF, PNG ou JPEG.")
    upload.seek(0)
    digest = hashlib.sha256(upload.read()).hexdigest()
    upload.seek(0)
    return content_type, size, digest


def _fine_paid_first(notice: InfractionNotice, instance: dict[str, Any]) -> None:
    """Maricá art. 70, par. único: an appeal against a fine is accepted only after the fine is
    paid, within the pack's deadline from the application of the penalty (read by `fines`)."""
    from lotacao.enforcement.sanctions.fines import paid_before_appeal_deadline

    check = paid_before_appeal_deadline(notice, str(instance.get("id")))
    if not check:
        raise ValidationError(check.message)


@transaction.atomic
def file_defense(
    *,
    actor: Any,
    notice: InfractionNotice,
    text: str,
    channel: str,
    reason: str,
    filed_at: dt.datetime | None = None,
    attachments: Sequence[Any] = (),
) -> Filing:
    """Protocol a defense or appeal at the instance open now, with a receipt; a late filing is
    recorded and flagged with the deadline and its article (the body declares it late)."""
    notice = InfractionNotice.unscoped.select_for_update().select_related("jurisdiction").get(pk=notice.pk)
    if channel not in Filing.Channel.values:
        raise ValidationError("Meio de protocolo desconhecido.")
    if not (text or "").strip():
        raise ValidationError("Escreva as razões da defesa ou do recurso.")
    moment = filed_at or timezone.now()
    if moment > timezone.now() + dt.timedelta(minutes=5):
        raise ValidationError("A data do protocolo não pode ser futura.")
    filed_on = _local_day(notice, moment)
    if filed_on < _local_day(notice, notice.drawn_up_at):
        raise ValidationError("A data do protocolo não pode ser anterior à infração.")
    stage = current_stage(notice, filed_on)
    if stage.instance is None or stage.blocked:
        raise ValidationError(f"Não é possível protocolar: {stage.blocked}")
    instance = stage.instance
    if stage.previous is not None and stage.previous.outcome == Outcome.LAPSED:
        raise ValidationError("Sem defesa no prazo, a penalidade ficou definitiva.")
    _fine_paid_first(notice, instance)
    checked = [_check_attachment(a) for a in attachments]
    body_key, _gap = _pick(instance, "body", _in_force_penalty(notice))
    late = stage.due is not None and filed_on > stage.due
    explanation = stage.explanation
    if late and stage.due is not None:
        explanation = (
            f"Protocolado em {_br(filed_on)}, depois do prazo, que venceu em {_br(stage.due)} "
            f"({'; '.join(stage.citations)}). {explanation}"
        ).strip()
    filing = Filing(
        jurisdiction_id=notice.jurisdiction_id,
        notice=notice,
        instance=instance["id"],
        instance_name=instance["name"],
        body=_body(notice.jurisdiction_id, body_key, filed_on),
        receipt=_receipt(notice, instance),
        filed_at=moment,
        channel=channel,
        filed_by=actor,
        text=text.strip(),
        due_on=stage.due,
        due_explanation=explanation,
        citations=stage.citations,
        missing_parameters=stage.missing,
        late=late,
    )
    action = "enforcement.filing_late" if late else "enforcement.filing_recorded"
    create_audited(actor=actor, instance=filing, reason=reason, action=action)
    for upload, (content_type, size, digest) in zip(attachments, checked, strict=True):
        FilingAttachment.objects.create(
            jurisdiction_id=notice.jurisdiction_id,
            filing=filing,
            file=upload,
            name=str(getattr(upload, "name", "anexo"))[:200],
            content_type=content_type,
            size=size,
            sha256=digest,
        )
    _sync(actor, notice, filed_on)
    return filing


# -------------------------------------------------------------------------- bodies and sessions


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
        reason=f"{reason}: {len(items)} processo(s)",
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
def close_session(
    *, actor: Any, session: Session, minutes: str = "", reason: str = "Encerramento da sessão"
) -> Session:
    """Close the session; what was not judged stays pending for the next agenda."""
    session = Session.unscoped.select_for_update().get(pk=session.pk)
    if session.status == Session.Status.CLOSED:
        raise ValidationError("A sessão já está encerrada.")
    if session.status != Session.Status.OPEN:
        raise ValidationError("A sessão não foi aberta: registre as presenças primeiro.")
    return update_audited(
        actor=actor,
        instance=session,
        changes={"status": Session.Status.CLOSED, "minutes": (minutes or session.minutes).strip()},
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
    """The result of the votes under the body's rule: simple majority of the members present who
    vote, the president only to break a tie where the law says so (Esteio Anexo I art. 25 § 1º)."""
    rules = body_rules(session.jurisdiction_id, session.body.key, session.held_on)
    present = set(session.present.all())
    for member, choice in votes.items():
        if member not in present:
            raise ValidationError(f"{member.name} não está presente nesta sessão.")
        if choice not in Vote.Choice.values:
            raise ValidationError(f"Voto desconhecido: {choice}.")
    cite = "; ".join(short_cites(rules))
    president_tie_only = rules.get("president_votes") == "tie_only"
    president = next((m for m in votes if m.role == BodyMember.Role.PRESIDENT), None)
    ordinary = {m: c for m, c in votes.items() if not (president_tie_only and m is president)}
    counts: dict[str, int] = {}
    for choice in ordinary.values():
        counts[choice] = counts.get(choice, 0) + 1
    if not counts:
        raise ValidationError("Nenhum voto registrado.")
    best = max(counts.values())
    leaders = [c for c, n in counts.items() if n == best]
    if len(leaders) == 1:
        if president_tie_only and president is not None:
            raise ValidationError(f"O presidente só vota para desempatar ({cite}); não houve empate.")
        return Tally(leaders[0], counts, False, f"Maioria simples ({cite})." if cite else "Maioria simples.")
    if not president_tie_only:
        raise ValidationError("Empate: a lei não diz como desempatar; registre o resultado proclamado.")
    if president is None:
        raise ValidationError(f"Empate: o presidente vota para desempatar ({cite}).")
    choice = votes[president]
    if choice not in leaders:
        raise ValidationError("O voto de desempate deve escolher uma das posições empatadas.")
    counts[choice] += 1
    return Tally(choice, counts, True, f"Empate desfeito pelo voto do presidente ({cite}).")


OUTCOME_OF_CHOICE = {
    Vote.Choice.UPHOLD: Outcome.UPHELD,
    Vote.Choice.ANNUL: Outcome.ANNULLED,
    Vote.Choice.CHANGE: Outcome.CHANGED,
}


def _check_penalty(penalty: dict[str, Any]) -> dict[str, Any]:
    items = penalty.get("penalties")
    if not isinstance(items, list) or not items:
        raise ValidationError("Informe a penalidade alterada (ao menos uma).")
    for item in items:
        if not isinstance(item, dict) or item.get("type") not in PENALTY_TYPES:
            raise ValidationError(f"Penalidade desconhecida: {item!r}.")
    return penalty


# ------------------------------------------------------------------------------------- decisions


def _decision_notice_due(
    notice: InfractionNotice, instance: dict[str, Any], outcome: str, day: dt.date
) -> Any:
    deadline = instance.get("decision_notice")
    if not deadline:
        return None
    return run_deadline(notice.jurisdiction_id, str(deadline), day)["due"]


def _is_last(notice: InfractionNotice, instance_id: str, on: dt.date) -> bool:
    steps = [s["id"] for s in instances(notice.jurisdiction_id, on)]
    return instance_id not in steps or steps.index(instance_id) == len(steps) - 1


@transaction.atomic
def decide(
    *,
    actor: Any,
    filing: Filing,
    reasons: str,
    decided_on: dt.date,
    reason: str = "Julgamento",
    outcome: str | None = None,
    votes: dict[BodyMember, str] | None = None,
    session: Session | None = None,
    penalty: dict[str, Any] | None = None,
) -> Decision:
    """Judge a filing. Collegiate bodies with a voting rule in the law decide by the votes of the
    members present in an open session (quorum checked when it opened); the others record the
    outcome as proclaimed. A late filing can only be declared late (not known)."""
    filing = (
        Filing.unscoped.select_for_update(of=("self",))
        .select_related("notice__jurisdiction", "body")
        .get(pk=filing.pk)
    )
    notice = InfractionNotice.unscoped.select_for_update().get(pk=filing.notice_id)
    if filing.status not in (Filing.Status.PENDING, Filing.Status.DILIGENCE):
        raise ValidationError("Este processo já foi julgado.")
    if not (reasons or "").strip():
        raise ValidationError("A decisão precisa de fundamentação.")
    if decided_on > timezone.localdate() or decided_on < _local_day(notice, filing.filed_at):
        raise ValidationError("A data da decisão deve estar entre o protocolo e hoje.")
    body = filing.body
    if session is not None:
        session = Session.unscoped.select_related("body").get(pk=session.pk)
    tally_result: Tally | None = None
    if body is not None and body.collegiate:
        if session is None or session.body_id != body.pk:
            raise ValidationError(f"O {body.name} decide em sessão: escolha a sessão.")
        if session.status != Session.Status.OPEN:
            raise ValidationError("Abra a sessão (presenças e quórum) antes de julgar.")
        rules = body_rules(notice.jurisdiction_id, body.key, session.held_on)
        if rules.get("majority") and votes:
            tally_result = tally(session, votes)
            outcome = str(OUTCOME_OF_CHOICE[Vote.Choice(tally_result.outcome)])
            if filing.late and outcome != Outcome.NOT_KNOWN:
                # The vote is on the merits, but a late filing is declared late first (Esteio art. 21).
                raise ValidationError(
                    "Recurso fora do prazo: declare-o intempestivo (não conhecido) antes do mérito "
                    f"— prazo vencido em {_br(filing.due_on) if filing.due_on else '?'}."
                )
        elif rules.get("majority") and outcome != Outcome.NOT_KNOWN:
            raise ValidationError(f"O {body.name} decide por votos dos presentes: registre os votos.")
    if outcome is None or outcome not in Outcome.values or outcome == Outcome.LAPSED:
        raise ValidationError("Resultado do julgamento desconhecido.")
    if filing.late and outcome not in (Outcome.NOT_KNOWN,) and tally_result is None:
        raise ValidationError(
            f"Protocolado fora do prazo (venceu em {_br(filing.due_on) if filing.due_on else '?'}): "
            "a única decisão cabível é não conhecer o recurso por intempestividade."
        )
    in_force = _in_force_penalty(notice)
    new_penalty = in_force
    if outcome == Outcome.CHANGED:
        new_penalty = {**in_force, **_check_penalty(penalty or {})}
    elif outcome == Outcome.ANNULLED:
        new_penalty = {}
    day_steps = instances(notice.jurisdiction_id, _local_day(notice, notice.drawn_up_at))
    instance = next((s for s in day_steps if s["id"] == filing.instance), {})
    citations = list(dict.fromkeys(short_cites(instance) + (list(filing.citations or []))))
    if filing.late and outcome == Outcome.NOT_KNOWN and filing.due_on is not None:
        reasons = f"{reasons.strip()} (prazo vencido em {_br(filing.due_on)})"
    decision = Decision(
        jurisdiction_id=notice.jurisdiction_id,
        notice=notice,
        filing=filing,
        instance=filing.instance,
        body=body,
        session=session,
        decided_on=decided_on,
        outcome=outcome,
        reasons=reasons.strip(),
        penalty=new_penalty,
        votes=(
            {"counts": tally_result.counts, "tie_break": tally_result.tie_break, "note": tally_result.note}
            if tally_result
            else {}
        ),
        citations=citations,
        notify_due=_decision_notice_due(notice, instance, outcome, decided_on)
        if outcome != Outcome.ANNULLED
        else None,
        decided_by=actor,
    )
    create_audited(actor=actor, instance=decision, reason=reason, action=f"enforcement.decision_{outcome}")
    if votes and session is not None:
        for member, choice in votes.items():
            item = AgendaItem.unscoped.filter(session=session, filing=filing).first()
            if item is None:
                item = AgendaItem.objects.create(
                    jurisdiction_id=notice.jurisdiction_id,
                    session=session,
                    filing=filing,
                    position=session.agenda.count() + 1,
                )
            is_tie_break = bool(
                tally_result and tally_result.tie_break and member.role == BodyMember.Role.PRESIDENT
            )
            Vote.objects.create(
                jurisdiction_id=notice.jurisdiction_id,
                item=item,
                member=member,
                choice=choice,
                tie_break=is_tie_break,
            )
    status = Filing.Status.NOT_KNOWN if outcome == Outcome.NOT_KNOWN else Filing.Status.JUDGED
    update_audited(
        actor=actor,
        instance=filing,
        changes={"status": status},
        reason=reason,
        action="enforcement.filing_judged",
    )
    if outcome == Outcome.ANNULLED or _is_last(notice, filing.instance, decided_on):
        decision = finalize(actor=actor, decision=decision, on=decided_on)
    else:
        _sync(actor, notice, decided_on)
    return decision


@transaction.atomic
def record_decision_service(
    *, actor: Any, decision: Decision, served_on: dt.date, reason: str = "Decisão comunicada"
) -> Decision:
    """The date the decision reached the offender (by hand or AR): it starts the next instance's
    deadline where the law counts from it (Recife art. 43) and the fine's due date (art. 36 § 2º)."""
    decision = Decision.unscoped.select_for_update().get(pk=decision.pk)
    if decision.served_on is not None:
        raise ValidationError(f"A decisão já foi comunicada em {_br(decision.served_on)}.")
    if served_on < decision.decided_on or served_on > timezone.localdate():
        raise ValidationError("A data da comunicação deve estar entre a decisão e hoje.")
    update_audited(
        actor=actor,
        instance=decision,
        changes={"served_on": served_on},
        reason=reason,
        action="enforcement.decision_served",
    )
    _sync(actor, decision.notice, served_on)
    return decision


@transaction.atomic
def finalize(*, actor: Any, decision: Decision, on: dt.date) -> Decision:
    """The decision becomes final: the notice closes (annulled, or decided and counted as history),
    the penalty in force is the decision's, and its effects reach the permit and the fine."""
    decision = Decision.unscoped.select_for_update().get(pk=decision.pk)
    if decision.final:
        return decision
    notice = InfractionNotice.unscoped.select_for_update().get(pk=decision.notice_id)
    annulled = decision.outcome == Outcome.ANNULLED
    update_audited(
        actor=actor,
        instance=decision,
        changes={"final": True, "final_on": on},
        reason="Decisão definitiva: não cabe mais recurso",
        action="enforcement.decision_final",
    )
    changes: dict[str, Any] = {}
    if not annulled and decision.penalty and decision.penalty != notice.penalty:
        changes["penalty"] = decision.penalty
    states.transition(
        notice,
        states.ANNUL if annulled else states.DECIDE_FINAL,
        actor=actor,
        reason=f"{decision.get_outcome_display()} — decisão definitiva em {_br(on)}",
        changes=changes,
    )
    if not annulled:
        from lotacao.enforcement.sanctions.effects import apply_final_decision

        apply_final_decision(actor=actor, decision=decision, on=on)
    _sync(actor, notice, on)
    return decision


def _sync(actor: Any, notice: InfractionNotice, on: dt.date) -> None:
    from lotacao.enforcement.sanctions.fines import sync_fine

    sync_fine(actor=actor, notice=InfractionNotice.unscoped.get(pk=notice.pk), on=on)


# --------------------------------------------------------------------------------- the daily job


@dataclass
class SettleResult:
    lapsed: list[str] = field(default_factory=list)  # notice numbers made final with no filing
    final: list[str] = field(default_factory=list)  # decisions made final: no appeal left
    fines: list[str] = field(default_factory=list)  # fines past due with a filing still pending


@transaction.atomic
def _lapse(notice: InfractionNotice, stage: Stage, today: dt.date, actor: Any) -> None:
    instance = stage.instance or {}
    due = stage.due or today
    decision = Decision(
        jurisdiction_id=notice.jurisdiction_id,
        notice=notice,
        instance=str(instance.get("id", "")),
        decided_on=due + dt.timedelta(days=1),
        outcome=Outcome.LAPSED,
        reasons=(
            f"Prazo de {str(instance.get('name', 'defesa')).lower()} vencido em {_br(due)} sem protocolo: "
            "a penalidade fica definitiva."
        ),
        penalty=_in_force_penalty(notice),
        citations=stage.citations,
    )
    create_audited(
        actor=actor,
        instance=decision,
        reason="Prazo vencido sem defesa",
        action="enforcement.decision_lapsed",
    )
    finalize(actor=actor, decision=decision, on=decision.decided_on)


def settle_due_process(*, today: dt.date, actor: Any = None) -> SettleResult:
    """Make final what no instance can change any more: notices served whose first deadline
    passed with nothing filed, and decisions whose next instance's deadline passed unused."""
    result = SettleResult()
    candidates = (
        InfractionNotice.unscoped.filter(status=NoticeStatus.NOTIFIED, served_on__isnull=False)
        .select_related("jurisdiction")
        .prefetch_related("decisions", "filings")
    )
    for notice in candidates.iterator(chunk_size=500):
        if any(f.status in (Filing.Status.PENDING, Filing.Status.DILIGENCE) for f in notice.filings.all()):
            continue
        stage = current_stage(notice, today)
        if stage.instance is None or stage.blocked or stage.due is None or stage.due >= today:
            if stage.instance is None and stage.previous is not None and not stage.previous.final:
                finalize(actor=actor, decision=stage.previous, on=today)
                result.final.append(notice.number)
            continue
        if stage.previous is None:
            _lapse(notice, stage, today, actor)
            result.lapsed.append(notice.number)
        else:
            finalize(actor=actor, decision=stage.previous, on=stage.due + dt.timedelta(days=1))
            result.final.append(notice.number)
    # A fine whose due date passes while a defense or appeal waits for judgment takes the law's
    # effect on that day (Esteio Anexo I art. 22 § 1º: suspended), not at the next event.
    from lotacao.enforcement.models import Fine

    waiting = Fine.unscoped.filter(
        status=Fine.Status.OPEN,
        due_on__lt=today,
        notice__filings__status__in=[Filing.Status.PENDING, Filing.Status.DILIGENCE],
    ).distinct()
    for fine in waiting.select_related("notice"):
        _sync(actor, fine.notice, today)
        result.fines.append(fine.notice.number)
    return result


def pending_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Work items: diligences past the law's number of sessions; decisions not yet communicated."""
    diligences = Filing.unscoped.filter(status=Filing.Status.DILIGENCE).select_related(
        "diligence_session", "body"
    )
    for filing in diligences:
        limit, held, cites = diligence_limit(filing)
        if limit is not None and held >= limit:
            yield WorkItemSpec(
                jurisdiction_id=filing.jurisdiction_id,
                kind=DILIGENCE_KIND,
                key=f"filing:{filing.pk}",
                title=(
                    f"Diligência do protocolo {filing.receipt}: {held} sessões ordinárias desde o pedido; "
                    f"a lei manda julgar em até {limit} ({'; '.join(cites)})"
                )[:300],
                due_on=today,
                url=filing.get_absolute_url(),
            )
    unserved = Decision.unscoped.filter(served_on__isnull=True, notify_due__isnull=False, final=False)
    for decision in unserved.select_related("notice"):
        yield WorkItemSpec(
            jurisdiction_id=decision.jurisdiction_id,
            kind=DECISION_NOTICE_KIND,
            key=f"decision:{decision.pk}",
            title=f"Comunicar a decisão do auto {decision.notice.number} até {decision.notify_due:%d/%m/%Y}",
            due_on=decision.notify_due,
            url=decision.get_absolute_url(),
        )
