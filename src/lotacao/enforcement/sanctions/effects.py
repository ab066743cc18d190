"""What a final decision does to the permit: `apply_final_decision` (called by the due process
when a decision becomes final) turns the penalty in force into its effects — suspension (the
permit is suspended from the day the decision became final, with a follow-up that knows whether
the holder must prove the faults fixed), revocation (by the agency at once, or a revocation
process for the authority the law names, which revokes when its act is recorded), mandatory
course (blocking operation where the law says so), an agent's registration suspended or revoked.
Every effect is written to `decision.effects` (type, done, note, citations): a second call does
nothing more. States the permit refuses are recorded "não aplicada: …". What differs per law is
read from the pack: `decision.suspension_end`, `decision.revocation_by`,
`decision.course_blocks_operation`.

Where the appeal that follows a decision does not suspend it (Recife art. 43, parágrafo único),
`apply_on_service` makes its suspension and revocation take effect when it is served, marked
provisional; at finality `undo` keeps, reduces or undoes them to match the final decision.

What follows (end of suspensions, revocation acts, courses completed): `followups`; Esteio's
intervention: `interventions`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.bulk import among
from lotacao.core.formats import lower_first
from lotacao.core.law import value
from lotacao.enforcement.models import (
    AGENT_KINDS,
    CourseRequirement,
    Decision,
    InfractionNotice,
    SuspensionFollowUp,
)
from lotacao.enforcement.reading import br, citation_of, measure_words
from lotacao.enforcement.sanctions import crc, undo
from lotacao.enforcement.sanctions.followups import open_revocation_process
from lotacao.enforcement.sanctions.interventions import LIVE
from lotacao.permits import services as permits
from lotacao.permits.models import Ban, Permit, PermitAgent
from lotacao.registry.models import Vehicle

Outcome = Decision.Outcome
# A decision that does not know an appeal (late, deserted) leaves the earlier penalty standing: the
# process stores that penalty on it, so it applies like an upheld one.
APPLIES = (Outcome.UPHELD, Outcome.CHANGED, Outcome.LAPSED, Outcome.NOT_KNOWN)


def _effect(kind: str, done: bool, note: str, citations: list[str], ref: str = "") -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": kind,
        "done": done,
        "note": note,
        "citations": [c for c in citations if c],
    }
    if ref:
        item["ref"] = ref
    return item


def _effects_of(
    actor: Any, decision: Decision, notice: InfractionNotice, penalties: list[Any], on: dt.date
) -> list[dict[str, Any]]:
    """The effect of each penalty item on the permit (or the agent's registration) from `on`."""
    effects: list[dict[str, Any]] = []
    for item in penalties:
        kind = str(item.get("type", ""))
        if kind == "suspension":
            effects.append(_suspension(actor, decision, notice, int(item.get("days") or 0), on))
        elif kind == "revocation":
            effects.append(_revocation(actor, decision, notice, on))
        elif kind == "course":
            effects.append(_course(actor, decision, notice, on))
        elif kind in crc.KINDS:
            effects.append(crc.apply_from_decision(actor, decision, notice, kind, on))
        elif kind == "intervention":
            effects.append(
                _effect(
                    kind,
                    False,
                    "A intervenção depende de decreto com interventor, prazo, objetivos e limites: "
                    "registre-a na tela de intervenções.",
                    list(decision.citations),
                )
            )
        else:
            effects.append(
                _effect(kind, True, "Penalidade sem efeito sobre a permissão.", list(decision.citations))
            )
    return effects


def _chosen(actor: Any, decision: Decision, notice: InfractionNotice, on: dt.date) -> list[dict[str, Any]]:
    """The measure the body chose among the law's alternatives (Esteio, Anexo II, IV-02): the
    permit's suspension takes effect; the offset of what is owed is the agency's to record."""
    if decision.outcome not in APPLIES:
        return []
    effects = []
    for item in (decision.penalty or {}).get("measures") or []:
        if not (isinstance(item, dict) and item.get("chosen")):
            continue
        if item.get("type") == "permit_suspension":
            effects.append(_suspension(actor, decision, notice, int(item.get("days") or 0), on))
        else:
            what = measure_words(str(item.get("type")))
            note = f"{what}, escolhido na decisão: registre-o no cadastro financeiro."
            effects.append(_effect(str(item.get("type")), False, note, list(decision.citations)))
    return effects


def _penalties(decision: Decision) -> list[Any]:
    return list((decision.penalty or {}).get("penalties", [])) if decision.outcome in APPLIES else []


def _record(
    actor: Any,
    decision: Decision,
    effects: list[dict[str, Any]],
    reason: str,
    action: str = "enforcement.decision_effects",
    **more: Any,
) -> Decision:
    return update_audited(
        actor=actor, instance=decision, changes={"effects": effects, **more}, reason=reason, action=action
    )


@transaction.atomic
def apply_final_decision(*, actor: Any, decision: Decision, on: dt.date) -> Decision:
    """Apply the effects of the penalty in force of a final decision, once. Annulled decisions
    change nothing; a not-known decision carries the penalty that stands. Effects the permit's
    state refuses are recorded as not applied, with why. Where an earlier decision's effects took
    effect when it was served (`undo`), they are kept, reduced or undone to match this one."""
    decision = Decision.unscoped.select_for_update().select_related("notice").get(pk=decision.pk)
    if not decision.final:
        raise ValidationError("A decisão ainda não é definitiva: seus efeitos não podem ser aplicados.")
    notice = InfractionNotice.unscoped.select_related("permit", "agent", "holder").get(pk=decision.notice_id)
    reason = f"Efeitos da decisão definitiva do auto {notice.number}"
    if undo.is_provisional(decision):  # its own effects, applied when served: now final
        effects = undo.confirmed(decision, on)
        done = {str(e.get("type")) for e in effects}
        rest = [p for p in _penalties(decision) if str(p.get("type")) not in done]
        return _record(actor, decision, effects + _effects_of(actor, decision, notice, rest, on), reason)
    if decision.effects:
        return decision
    earlier = undo.provisional_before(decision)
    if earlier is None and decision.outcome not in APPLIES:
        return decision
    penalties = _penalties(decision)
    settled = undo.Settled()
    if earlier is not None:
        settled = undo.reconcile(actor, earlier, decision, penalties, on)
        penalties = [p for p in penalties if str(p.get("type")) not in settled.handled]
        if settled.residual_days:
            settled.effects.append(_suspension(actor, decision, notice, settled.residual_days, on))
    effects = settled.effects + _effects_of(actor, decision, notice, penalties, on)
    effects += _chosen(actor, decision, notice, on)
    if not effects:
        effects.append(_effect("none", True, "Nenhuma penalidade em vigor.", []))
    return _record(actor, decision, effects, reason, effects_undone=settled.undone)


@transaction.atomic
def apply_on_service(*, actor: Any, decision: Decision, on: dt.date, cites: list[str]) -> Decision:
    """The decision's suspension and revocation take effect on the day it is served, where the
    appeal that follows does not suspend it (`procedure.effects_on_service`: Recife art. 43,
    parágrafo único); the rest waits for finality. Marked provisional until then."""
    decision = Decision.unscoped.select_for_update().select_related("notice").get(pk=decision.pk)
    if decision.final or decision.effects or decision.outcome not in APPLIES:
        return decision
    now = [p for p in _penalties(decision) if str(p.get("type")) in undo.IMMEDIATE]
    if not now:
        return decision
    notice = InfractionNotice.unscoped.select_related("permit", "agent", "holder").get(pk=decision.notice_id)
    effects = [
        {
            **e,
            "provisional": True,
            "since": on.isoformat(),
            "citations": list(dict.fromkeys([*e.get("citations", []), *cites])),
        }
        for e in _effects_of(actor, decision, notice, now, on)
    ]
    return _record(
        actor,
        decision,
        effects,
        f"Efeitos da decisão do auto {notice.number} desde a sua comunicação, sem esperar o recurso",
        action="enforcement.decision_effects_on_service",
    )


def _is_agent(notice: InfractionNotice) -> bool:
    return notice.offender_kind in AGENT_KINDS and notice.agent_id is not None


def _not_applied(kind: str, why: str, cites: list[str]) -> dict[str, Any]:
    return _effect(kind, False, f"não aplicada: {why}", cites)


def _suspension(
    actor: Any, decision: Decision, notice: InfractionNotice, days: int, on: dt.date
) -> dict[str, Any]:
    """An agent's registration is suspended (Recife art. 34, III); a holder's permit is, with a
    follow-up that knows whether the holder must prove the faults fixed."""
    cites = list(decision.citations)
    agent = _agent_row(notice, on) if _is_agent(notice) else None
    if _is_agent(notice) and agent is None:
        return _not_applied("suspension", "o preposto não tem vínculo em vigor.", cites)
    if not _is_agent(notice) and notice.permit is None:
        return _not_applied("suspension", "o auto não está ligado a uma permissão.", cites)
    if days < 1:
        return _not_applied("suspension", "a penalidade não informa os dias.", cites)
    until = on + dt.timedelta(days=days - 1)
    reason = f"Suspensão de {days} dias por decisão definitiva do auto {notice.number}"
    try:
        with transaction.atomic():
            if agent is not None:
                permits.suspend_agent(actor=actor, agent=agent, until=until, reason=reason, on=on)
            elif notice.permit is not None:  # checked above
                permits.suspend_permit(actor=actor, permit=notice.permit, until=until, reason=reason, on=on)
    except ValidationError as error:
        return _not_applied("suspension", " ".join(error.messages), cites)
    if agent is not None:
        note = f"Cadastro de {agent} suspenso de {br(on)} a {br(until)} ({days} dias)."
        return _effect("suspension", True, note, cites, ref=f"permitagent:{agent.pk}")
    return _follow_suspension(actor, decision, notice, on, until, days, reason)


def _follow_suspension(
    actor: Any,
    decision: Decision,
    notice: InfractionNotice,
    on: dt.date,
    until: dt.date,
    days: int,
    reason: str,
) -> dict[str, Any]:
    """The follow-up of a permit's suspension: whether it ends with a proof (`decision.suspension_end`)."""
    code = decision.jurisdiction_id
    cites = list(decision.citations)
    rule = value(code, "decision.suspension_end", on) or {}
    end_cite = citation_of(code, "decision.suspension_end", on)
    follow = create_audited(
        actor=actor,
        instance=SuspensionFollowUp(
            jurisdiction_id=code,
            notice=notice,
            permit=notice.permit,
            starts_on=on,
            ends_on=until,
            requires_proof=bool(rule.get("requires_proof")),
            citations=[c for c in [*cites, end_cite] if c],
        ),
        reason=reason,
        action="enforcement.suspension_followup",
    )
    proof = (
        " Para voltar a operar, o permissionário precisa comprovar que sanou as irregularidades."
        if follow.requires_proof
        else ""
    )
    return _effect(
        "suspension",
        True,
        f"{notice.permit} suspensa de {br(on)} a {br(until)} ({days} dias).{proof}",
        [*cites, end_cite],
        ref=f"suspensionfollowup:{follow.pk}",
    )


def _agent_row(notice: InfractionNotice, on: dt.date) -> PermitAgent | None:
    rows = PermitAgent.unscoped.filter(jurisdiction_id=notice.jurisdiction_id, person=notice.agent)
    if notice.permit_id is not None:
        rows = rows.filter(permit_id=notice.permit_id)
    for agent in rows.order_by("-starts_on"):
        if agent.is_current(on):
            return agent
    return None


def _ban_note(permit: Permit | None, person_id: Any, cause: str) -> str:
    bans = Ban.unscoped.filter(cause=cause)
    bans = bans.filter(permit=permit) if permit is not None else bans
    if person_id is not None:
        bans = bans.filter(person_id=person_id)
    ban = bans.order_by("-id").first()
    if ban is None:
        return " A lei não fixa impedimento após a cassação."
    return f" Impedimento até {br(ban.ends_on)} ({ban.citation})."


def _revocation(actor: Any, decision: Decision, notice: InfractionNotice, on: dt.date) -> dict[str, Any]:
    """An agent's registration is revoked; a permit by the agency at once or, where the law gives
    the act to another authority (`decision.revocation_by.by` = mayor), through a process."""
    code = decision.jurisdiction_id
    cites = list(decision.citations)
    if _is_agent(notice):
        return _revoke_agent(actor, notice, on, cites)
    permit = notice.permit
    if permit is None:
        return _not_applied("revocation", "o auto não está ligado a uma permissão.", cites)
    if (value(code, "decision.revocation_by", on) or {}).get("by") == "mayor":
        return _revocation_process(actor, notice, Permit.unscoped.get(pk=permit.pk), on, cites)
    try:
        with transaction.atomic():
            permits.revoke_permit(
                actor=actor,
                permit=permit,
                reason=f"Cassação por decisão definitiva do auto {notice.number}",
                on=on,
            )
    except ValidationError as error:
        return _not_applied("revocation", " ".join(error.messages), cites)
    note = f"{permit} cassada em {br(on)}." + _ban_note(permit, None, Ban.Cause.REVOCATION)
    by_cite = citation_of(code, "decision.revocation_by", on)
    return _effect(
        "revocation",
        True,
        note,
        [*cites, by_cite, citation_of(code, "permit.ban_after_revocation", on)],
        ref=f"permit:{permit.pk}",
    )


def _revoke_agent(actor: Any, notice: InfractionNotice, on: dt.date, cites: list[str]) -> dict[str, Any]:
    agent = _agent_row(notice, on)
    if agent is None:
        return _not_applied("revocation", "o preposto não tem cadastro vigente.", cites)
    try:
        with transaction.atomic():
            permits.revoke_agent(
                actor=actor,
                agent=agent,
                reason=f"Cassação por decisão definitiva do auto {notice.number}",
                on=on,
            )
    except ValidationError as error:
        return _not_applied("revocation", " ".join(error.messages), cites)
    note = f"Cadastro de {agent} cassado em {br(on)}."
    note += _ban_note(agent.permit, agent.person_id, Ban.Cause.AGENT_REVOCATION)
    ban_cite = citation_of(notice.jurisdiction_id, "agents.ban_after_revocation", on)
    return _effect("revocation", True, note, [*cites, ban_cite], ref=f"permitagent:{agent.pk}")


def _revocation_process(
    actor: Any, notice: InfractionNotice, permit: Permit, on: dt.date, cites: list[str]
) -> dict[str, Any]:
    """Esteio Anexo I art. 9 §§ 1º–2º: the Mayor revokes; the permit runs until the act."""
    code = notice.jurisdiction_id
    rule = value(code, "decision.revocation_by", on) or {}
    by_cite = citation_of(code, "decision.revocation_by", on)
    if permit.effective_status(on) not in LIVE:
        return _not_applied(
            "revocation", f"a permissão está {lower_first(permit.effective_status_label(on))}.", cites
        )
    process = open_revocation_process(
        actor=actor,
        notice=notice,
        permit=permit,
        on=on,
        cause=f"Cassação decidida em definitivo no auto {notice.number}.",
        citations=[*cites, by_cite],
    )
    return _effect(
        "revocation",
        False,
        f"Processo de cassação aberto em {br(on)}: a cassação cabe a {rule.get('label', '')}; a permissão "
        "segue até o registro do ato.",
        [*cites, by_cite],
        ref=f"revocationprocess:{process.pk}",
    )


def _course(actor: Any, decision: Decision, notice: InfractionNotice, on: dt.date) -> dict[str, Any]:
    code = decision.jurisdiction_id
    blocks = value(code, "decision.course_blocks_operation", on) is True
    cite = citation_of(code, "decision.course_blocks_operation", on)
    person = notice.agent if _is_agent(notice) else getattr(notice.holder, "person", None)
    if notice.holder_id is None and person is None:
        return _effect("course", False, "não aplicada: o auto não identifica quem fará o curso.", [])
    requirement = create_audited(
        actor=actor,
        instance=CourseRequirement(
            jurisdiction_id=code,
            notice=notice,
            holder=notice.holder,
            person=person,
            required_on=on,
            blocks_operation=blocks,
            citation=cite[:300],
        ),
        reason=f"Curso obrigatório por decisão definitiva do auto {notice.number}",
        action="enforcement.course_required",
    )
    note = "Curso obrigatório exigido"
    note += " — impedido de operar até concluí-lo." if blocks else " (não impede a operação)."
    return _effect(
        "course", True, note, [*decision.citations, cite], ref=f"courserequirement:{requirement.pk}"
    )


def public_vehicle_info(vehicle: Any, on: dt.date) -> dict[str, Any]:
    """For the public plate check: a holder who must finish a course before operating again
    (`decision.course_blocks_operation`, Cabo's 100 points) may not operate this vehicle. No
    personal data: the reason says what, since when and the article."""
    if getattr(vehicle, "holder_id", None) is None:
        return {"reasons": []}
    pending = CourseRequirement.unscoped.filter(
        holder_id=vehicle.holder_id, blocks_operation=True, completed_on__isnull=True, required_on__lte=on
    ).order_by("required_on", "id")
    return _public_part(pending)


def public_vehicle_info_many(vehicles: list[Any], on: dt.date) -> dict[int, dict[str, Any]]:
    """`public_vehicle_info` of many vehicles with one query (the read model's rebuild); a part
    has `changes_on` when a course required from a later day starts to bar operation."""
    pending: dict[int, list[CourseRequirement]] = {}
    later: dict[int, dt.date] = {}
    rows = CourseRequirement.unscoped.filter(
        holder_id__in=Vehicle.unscoped.filter(among("id", [v.pk for v in vehicles])).values("holder_id"),
        blocks_operation=True,
        completed_on__isnull=True,
    ).order_by("required_on", "id")
    for course in rows:
        assert course.holder_id is not None
        if course.required_on <= on:
            pending.setdefault(course.holder_id, []).append(course)
        elif course.holder_id not in later:
            later[course.holder_id] = course.required_on
    out: dict[int, dict[str, Any]] = {}
    for vehicle in vehicles:
        holder = getattr(vehicle, "holder_id", None)
        if holder is None:
            out[vehicle.pk] = {"reasons": []}
            continue
        out[vehicle.pk] = part = _public_part(pending.get(holder, []))
        if holder in later:
            part["changes_on"] = later[holder]
    return out


def _public_part(pending: Any) -> dict[str, Any]:
    info: dict[str, Any] = {"reasons": []}
    for course in pending:
        info["authorized"] = False
        info["reasons"].append(
            f"Curso obrigatório pendente desde {br(course.required_on)}: o permissionário não pode "
            f"operar até concluí-lo ({course.citation})."
        )
    return info
