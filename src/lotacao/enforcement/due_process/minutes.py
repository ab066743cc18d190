"""The minutes (ata) of a judging session, generated from what the session recorded — the members
present, each item of the agenda with its holder, infraction as the law prints it, penalty and the
defense's text, each member's vote with its reasons, and the result — and signed off by the
president present. A session closes only with signed minutes that still match the session
(`judging.close_session`); the PDF is rendered from the same data (`minutes_pdf`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from lotacao.audit.services import update_audited
from lotacao.core.law import pack_for
from lotacao.enforcement.due_process.procedure import body_rules, short_cites
from lotacao.enforcement.due_process.stage import in_force_penalty
from lotacao.enforcement.due_process.votes import MERITS, late_words
from lotacao.enforcement.due_process.votes import result as vote_result
from lotacao.enforcement.models import AgendaItem, BodyMember, Decision, InfractionNotice, Session, Vote
from lotacao.enforcement.reading import br, describe_penalty

# The merits vote that makes each outcome (a vote for another is a dissent: "voto vencido").
CHOICE_OF_OUTCOME = {
    "upheld": Vote.Choice.UPHOLD,
    "annulled": Vote.Choice.ANNUL,
    "changed": Vote.Choice.CHANGE,
}


@dataclass
class VoteLine:
    member: str
    role: str
    choice: str
    reasons: str
    tie_break: bool
    # "voto vencido" (a merits vote the result went against); judged after the law's deadline.
    marks: list[str] = field(default_factory=list)


@dataclass
class ItemLine:
    position: int
    receipt: str
    instance: str
    notice: str
    holder: str
    infraction: str
    penalty: str
    defense: str
    late: bool
    diligence: str
    votes: list[VoteLine] = field(default_factory=list)
    result: str = ""
    reasons: str = ""
    tally: str = ""


@dataclass
class Minutes:
    session: Session
    agency: str
    law: str
    body: str
    citation: str
    present: list[BodyMember]
    items: list[ItemLine]
    notes: str
    president: BodyMember | None


def infraction_words(notice: InfractionNotice) -> str:
    """The infraction as the law prints it: its article and its text from the pack's catalogue;
    a notice by group alone (Cabo) names the group and the description written on the notice."""
    pack = pack_for(notice.jurisdiction_id)
    row = pack.infractions.get(notice.infraction_code) if notice.infraction_code else None
    if row is not None:
        return f"{row.citation} — {row.description}" if row.citation else str(row.description)
    group = pack.groups.get(notice.infraction_group) if notice.infraction_group else None
    words = [str(group.label) if group is not None else "", notice.description.strip()]
    return " — ".join(w for w in words if w) or "Infração não identificada no auto"


def holder_words(notice: InfractionNotice) -> str:
    if notice.holder is not None:
        return str(notice.holder)
    if notice.agent is not None:
        return str(notice.agent)
    return notice.offender_name or "Infrator não identificado"


def president_of(session: Session) -> BodyMember | None:
    return next((m for m in session.present.all() if m.role == BodyMember.Role.PRESIDENT), None)


def tally_words(decision: Decision) -> str:
    counts = (decision.votes or {}).get("counts") or {}
    # In the law's order of the choices (jsonb does not keep the order the counts were written in).
    parts = [f"{label}: {counts[key]}" for key, label in Vote.Choice.choices if key in counts]
    note = (decision.votes or {}).get("note") or ""
    return "; ".join(parts) + (f" — {note}" if note and parts else "")


def _asked_here(filing: Any, item: AgendaItem | None) -> bool:
    return item is not None and filing.diligence_session_id == item.session_id


def _item_line(position: int, item: AgendaItem | None, decision: Decision | None, filing: Any) -> ItemLine:
    notice = filing.notice
    line = ItemLine(
        position=position,
        receipt=filing.receipt,
        instance=filing.instance_name,
        notice=notice.number,
        holder=holder_words(notice),
        infraction=infraction_words(notice),
        penalty=describe_penalty(in_force_penalty(notice)) if decision is None else "",
        defense=filing.text.strip(),
        late=filing.late,
        diligence=filing.diligence.strip() if _asked_here(filing, item) else "",
    )
    if decision is not None:
        # The penalty judged is the one in force before this decision: the notice's or the
        # previous decision's.
        earlier = [
            d for d in notice.decisions.all() if d.pk != decision.pk and d.decided_on <= decision.decided_on
        ]
        before = earlier[0].penalty if earlier else notice.penalty
        line.penalty = describe_penalty(before)
        line.result = decision.outcome_words
        line.reasons = decision.reasons
        line.tally = tally_words(decision)
    if item is not None:
        labels = dict(Vote.Choice.choices)
        won = CHOICE_OF_OUTCOME.get(decision.outcome) if decision is not None else None
        late = late_words(filing)
        for vote in item.votes.select_related("member").order_by("member__role", "member__name"):
            marks = []
            if won and vote.choice in MERITS and vote.choice != won:
                marks.append("voto vencido")
            if vote.late and late:
                marks.append(f"votou {late}")
            line.votes.append(
                VoteLine(
                    member=vote.member.name,
                    role=vote.member.get_role_display(),
                    choice=labels.get(vote.choice, vote.choice),
                    reasons=vote.reasons.strip(),
                    tie_break=vote.tie_break,
                    marks=marks,
                )
            )
    if not line.result:
        line.result = "Em diligência" if line.diligence else "Não julgado nesta sessão (permanece em pauta)"
        if item is not None and line.votes and not line.diligence:
            why = vote_result(item).refusal
            line.result += f": {why}" if why else ""
    return line


def _recorded_lines(decision: Decision) -> list[VoteLine]:
    """The votes a decision without an agenda item keeps (the body's own application, Cabo
    art. 29), each with its reasons and, when it lost, marked as a dissent."""
    labels = dict(Vote.Choice.choices)
    won = CHOICE_OF_OUTCOME.get(decision.outcome)
    lines = []
    for row in (decision.votes or {}).get("members") or []:
        choice = str(row.get("choice") or "")
        lines.append(
            VoteLine(
                member=str(row.get("name") or ""),
                role=str(row.get("role") or ""),
                choice=labels.get(choice, choice),
                reasons=str(row.get("reasons") or ""),
                tie_break=bool(row.get("tie_break")),
                marks=["voto vencido"] if won and choice in MERITS and choice != won else [],
            )
        )
    return lines


def vote_lines(decision: Decision) -> list[VoteLine]:
    """Each member's vote on a decision: from its session's agenda item, or kept on the decision
    (the body's own application)."""
    if decision.session_id is not None and decision.filing_id is not None:
        item = AgendaItem.unscoped.filter(
            session_id=decision.session_id, filing_id=decision.filing_id
        ).first()
        if item is not None and item.votes.exists():
            return _item_line(0, item, decision, decision.filing).votes
    return _recorded_lines(decision)


def build(session: Session, notes: str | None = None) -> Minutes:
    """The minutes' content from the session's records, in agenda order (decisions taken in the
    session for filings outside the agenda, such as a body's own application, follow)."""
    session = Session.unscoped.select_related("body", "jurisdiction").get(pk=session.pk)
    items: list[ItemLine] = []
    seen: set[int] = set()
    agenda = session.agenda.select_related("filing__notice__holder", "filing__notice__agent")
    for item in agenda.order_by("position"):
        decision = Decision.unscoped.filter(filing=item.filing, session=session).first()
        items.append(_item_line(item.position, item, decision, item.filing))
        seen.add(item.filing_id)
    extra = Decision.unscoped.filter(session=session).exclude(filing__in=seen).select_related("notice")
    for decision in extra.order_by("id"):
        if decision.filing is not None:
            items.append(_item_line(len(items) + 1, None, decision, decision.filing))
        else:
            notice = decision.notice
            items.append(
                ItemLine(
                    position=len(items) + 1,
                    receipt="",
                    instance=decision.get_outcome_display(),
                    notice=notice.number,
                    holder=holder_words(notice),
                    infraction=infraction_words(notice),
                    penalty=describe_penalty(notice.penalty),
                    defense="",
                    late=False,
                    diligence="",
                    result=decision.outcome_words,
                    reasons=decision.reasons,
                    tally=tally_words(decision),
                    votes=_recorded_lines(decision),
                )
            )
    rules = body_rules(session.jurisdiction_id, session.body.key, session.held_on)
    jurisdiction = session.jurisdiction
    present = sorted(session.present.all(), key=lambda m: (m.role != BodyMember.Role.PRESIDENT, m.name))
    return Minutes(
        session=session,
        agency=str(jurisdiction.official_name or jurisdiction.name),
        law=str(pack_for(session.jurisdiction_id).law),
        body=session.body.name,
        citation="; ".join(short_cites(rules)),
        present=present,
        items=items,
        notes=(session.minutes_notes if notes is None else notes).strip(),
        president=president_of(session),
    )


def text(minutes: Minutes) -> str:
    """The minutes as plain text (what is stored, signed and compared at closing)."""
    return render_to_string("enforcement/due_process/minutes.txt", {"m": minutes}).strip()


def pdf_html(session: Session) -> str:
    """The PDF's page: once generated, the minutes as written and signed (later changes to a
    person's name or a filing do not rewrite them); before that, a draft from the session."""
    m = build(session)
    written = session.minutes.strip() if session.minutes_generated_at else ""
    context = {
        "m": m,
        "written": written,
        # The page's header and footer (enforcement/dossier/pdf/_base.html): the agency, its place
        # and law, and when this copy was issued.
        "agency": m.agency,
        "jurisdiction": session.jurisdiction,
        "law": m.law,
        "today": timezone.localdate(),
        "issued_at": timezone.localtime(),
    }
    return render_to_string("enforcement/due_process/minutes_pdf.html", context)


def minutes_pdf(session: Session) -> bytes:
    from lotacao.core.pdf import render

    return render(pdf_html(session))


def _require_open(session: Session) -> None:
    if session.status == Session.Status.CLOSED:
        raise ValidationError("A sessão está encerrada: a ata não pode mais ser alterada.")
    if session.status != Session.Status.OPEN:
        raise ValidationError("A sessão não foi aberta: registre as presenças primeiro.")


@transaction.atomic
def generate(*, actor: Any, session: Session, notes: str = "", reason: str = "Ata gerada") -> Session:
    """Write the minutes from the session as it stands (with the notes of what else happened);
    a new version clears an earlier signature."""
    session = Session.unscoped.select_for_update().get(pk=session.pk)
    _require_open(session)
    content = text(build(session, notes or ""))
    return update_audited(
        actor=actor,
        instance=session,
        changes={
            "minutes": content,
            "minutes_notes": (notes or "").strip(),
            "minutes_generated_at": timezone.now(),
            "minutes_signed_at": None,
            "minutes_signed_by": None,
        },
        reason=reason,
        action="enforcement.session_minutes_generated",
    )


def stale(session: Session) -> bool:
    """Whether the session changed after its minutes were generated."""
    return not session.minutes_generated_at or text(build(session)) != session.minutes.strip()


@transaction.atomic
def sign(*, actor: Any, session: Session, reason: str = "Ata assinada pelo presidente") -> Session:
    """The president present signs the minutes off. A signed-in user must be the president's own
    account; the system's own work (actor None) signs in the president's name."""
    session = Session.unscoped.select_for_update().get(pk=session.pk)
    _require_open(session)
    if not session.minutes_generated_at:
        raise ValidationError("Gere a ata da sessão antes de assiná-la.")
    if stale(session):
        raise ValidationError(
            "A sessão mudou depois que a ata foi gerada: gere a ata de novo antes de assinar."
        )
    president = president_of(session)
    if president is None:
        raise ValidationError(
            "Não há presidente entre os presentes: a ata é assinada pelo presidente da sessão."
        )
    if actor is not None and not getattr(actor, "is_superuser", False):
        if president.user_id is None:
            raise ValidationError(
                f"O presidente {president.name} não tem usuário vinculado no sistema: "
                "vincule-o ao membro para que ele assine a ata."
            )
        if president.user_id != actor.pk:
            raise ValidationError(f"Só o presidente da sessão ({president.name}) assina a ata.")
    return update_audited(
        actor=actor,
        instance=session,
        changes={"minutes_signed_at": timezone.now(), "minutes_signed_by": president},
        reason=reason,
        action="enforcement.session_minutes_signed",
    )


def require_signed(session: Session) -> None:
    """A session closes only with minutes signed by the president that still match it."""
    if not session.minutes_generated_at or session.minutes_signed_at is None:
        raise ValidationError(
            "A sessão não pode ser encerrada sem a ata assinada pelo presidente: "
            "gere a ata e colha a assinatura."
        )
    if stale(session):
        raise ValidationError(
            "A sessão mudou depois que a ata foi assinada: gere a ata de novo e colha outra assinatura."
        )


def signed_words(session: Session, on: dt.date | None = None) -> str:
    if session.minutes_signed_at is None or session.minutes_signed_by is None:
        return "Ata ainda não assinada."
    moment = timezone.localtime(session.minutes_signed_at)
    return f"Assinada por {session.minutes_signed_by.name} (presidente) em {br(moment.date())}."
