"""Each member's vote on an agenda item of a collegiate body's session, and the result computed
from them.

A member present votes on the merits (one of the decision's options: keep, annul or change the
penalty), with the reasons of the vote; or abstains; or declares an impediment or a suspicion,
with its reason, which takes the member out of that item's count and quorum. The result is the
simple majority of the votes cast by the members present and not impeded; the quorum, where the
law fixes one (Esteio Anexo I art. 25: at least 3 members), is counted on the members present and
not impeded. A tie is broken only where the law gives the president the casting vote (Esteio
Anexo I art. 25, § 1º: "somente votará quando da ocorrência de empate"); with the president
impeded or absent, or where the law gives no casting vote (Recife, whose CDTC votes by the
Regimento Interno of art. 39, § 2º, not in the law; Cabo, whose Council of 4 members has no voting
rule in the law), a tie is refused: the filing stays on the agenda for another session. The
decision is recorded only once every member present voted, abstained or declared an impediment
(`decisions.decide` reads the result here). A vote cast after the law's judging deadline (Recife
art. 42) is marked late, for the review of art. 40, II (`judging.review_judgment_delay`).
Monocratic bodies (Maricá's authorities, EPTI's president, Cabo's Mayor) do not vote.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.enforcement.due_process.procedure import body_rules, judgment_due, short_cites
from lotacao.enforcement.models import AgendaItem, BodyMember, Filing, Session, Vote
from lotacao.enforcement.reading import br

MERITS = (Vote.Choice.UPHOLD, Vote.Choice.ANNUL, Vote.Choice.CHANGE)
OUT_OF_COUNT = (Vote.Choice.IMPEDED, Vote.Choice.SUSPECT)
LABELS = dict(Vote.Choice.choices)
OPEN_FILING = (Filing.Status.PENDING, Filing.Status.DILIGENCE)


@dataclass
class Result:
    """The state of an item's vote: who still has to vote, the counts on the merits, the outcome
    (a Vote.Choice on the merits) when it can be recorded, or why not (`refusal`)."""

    counts: dict[str, int] = field(default_factory=dict)
    outcome: str | None = None
    tie_break: bool = False
    note: str = ""
    refusal: str = ""
    missing: list[BodyMember] = field(default_factory=list)
    out_of_count: list[BodyMember] = field(default_factory=list)
    abstained: list[BodyMember] = field(default_factory=list)
    quorum: int | None = None
    eligible: int = 0

    @property
    def ready(self) -> bool:
        return self.outcome is not None and not self.refusal

    def words(self) -> str:
        """The result in plain words, for the screen and the API."""
        parts = [f"{LABELS[c]}: {self.counts[c]}" for c in MERITS if c in self.counts]
        tail = "; ".join(parts)
        if self.refusal:
            return f"{tail} — {self.refusal}" if tail else self.refusal
        return f"{LABELS[self.outcome or '']} ({tail}) — {self.note}" if self.outcome else tail


def _rules(session: Session) -> tuple[dict[str, Any], str, bool]:
    rules = body_rules(session.jurisdiction_id, session.body.key, session.held_on)
    return rules, "; ".join(short_cites(rules)), rules.get("president_votes") == "tie_only"


def _names(members: Iterable[BodyMember]) -> str:
    return ", ".join(m.name for m in members)


def compute(session: Session, cast: dict[BodyMember, str]) -> Result:
    """The result of the votes cast (member → Vote.Choice) among the session's members present."""
    rules, cite, tie_only = _rules(session)
    present = list(session.present.all())
    president = next((m for m in present if m.role == BodyMember.Role.PRESIDENT), None)
    for member, choice in cast.items():
        if member not in present:
            raise ValidationError(f"{member.name} não está presente nesta sessão.")
        if choice not in Vote.Choice.values:
            raise ValidationError(f"Voto desconhecido: {choice}.")
    res = Result()
    res.out_of_count = [m for m in present if cast.get(m) in OUT_OF_COUNT]
    res.abstained = [m for m in present if cast.get(m) == Vote.Choice.ABSTAIN]
    eligible = [m for m in present if m not in res.out_of_count]
    res.eligible = len(eligible)
    res.quorum = int(rules["quorum"]) if rules.get("quorum") else None
    ordinary = [m for m in eligible if not (tie_only and m is president)]
    for member in ordinary:
        given = cast.get(member)
        if given in MERITS:
            res.counts[str(given)] = res.counts.get(str(given), 0) + 1
    if res.quorum and len(eligible) < res.quorum:
        res.refusal = (
            f"Sem quórum para este processo: {len(eligible)} membros presentes sem impedimento ou "
            f"suspeição, a lei exige pelo menos {res.quorum} ({cite})."
        )
        return res
    res.missing = [m for m in ordinary if m not in cast]
    if res.missing:
        res.refusal = (
            f"Falta o voto de {_names(res.missing)}: cada membro presente vota, se abstém ou declara "
            "impedimento antes da decisão."
        )
        return res
    if not res.counts:
        res.refusal = "Nenhum voto sobre o mérito: sem votos a decisão não pode ser registrada."
        return res
    best = max(res.counts.values())
    leaders: list[str] = [str(c) for c in MERITS if res.counts.get(c) == best]
    president_choice = cast.get(president) if president is not None else None
    if len(leaders) == 1:
        if tie_only and president_choice in MERITS:
            res.refusal = f"O presidente só vota para desempatar ({cite}); não houve empate."
            return res
        res.outcome = leaders[0]
        res.note = f"Maioria simples dos votos ({cite})." if cite else "Maioria simples dos votos."
        return res
    return _tie(res, leaders, cite, tie_only, president, president_choice)


def _tie(
    res: Result,
    leaders: list[str],
    cite: str,
    tie_only: bool,
    president: BodyMember | None,
    president_choice: str | None,
) -> Result:
    again = "o processo continua em pauta para outra sessão"
    if not tie_only:
        res.refusal = f"Empate: a lei não dá voto de desempate ({cite}); sem maioria, {again}."
        return res
    if president is None:
        res.refusal = (
            f"Empate com o presidente ausente: só o presidente vota para desempatar ({cite}); {again}."
        )
    elif president_choice in OUT_OF_COUNT:
        res.refusal = (
            f"Empate com o presidente impedido: só o presidente vota para desempatar ({cite}), e quem "
            f"preside em seu lugar já votou; {again}."
        )
    elif president_choice is None:
        res.missing = [president]
        res.refusal = f"Empate: o presidente vota para desempatar ({cite})."
    elif president_choice not in leaders:
        res.refusal = "O voto de desempate deve escolher uma das posições empatadas."
    else:
        res.counts[president_choice] += 1
        res.outcome = president_choice
        res.tie_break = True
        res.note = f"Empate desfeito pelo voto do presidente ({cite})."
    return res


def recorded(item: AgendaItem) -> dict[BodyMember, str]:
    return {v.member: v.choice for v in item.votes.select_related("member")}


def result(item: AgendaItem) -> Result:
    session = Session.unscoped.select_related("body").get(pk=item.session_id)
    return compute(session, recorded(item))


def item_for(session: Session, filing: Filing) -> AgendaItem | None:
    return AgendaItem.unscoped.filter(session=session, filing=filing).first()


def is_late(filing: Filing, session: Session) -> bool:
    """Judged after the law's deadline to judge (Recife art. 42), as `judgment_due` reads it."""
    due, _ = judgment_due(filing)
    return due is not None and session.held_on > due


def _check_reasons(member: BodyMember, choice: str, reasons: str) -> None:
    if (reasons or "").strip() or choice == Vote.Choice.ABSTAIN:
        return
    if choice in OUT_OF_COUNT:
        raise ValidationError(
            f"Informe o motivo {'do impedimento' if choice == 'impeded' else 'da suspeição'} "
            f"de {member.name}."
        )
    raise ValidationError(f"Registre as razões do voto de {member.name}.")


@transaction.atomic
def cast_vote(
    *,
    actor: Any,
    item: AgendaItem,
    member: BodyMember,
    choice: str,
    reasons: str = "",
    reason: str = "Voto registrado na sessão",
) -> Vote:
    """Record (or change, until the decision) a member's vote on an agenda item."""
    item = AgendaItem.unscoped.select_for_update().select_related("filing").get(pk=item.pk)
    session = Session.unscoped.select_related("body").get(pk=item.session_id)
    if session.status != Session.Status.OPEN:
        raise ValidationError("Abra a sessão (presenças e quórum) antes de votar.")
    if item.filing.status not in OPEN_FILING:
        raise ValidationError("O processo já foi julgado: os votos não mudam mais.")
    if member.body_id != session.body_id:
        raise ValidationError(f"{member.name} não é membro do {session.body.name}.")
    if not session.present.filter(pk=member.pk).exists():
        raise ValidationError(
            f"{member.name} não está presente nesta sessão: só vota quem consta da presença."
        )
    if choice not in Vote.Choice.values:
        raise ValidationError(
            "Voto desconhecido: escolha manter, acolher, alterar, abstenção, impedimento ou suspeição."
        )
    _check_reasons(member, choice, reasons)
    if item.filing.late and choice in MERITS:
        due = br(item.filing.due_on) if item.filing.due_on else "—"
        raise ValidationError(
            f"Protocolado fora do prazo (venceu em {due}): não se vota o mérito; declare-o não conhecido "
            "por intempestividade."
        )
    _, cite, tie_only = _rules(session)
    tie_break = False
    if tie_only and member.role == BodyMember.Role.PRESIDENT and choice in MERITS:
        others = {m: c for m, c in recorded(item).items() if m.pk != member.pk}
        before = compute(session, others)
        if before.refusal and before.missing != [member]:
            if before.missing:
                raise ValidationError(
                    f"O presidente só vota para desempatar ({cite}): faltam os votos de "
                    f"{_names(before.missing)}."
                )
            raise ValidationError(before.refusal)
        if before.outcome is not None:
            raise ValidationError(f"O presidente só vota para desempatar ({cite}); não houve empate.")
        tie_break = True
    existing = Vote.unscoped.filter(item=item, member=member).first()
    changes = {
        "choice": choice,
        "reasons": (reasons or "").strip(),
        "tie_break": tie_break,
        "late": is_late(item.filing, session),
        "cast_at": timezone.now(),
    }
    words = f"{member.name}: {LABELS[choice]} — processo {item.filing.receipt}"
    if existing is not None:
        return update_audited(
            actor=actor,
            instance=existing,
            changes=changes,
            reason=f"{reason}. {words}",
            action="enforcement.vote_changed",
        )
    vote = Vote(jurisdiction_id=item.jurisdiction_id, item=item, member=member, **changes)
    return create_audited(
        actor=actor, instance=vote, reason=f"{reason}. {words}", action="enforcement.vote_cast"
    )


def late_voters(decision: Any) -> list[BodyMember]:
    """The members who judged the decision's filing after the law's deadline (their votes marked
    late), for the review of Recife art. 40, II."""
    if decision.session_id is None or decision.filing_id is None:
        return []
    votes = Vote.unscoped.filter(
        item__session_id=decision.session_id, item__filing_id=decision.filing_id, late=True
    )
    return [v.member for v in votes.select_related("member")]


def late_words(filing: Filing) -> str:
    due, cites = judgment_due(filing)
    return f"depois do prazo de julgamento, {br(due)} ({'; '.join(cites)})" if due else ""
