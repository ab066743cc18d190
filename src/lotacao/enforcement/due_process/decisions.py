"""Judging a filing and what follows: the decision (its outcome by the votes where the law gives
a voting rule, as proclaimed elsewhere; a late filing only declared late), its service (which
starts the next instance's deadline where the law counts from it), and finality.

A decision becomes final at once where it annuls the notice or is the last instance (otherwise
`settle.settle_due_process` makes it final when the next deadline passes unused). `finalize`
closes the notice through the state table (`notices.states`: annulled, or decided and counted as
history) and sends the decision's effects to the permit (`sanctions.effects`) and the fine.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.enforcement.due_process.choices import choose
from lotacao.enforcement.due_process.judging import Tally, tally
from lotacao.enforcement.due_process.procedure import (
    body_rules,
    effects_on_service,
    instances,
    run_deadline,
    short_cites,
)
from lotacao.enforcement.due_process.stage import OPEN_FILING, after_event, in_force_penalty
from lotacao.enforcement.due_process.votes import is_late, item_for, recorded
from lotacao.enforcement.models import (
    AgendaItem,
    BodyMember,
    Decision,
    Filing,
    InfractionNotice,
    Session,
    Vote,
)
from lotacao.enforcement.notices import states
from lotacao.enforcement.reading import br, infraction_day, local_day
from lotacao.enforcement.sanctions.crc import KINDS as CRC_KINDS
from lotacao.enforcement.sanctions.crc import added_to as added_to_crc
from lotacao.enforcement.sanctions.crc import check_allowed as check_crc_allowed
from lotacao.enforcement.sanctions.effects import apply_final_decision, apply_on_service

Outcome = Decision.Outcome
PENALTY_TYPES = {
    "warning",
    "fine",
    "suspension",
    "revocation",
    "course",
    "intervention",
    *CRC_KINDS,
}
OUTCOME_OF_CHOICE = {
    Vote.Choice.UPHOLD: Outcome.UPHELD,
    Vote.Choice.ANNUL: Outcome.ANNULLED,
    Vote.Choice.CHANGE: Outcome.CHANGED,
}


@dataclass
class Judgment:
    """What is being judged: the filing, its notice and the session it is judged in (if any)."""

    filing: Filing
    notice: InfractionNotice
    session: Session | None


# ----------------------------------------------------------------------------- the judgment


def _locked(filing: Filing, session: Session | None) -> Judgment:
    filing = (
        Filing.unscoped.select_for_update(of=("self",))
        .select_related("notice__jurisdiction", "body")
        .get(pk=filing.pk)
    )
    notice = InfractionNotice.unscoped.select_for_update().get(pk=filing.notice_id)
    if session is not None:
        session = Session.unscoped.select_related("body").get(pk=session.pk)
    return Judgment(filing, notice, session)


def _check_judgeable(j: Judgment, reasons: str, decided_on: dt.date) -> None:
    if j.filing.status not in OPEN_FILING:
        raise ValidationError("Este processo já foi julgado.")
    if not (reasons or "").strip():
        raise ValidationError("A decisão precisa de fundamentação.")
    if decided_on > timezone.localdate() or decided_on < local_day(j.notice.jurisdiction, j.filing.filed_at):
        raise ValidationError("A data da decisão deve estar entre o protocolo e hoje.")


def _late_note(filing: Filing) -> str:
    return br(filing.due_on) if filing.due_on else "?"


def _collegiate_outcome(
    j: Judgment, outcome: str | None, votes: dict[BodyMember, str] | None
) -> tuple[str | None, Tally | None]:
    """A collegiate body decides in an open session; where the law gives a voting rule (Esteio)
    the votes of the members present make the outcome, and a late filing is declared late before
    the merits (Esteio art. 21)."""
    body = j.filing.body
    assert body is not None
    session = j.session
    if session is None or session.body_id != body.pk:
        raise ValidationError(f"O {body.name} decide em sessão: escolha a sessão.")
    if session.status != Session.Status.OPEN:
        raise ValidationError("Abra a sessão (presenças e quórum) antes de julgar.")
    rules = body_rules(j.notice.jurisdiction_id, body.key, session.held_on)
    # The votes given here (the whole vote at once), or those the members cast one by one on the
    # session's agenda item (`votes.cast_vote`).
    item = item_for(session, j.filing)
    if votes and item is not None and item.votes.exists():
        raise ValidationError(
            "Os membros já votaram um a um neste processo: o julgamento segue os votos registrados."
        )
    if j.filing.late and outcome == Outcome.NOT_KNOWN and not votes:
        return outcome, None  # declared late before the merits (Esteio art. 21): nothing to vote
    cast = votes or (recorded(item) if item is not None else {})
    if not cast:
        if not rules.get("majority"):
            return outcome, None
        if outcome != Outcome.NOT_KNOWN:
            raise ValidationError(f"O {body.name} decide por votos dos presentes: registre os votos.")
        return outcome, None
    result = tally(session, cast)
    outcome = str(OUTCOME_OF_CHOICE[Vote.Choice(result.outcome)])
    if j.filing.late and outcome != Outcome.NOT_KNOWN:
        raise ValidationError(
            "Recurso fora do prazo: declare-o intempestivo (não conhecido) antes do mérito "
            f"— prazo vencido em {_late_note(j.filing)}."
        )
    return outcome, result


def _outcome(
    j: Judgment, outcome: str | None, votes: dict[BodyMember, str] | None
) -> tuple[str, Tally | None]:
    """The outcome of the judgment: by the votes or as proclaimed; a late filing can only be
    declared not known."""
    result: Tally | None = None
    if j.filing.body is not None and j.filing.body.collegiate:
        outcome, result = _collegiate_outcome(j, outcome, votes)
    if outcome is None or outcome not in Outcome.values or outcome == Outcome.LAPSED:
        raise ValidationError("Resultado do julgamento desconhecido.")
    if j.filing.late and outcome != Outcome.NOT_KNOWN and result is None:
        raise ValidationError(
            f"Protocolado fora do prazo (venceu em {_late_note(j.filing)}): "
            "a única decisão cabível é não conhecer o recurso por intempestividade."
        )
    _check_paid_first(j, outcome)
    return outcome, result


def _check_paid_first(j: Judgment, outcome: str) -> None:
    """An appeal filed before the fine it contests was paid (Maricá art. 70, p.ú., as the pack
    reads it) is judged only once the fine is paid in time; unpaid past the deadline, it can only
    be not known, by deserção (art. 75)."""
    from lotacao.enforcement.sanctions.fine_payment import paid_before_appeal_deadline

    check = paid_before_appeal_deadline(j.notice, j.filing.instance)
    if check or outcome == Outcome.NOT_KNOWN:
        return
    today = timezone.localdate()
    if check.deserted(today) and check.deadline is not None:
        raise ValidationError(
            f"A multa não foi paga até {br(check.deadline)}: a única decisão cabível é não conhecer o "
            f"recurso por deserção ({'; '.join(check.citations)})."
        )
    raise ValidationError(
        f"O recurso aguarda o pagamento da multa até {br(check.deadline) if check.deadline else '—'}: "
        f"só depois dele é julgado ({'; '.join(check.citations)})."
    )


def _check_penalty(penalty: dict[str, Any]) -> dict[str, Any]:
    items = penalty.get("penalties")
    if not isinstance(items, list) or not items:
        raise ValidationError("Informe a penalidade alterada (ao menos uma).")
    for item in items:
        if not isinstance(item, dict) or item.get("type") not in PENALTY_TYPES:
            raise ValidationError(f"Penalidade desconhecida: {item!r}.")
    return penalty


def penalty_from(kind: str, amount: Any, notice: InfractionNotice | None = None) -> dict[str, Any] | None:
    """A changed penalty from its kind and value (screens and API): a warning; a fine in R$; a
    suspension in days; a CRC sanction added to the penalty in force (its term is the law's).
    None when no kind is given (the penalty is not changed)."""
    if not kind:
        return None
    if kind in CRC_KINDS:
        if notice is None:
            raise ValidationError("A sanção do CRC precisa do auto.")
        return added_to_crc(in_force_penalty(notice), kind, notice.jurisdiction_id, infraction_day(notice))
    if kind == "warning":
        return {"penalties": [{"type": "warning"}]}
    if kind not in ("fine", "suspension"):
        raise ValidationError(f"Penalidade desconhecida: {kind}.")
    try:
        value = Decimal(str(amount).replace(",", ".")) if amount not in (None, "") else None
    except InvalidOperation as error:
        raise ValidationError(f"Valor inválido: {amount}.") from error
    if value is None or not value.is_finite() or value <= 0:
        raise ValidationError("Informe o valor da multa ou os dias de suspensão.")
    if kind == "fine":
        return {"penalties": [{"type": "fine", "amount": f"{value:.2f}"}]}
    return {"penalties": [{"type": "suspension", "days": int(value)}]}


def resulting_penalty(
    notice: InfractionNotice, outcome: str, penalty: dict[str, Any] | None
) -> dict[str, Any]:
    """The penalty in force after the decision: changed needs the new one; annulled has none."""
    in_force = in_force_penalty(notice)
    if outcome == Outcome.CHANGED:
        changed = _check_penalty(penalty or {})
        check_crc_allowed(notice.jurisdiction_id, changed["penalties"], infraction_day(notice))
        return {**in_force, **changed}
    if outcome == Outcome.ANNULLED:
        return {}
    return in_force


# ---------------------------------------------------------------------------- the records


def decision_notice_due(notice: InfractionNotice, instance: dict[str, Any], day: dt.date) -> Any:
    deadline = instance.get("decision_notice")
    if not deadline:
        return None
    return run_deadline(notice.jurisdiction_id, str(deadline), day)["due"]


def _record_decision(
    actor: Any,
    j: Judgment,
    outcome: str,
    result: Tally | None,
    reasons: str,
    decided_on: dt.date,
    new_penalty: dict[str, Any],
    reason: str,
) -> Decision:
    """The decision with its reasons, votes, citations and the deadline to communicate it."""
    filing, notice = j.filing, j.notice
    steps = instances(notice.jurisdiction_id, infraction_day(notice))
    instance = next((s for s in steps if s["id"] == filing.instance), {})
    if filing.late and outcome == Outcome.NOT_KNOWN and filing.due_on is not None:
        reasons = f"{reasons.strip()} (prazo vencido em {br(filing.due_on)})"
    decision = Decision(
        jurisdiction_id=notice.jurisdiction_id,
        notice=notice,
        filing=filing,
        instance=filing.instance,
        body=filing.body,
        session=j.session,
        decided_on=decided_on,
        outcome=outcome,
        reasons=reasons.strip(),
        penalty=new_penalty,
        votes={"counts": result.counts, "tie_break": result.tie_break, "note": result.note} if result else {},
        citations=list(dict.fromkeys(short_cites(instance) + list(filing.citations or []))),
        notify_due=decision_notice_due(notice, instance, decided_on) if outcome != Outcome.ANNULLED else None,
        decided_by=actor,
    )
    return create_audited(
        actor=actor, instance=decision, reason=reason, action=f"enforcement.decision_{outcome}"
    )


def _check_vote_reasons(
    votes: dict[BodyMember, str] | None, vote_reasons: dict[BodyMember, str] | None
) -> None:
    """Where the screen collects them, every vote cast carries its member's reasons."""
    if not votes or vote_reasons is None:
        return
    missing = [
        m.name
        for m, c in votes.items()
        if c != Vote.Choice.ABSTAIN and not (vote_reasons.get(m) or "").strip()
    ]
    if missing:
        raise ValidationError(f"Registre as razões do voto de {', '.join(missing)}.")


def _record_votes(
    j: Judgment,
    votes: dict[BodyMember, str] | None,
    result: Tally | None,
    vote_reasons: dict[BodyMember, str] | None = None,
) -> None:
    """Each member's vote on the session's agenda item with its reasons (the president's marked as
    tie-break)."""
    session = j.session
    if not votes or session is None:
        return
    for member, choice in votes.items():
        item = AgendaItem.unscoped.filter(session=session, filing=j.filing).first()
        if item is None:
            item = AgendaItem.objects.create(
                jurisdiction_id=j.notice.jurisdiction_id,
                session=session,
                filing=j.filing,
                position=session.agenda.count() + 1,
            )
        Vote.objects.create(
            jurisdiction_id=j.notice.jurisdiction_id,
            item=item,
            member=member,
            choice=choice,
            tie_break=bool(result and result.tie_break and member.role == BodyMember.Role.PRESIDENT),
            reasons=((vote_reasons or {}).get(member) or "").strip(),
            late=is_late(j.filing, session),
            cast_at=timezone.now(),
        )


def is_last(notice: InfractionNotice, instance_id: str, on: dt.date) -> bool:
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
    measure_choice: str | None = None,
    vote_reasons: dict[BodyMember, str] | None = None,
) -> Decision:
    """Judge a filing. Collegiate bodies with a voting rule in the law decide by the votes of the
    members present in an open session (quorum checked when it opened); the others record the
    outcome as proclaimed. A late filing can only be declared late (not known). Where the law
    offers alternative measures (Esteio, Anexo II, IV-02), the decision records the one chosen.
    Each member's vote keeps its reasons (`vote_reasons`; required for every vote where given)."""
    j = _locked(filing, session)
    _check_judgeable(j, reasons, decided_on)
    _check_vote_reasons(votes, vote_reasons)
    outcome, result = _outcome(j, outcome, votes)
    new_penalty = resulting_penalty(j.notice, outcome, penalty)
    if outcome != Outcome.ANNULLED:
        new_penalty = choose(
            j.notice.jurisdiction_id, j.notice.infraction_code, new_penalty, measure_choice, decided_on
        )
    decision = _record_decision(actor, j, outcome, result, reasons, decided_on, new_penalty, reason)
    _record_votes(j, votes, result, vote_reasons)
    status = Filing.Status.NOT_KNOWN if outcome == Outcome.NOT_KNOWN else Filing.Status.JUDGED
    update_audited(
        actor=actor,
        instance=j.filing,
        changes={"status": status},
        reason=reason,
        action="enforcement.filing_judged",
    )
    if outcome == Outcome.ANNULLED or is_last(j.notice, j.filing.instance, decided_on):
        return finalize(actor=actor, decision=decision, on=decided_on)
    after_event(actor, j.notice, decided_on)
    return decision


@transaction.atomic
def record_decision_service(
    *, actor: Any, decision: Decision, served_on: dt.date, reason: str = "Decisão comunicada"
) -> Decision:
    """The date the decision reached the offender (by hand or AR): it starts the next instance's
    deadline where the law counts from it (Recife art. 43) and the fine's due date (art. 36 § 2º)."""
    decision = Decision.unscoped.select_for_update().get(pk=decision.pk)
    if decision.served_on is not None:
        raise ValidationError(f"A decisão já foi comunicada em {br(decision.served_on)}.")
    if served_on < decision.decided_on or served_on > timezone.localdate():
        raise ValidationError("A data da comunicação deve estar entre a decisão e hoje.")
    update_audited(
        actor=actor,
        instance=decision,
        changes={"served_on": served_on},
        reason=reason,
        action="enforcement.decision_served",
    )
    day = infraction_day(decision.notice)
    following = effects_on_service(decision.jurisdiction_id, decision.instance, day)
    if following is not None:  # Recife art. 43, parágrafo único: the appeal does not suspend it
        decision = apply_on_service(
            actor=actor, decision=decision, on=served_on, cites=short_cites(following)
        )
    after_event(actor, decision.notice, served_on)
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
        reason=f"{decision.get_outcome_display()} — decisão definitiva em {br(on)}",
        changes=changes,
    )
    # Annulled: nothing to apply, but effects already in force (an appeal that did not suspend
    # them) are undone.
    apply_final_decision(actor=actor, decision=decision, on=on)
    after_event(actor, notice, on)
    return decision
