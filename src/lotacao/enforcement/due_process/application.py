"""The body's own decision on a notice, where the law gives it without a filing
(`process.instances[].ex_officio`): Cabo's Council applies the penalty (art. 29: "contados da
aplicação pelo Conselho"). The inspector's notice is only the proposal; the body applies it as
computed, applies it changed, or does not apply it (the notice is annulled). The decision is then
communicated like any other (`decisions.record_decision_service`), and that service opens the next
instance's deadline (Cabo's appeal to the Mayor, 10 days: the pack's interpretation).

A collegiate body decides in an open session of its own; the outcome is recorded as proclaimed
(the law gives no voting rule for Cabo's Council), or by the members' votes when they are
recorded: majority of the members present and not impeded, a tie refused (the law gives the
Council's president no casting vote: arts. 8º and 29).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited
from lotacao.core.models import Jurisdiction
from lotacao.enforcement.due_process.decisions import (
    OUTCOME_OF_CHOICE,
    decision_notice_due,
    finalize,
    is_last,
    resulting_penalty,
)
from lotacao.enforcement.due_process.judging import body_for
from lotacao.enforcement.due_process.procedure import body_rules, instances
from lotacao.enforcement.due_process.stage import Stage, after_event, current_stage, in_force_penalty, pick
from lotacao.enforcement.due_process.votes import MERITS, compute
from lotacao.enforcement.models import BodyMember, Decision, InfractionNotice, JudgingBody, Session, Vote
from lotacao.enforcement.models.due_process import APPLICATION_WORDS
from lotacao.enforcement.notices import states
from lotacao.enforcement.reading import br
from lotacao.workqueue.services import WorkItemSpec

Outcome = Decision.Outcome
APPLICATION_KIND = "enforcement.penalty_to_apply"
OUTCOME_WORDS = APPLICATION_WORDS  # the outcomes of an application, in the body's words


def awaiting(notice: InfractionNotice, on: dt.date) -> Stage | None:
    """The stage when the body's own decision is what comes next, else None."""
    stage = current_stage(notice, on)
    return stage if stage.ex_officio and stage.instance is not None else None


def _body(notice: InfractionNotice, stage: Stage, on: dt.date) -> JudgingBody:
    key, gap = pick(stage.instance or {}, "body", in_force_penalty(notice))
    body = body_for(notice.jurisdiction_id, key, on)
    if body is None:
        raise ValidationError(f"A lei não diz quem aplica a penalidade: {gap or 'órgão não cadastrado'}.")
    return body


def _by_votes(
    session: Session, votes: dict[BodyMember, str], vote_reasons: dict[BodyMember, str] | None
) -> tuple[str, dict[str, Any]]:
    """The outcome of the members' votes and the record of each vote (kept on the decision: the
    application has no agenda item), refused as `votes.compute` refuses."""
    reasons = vote_reasons or {}
    for member, choice in votes.items():
        if choice not in Vote.Choice.values:
            raise ValidationError(f"Voto desconhecido: {choice}.")
        if choice != Vote.Choice.ABSTAIN and not (reasons.get(member) or "").strip():
            what = "as razões do voto" if choice in MERITS else "o motivo do impedimento ou suspeição"
            raise ValidationError(f"Registre {what} de {member.name}.")
    result = compute(session, votes)
    if result.refusal or result.outcome is None:
        raise ValidationError(result.refusal or "Nenhum voto registrado.")
    members = [
        {
            "member_id": m.pk,
            "name": m.name,
            "role": m.get_role_display(),
            "choice": choice,
            "reasons": (reasons.get(m) or "").strip(),
            "tie_break": result.tie_break and m.role == BodyMember.Role.PRESIDENT,
        }
        for m, choice in sorted(votes.items(), key=lambda pair: (pair[0].role, pair[0].name))
    ]
    ballot = {"counts": result.counts, "tie_break": result.tie_break, "note": result.note, "members": members}
    return str(OUTCOME_OF_CHOICE[Vote.Choice(result.outcome)]), ballot


def _check(
    notice: InfractionNotice,
    body: JudgingBody,
    session: Session | None,
    reasons: str,
    decided_on: dt.date,
    voted: bool = False,
) -> None:
    if notice.served_on is None:
        raise ValidationError(
            f"O auto {notice.number} ainda não foi notificado: o infrator conhece o auto antes de o "
            f"{body.name} aplicar a penalidade. Registre a notificação primeiro."
        )
    if not (reasons or "").strip():
        raise ValidationError("A decisão precisa de fundamentação.")
    if decided_on < notice.served_on or decided_on > timezone.localdate():
        raise ValidationError(
            f"A data da aplicação deve estar entre a notificação do auto ({br(notice.served_on)}) e hoje."
        )
    if not body.collegiate:
        return
    if session is None or session.body_id != body.pk:
        raise ValidationError(f"O {body.name} decide em sessão: escolha a sessão.")
    if session.status != Session.Status.OPEN:
        raise ValidationError("Abra a sessão (presenças e quórum) antes de decidir.")
    if body_rules(notice.jurisdiction_id, body.key, session.held_on).get("majority") and not voted:
        raise ValidationError(f"O {body.name} decide por votos: registre-os na sessão.")


@transaction.atomic
def apply_penalty(
    *,
    actor: Any,
    notice: InfractionNotice,
    outcome: str,
    reasons: str,
    decided_on: dt.date,
    session: Session | None = None,
    penalty: dict[str, Any] | None = None,
    reason: str = "Aplicação da penalidade pelo órgão",
    votes: dict[BodyMember, str] | None = None,
    vote_reasons: dict[BodyMember, str] | None = None,
) -> Decision:
    """Record the body's application of the penalty (as computed, changed, or not applied). A
    collegiate body may record each member's vote (`votes`, with `vote_reasons`): the outcome is
    then the votes' (`votes.compute`: every member present votes, abstains or declares an
    impediment; a tie the law does not break is refused) and the minutes list each vote."""
    notice = InfractionNotice.unscoped.select_for_update().select_related("jurisdiction").get(pk=notice.pk)
    states.check(notice, states.APPLY_PENALTY)
    stage = awaiting(notice, decided_on)
    if stage is None or stage.instance is None:
        raise ValidationError(f"Não há aplicação de penalidade pendente no auto {notice.number}.")
    if outcome not in OUTCOME_WORDS:
        raise ValidationError("Resultado desconhecido: aplicar, aplicar com alteração ou não aplicar.")
    body = _body(notice, stage, decided_on)
    if session is not None:
        session = Session.unscoped.get(pk=session.pk)
    _check(notice, body, session, reasons, decided_on, bool(votes))
    ballot: dict[str, Any] = {}
    if votes:
        assert session is not None
        outcome, ballot = _by_votes(session, votes, vote_reasons)
    instance = stage.instance
    decision = Decision(
        jurisdiction_id=notice.jurisdiction_id,
        notice=notice,
        instance=str(instance["id"]),
        body=body,
        session=session,
        decided_on=decided_on,
        outcome=outcome,
        reasons=f"{OUTCOME_WORDS[outcome]}. {reasons.strip()}",
        penalty=resulting_penalty(notice, outcome, penalty),
        citations=list(stage.citations),
        notify_due=decision_notice_due(notice, instance, decided_on) if outcome != Outcome.ANNULLED else None,
        votes=ballot,
        decided_by=actor if getattr(actor, "pk", None) is not None else None,
    )
    action = "enforcement.decision_annulled" if outcome == Outcome.ANNULLED else "enforcement.penalty_applied"
    create_audited(actor=actor, instance=decision, reason=reason, action=action)
    if outcome == Outcome.ANNULLED or is_last(notice, decision.instance, decided_on):
        return finalize(actor=actor, decision=decision, on=decided_on)
    after_event(actor, notice, decided_on)
    return decision


def pending_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Work items: notices served that wait for the body's application of the penalty (only in
    the jurisdictions whose law gives the body that first decision)."""
    codes = [
        code
        for code in Jurisdiction.objects.values_list("code", flat=True)
        if any(step.get("ex_officio") for step in instances(code, today)[:1])
    ]
    rows = InfractionNotice.unscoped.filter(
        jurisdiction_id__in=codes,
        status=InfractionNotice.Status.NOTIFIED,
        served_on__isnull=False,
        decisions__isnull=True,
    ).select_related("jurisdiction")
    for notice in rows.iterator(chunk_size=500):
        stage = awaiting(notice, today)
        if stage is None or stage.instance is None:
            continue
        name = str(stage.instance["name"]).lower()
        yield WorkItemSpec(
            jurisdiction_id=notice.jurisdiction_id,
            kind=APPLICATION_KIND,
            key=f"notice:{notice.pk}",
            title=f"Auto {notice.number}: {name} pendente ({'; '.join(stage.citations)})"[:300],
            due_on=None,
            url=notice.get_absolute_url(),
        )
