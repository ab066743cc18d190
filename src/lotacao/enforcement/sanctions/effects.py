"""What a final decision does to the permit, and Esteio's intervention (arts. 43–45).

`apply_final_decision` (called by the judging process when a decision becomes final) turns the
penalty in force into its effects: suspension (the permit is suspended from the day the decision
became final, with a follow-up that knows whether the holder must prove the faults fixed),
revocation (by the agency at once, or a revocation process for the authority the law names, which
revokes when its act is recorded), mandatory course (blocking operation where the law says so),
an agent's registration revoked. Every effect is written to `decision.effects` (type, done, note,
citations): a second call does nothing more. What differs per law is read from the pack:
`decision.suspension_end`, `decision.revocation_by`, `decision.course_blocks_operation`,
`deadline.intervention_procedure`, `deadline.intervention_conclusion`.

Daily job `end_suspensions` (command `manage.py end_suspensions`): suspensions past their end are
reinstated, or wait for the proof the law asks (opening the revocation process where the law
says so); interventions whose procedure was not opened or concluded in time become void.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.core.law import entry, evaluate_case, pack_for, value
from lotacao.core.services import create_audited, update_audited
from lotacao.enforcement.models import (
    AGENT_KINDS,
    CourseRequirement,
    Decision,
    InfractionNotice,
    Intervention,
    RevocationProcess,
    SuspensionFollowUp,
)
from lotacao.enforcement.reading import br as _br
from lotacao.permits import services as permits
from lotacao.permits.models import Ban, Permit, PermitAgent

Outcome = Decision.Outcome
FollowStatus = SuspensionFollowUp.Status
ProcessStatus = RevocationProcess.Status
IStatus = Intervention.Status
# A decision that does not know an appeal (late, deserted) leaves the earlier penalty standing: the
# process stores that penalty on it, so it applies like an upheld one.
APPLIES = (Outcome.UPHELD, Outcome.CHANGED, Outcome.LAPSED, Outcome.NOT_KNOWN)
LIVE = (Permit.Status.ACTIVE, Permit.Status.SUSPENDED)

AWAITING_PROOF_KIND = "enforcement.suspension_awaiting_proof"
REVOCATION_KIND = "enforcement.revocation_process"
INTERVENTION_DUE_KIND = "enforcement.intervention_due"
INTERVENTION_VOID_KIND = "enforcement.intervention_void"


def _require(text: str, message: str) -> str:
    if not text or not str(text).strip():
        raise ValidationError(message)
    return str(text).strip()


def _cite(code: str, parameter: str, on: dt.date) -> str:
    found = entry(code, parameter, on)
    return str(found.citation) if found is not None else ""


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


# ------------------------------------------------------------------------ final decisions


@transaction.atomic
def apply_final_decision(*, actor: Any, decision: Decision, on: dt.date) -> Decision:
    """Apply the effects of the penalty in force of a final decision, once. Annulled decisions
    change nothing; a not-known decision carries the penalty that stands. Effects the permit's
    state refuses are recorded as not applied, with why."""
    decision = Decision.unscoped.select_for_update().select_related("notice").get(pk=decision.pk)
    if not decision.final:
        raise ValidationError("A decisão ainda não é definitiva: seus efeitos não podem ser aplicados.")
    if decision.effects or decision.outcome not in APPLIES:
        return decision
    notice = InfractionNotice.unscoped.select_related("permit", "agent", "holder").get(pk=decision.notice_id)
    effects: list[dict[str, Any]] = []
    for item in (decision.penalty or {}).get("penalties", []):
        kind = str(item.get("type", ""))
        if kind == "suspension":
            effects.append(_suspension(actor, decision, notice, int(item.get("days") or 0), on))
        elif kind == "revocation":
            effects.append(_revocation(actor, decision, notice, on))
        elif kind == "course":
            effects.append(_course(actor, decision, notice, on))
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
    if not effects:
        effects.append(_effect("none", True, "Nenhuma penalidade em vigor.", []))
    update_audited(
        actor=actor,
        instance=decision,
        changes={"effects": effects},
        reason=f"Efeitos da decisão definitiva do auto {notice.number}",
        action="enforcement.decision_effects",
    )
    return decision


def _is_agent(notice: InfractionNotice) -> bool:
    return notice.offender_kind in AGENT_KINDS and notice.agent_id is not None


def _suspension(
    actor: Any, decision: Decision, notice: InfractionNotice, days: int, on: dt.date
) -> dict[str, Any]:
    code = decision.jurisdiction_id
    cites = list(decision.citations)
    if _is_agent(notice):
        agent = _agent_row(notice, on)
        if agent is None:
            return _effect("suspension", False, "não aplicada: o preposto não tem vínculo em vigor.", cites)
        if days < 1:
            return _effect("suspension", False, "não aplicada: a penalidade não informa os dias.", cites)
        until = on + dt.timedelta(days=days - 1)
        try:
            with transaction.atomic():
                permits.suspend_agent(
                    actor=actor,
                    agent=agent,
                    until=until,
                    reason=f"Suspensão de {days} dias por decisão definitiva do auto {notice.number}",
                    on=on,
                )
        except ValidationError as error:
            return _effect("suspension", False, f"não aplicada: {' '.join(error.messages)}", cites)
        return _effect(
            "suspension",
            True,
            f"Cadastro de {agent} suspenso de {_br(on)} a {_br(until)} ({days} dias).",
            cites,
            ref=f"permitagent:{agent.pk}",
        )
    if notice.permit is None:
        return _effect("suspension", False, "não aplicada: o auto não está ligado a uma permissão.", cites)
    if days < 1:
        return _effect("suspension", False, "não aplicada: a penalidade não informa os dias.", cites)
    until = on + dt.timedelta(days=days - 1)
    reason = f"Suspensão de {days} dias por decisão definitiva do auto {notice.number}"
    try:
        with transaction.atomic():
            permits.suspend_permit(actor=actor, permit=notice.permit, until=until, reason=reason, on=on)
    except ValidationError as error:
        return _effect("suspension", False, f"não aplicada: {' '.join(error.messages)}", cites)
    rule = value(code, "decision.suspension_end", on) or {}
    end_cite = _cite(code, "decision.suspension_end", on)
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
        f"{notice.permit} suspensa de {_br(on)} a {_br(until)} ({days} dias).{proof}",
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
    return f" Impedimento até {_br(ban.ends_on)} ({ban.citation})."


def _revocation(actor: Any, decision: Decision, notice: InfractionNotice, on: dt.date) -> dict[str, Any]:
    code = decision.jurisdiction_id
    cites = list(decision.citations)
    reason = f"Cassação por decisão definitiva do auto {notice.number}"
    if _is_agent(notice):
        agent = _agent_row(notice, on)
        if agent is None:
            return _effect("revocation", False, "não aplicada: o preposto não tem cadastro vigente.", cites)
        try:
            with transaction.atomic():
                permits.revoke_agent(actor=actor, agent=agent, reason=reason, on=on)
        except ValidationError as error:
            return _effect("revocation", False, f"não aplicada: {' '.join(error.messages)}", cites)
        note = f"Cadastro de {agent} cassado em {_br(on)}."
        note += _ban_note(agent.permit, agent.person_id, Ban.Cause.AGENT_REVOCATION)
        return _effect("revocation", True, note, [*cites, _cite(code, "agents.ban_after_revocation", on)])
    permit = notice.permit
    if permit is None:
        return _effect("revocation", False, "não aplicada: o auto não está ligado a uma permissão.", cites)
    rule = value(code, "decision.revocation_by", on) or {}
    by_cite = _cite(code, "decision.revocation_by", on)
    if rule.get("by") == "mayor":
        permit = Permit.unscoped.get(pk=permit.pk)
        if permit.effective_status(on) not in LIVE:
            return _effect(
                "revocation",
                False,
                f"não aplicada: a permissão está {permit.effective_status_label(on).lower()}.",
                cites,
            )
        process = _open_process(
            actor=actor,
            notice=notice,
            permit=permit,
            on=on,
            cause=f"Cassação decidida em definitivo no auto {notice.number}.",
            citations=[*cites, by_cite],
        )
        label = str(rule.get("label", ""))
        return _effect(
            "revocation",
            False,
            f"Processo de cassação aberto em {_br(on)}: a cassação cabe a {label}; a permissão segue "
            "até o registro do ato.",
            [*cites, by_cite],
            ref=f"revocationprocess:{process.pk}",
        )
    try:
        with transaction.atomic():
            permits.revoke_permit(actor=actor, permit=permit, reason=reason, on=on)
    except ValidationError as error:
        return _effect("revocation", False, f"não aplicada: {' '.join(error.messages)}", cites)
    note = f"{permit} cassada em {_br(on)}." + _ban_note(permit, None, Ban.Cause.REVOCATION)
    return _effect(
        "revocation", True, note, [*cites, by_cite, _cite(code, "permit.ban_after_revocation", on)]
    )


def _course(actor: Any, decision: Decision, notice: InfractionNotice, on: dt.date) -> dict[str, Any]:
    code = decision.jurisdiction_id
    blocks = value(code, "decision.course_blocks_operation", on) is True
    cite = _cite(code, "decision.course_blocks_operation", on)
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


@transaction.atomic
def complete_course(
    *, actor: Any, requirement: CourseRequirement, completed_on: dt.date, certificate: str, reason: str
) -> CourseRequirement:
    """Record that a mandatory course was concluded (lifts the block where the law sets one)."""
    _require(reason, "Informe o motivo.")
    certificate = _require(certificate, "Informe o certificado de conclusão do curso.")
    requirement = CourseRequirement.unscoped.select_for_update().get(pk=requirement.pk)
    if requirement.completed_on is not None:
        raise ValidationError(f"O curso já foi concluído em {_br(requirement.completed_on)}.")
    if completed_on < requirement.required_on or completed_on > timezone.localdate():
        raise ValidationError("A data de conclusão deve estar entre a exigência do curso e hoje.")
    return update_audited(
        actor=actor,
        instance=requirement,
        changes={"completed_on": completed_on, "certificate": certificate},
        reason=reason,
        action="enforcement.course_completed",
    )


# ------------------------------------------------------------------------ revocation processes


def _open_process(
    *,
    actor: Any,
    notice: InfractionNotice | None,
    permit: Permit,
    on: dt.date,
    cause: str,
    citations: list[str],
) -> RevocationProcess:
    code = permit.jurisdiction_id
    rule = value(code, "decision.revocation_by", on) or {}
    by_cite = _cite(code, "decision.revocation_by", on)
    process = RevocationProcess(
        jurisdiction_id=code,
        notice=notice,
        permit=permit,
        opened_on=on,
        cause=cause,
        decided_by_label=str(rule.get("label") or "autoridade competente"),
        citations=list(dict.fromkeys(c for c in [*citations, by_cite] if c)),
    )
    return create_audited(
        actor=actor, instance=process, reason=cause, action="enforcement.revocation_process_opened"
    )


def _open(process: RevocationProcess) -> RevocationProcess:
    process = RevocationProcess.unscoped.select_for_update().get(pk=process.pk)
    if process.status != ProcessStatus.OPEN:
        raise ValidationError(f"O processo de cassação já está {process.get_status_display().lower()}.")
    return process


@transaction.atomic
def record_revocation_act(
    *, actor: Any, process: RevocationProcess, act: str, on: dt.date, reason: str
) -> RevocationProcess:
    """The authority's act (decree, portaria) that revokes: the permit is revoked on its date and
    the ban the law sets follows."""
    _require(reason, "Informe o motivo.")
    act = _require(act, "Informe o ato da cassação (número do decreto ou da portaria).")
    process = _open(process)
    if on < process.opened_on:
        raise ValidationError(
            f"O ato não pode ser anterior à abertura do processo ({_br(process.opened_on)})."
        )
    if on > timezone.localdate():
        raise ValidationError("A data do ato não pode ser futura.")
    permits.revoke_permit(actor=actor, permit=process.permit, reason=f"{act}: {reason}", on=on)
    return update_audited(
        actor=actor,
        instance=process,
        changes={"status": ProcessStatus.REVOKED, "act": act, "closed_on": on},
        reason=reason,
        action="enforcement.revocation_act",
    )


@transaction.atomic
def dismiss_revocation_process(
    *, actor: Any, process: RevocationProcess, on: dt.date, reason: str
) -> RevocationProcess:
    """Close a revocation process without revoking (the authority decided not to)."""
    _require(reason, "Informe o motivo do arquivamento.")
    process = _open(process)
    if on < process.opened_on or on > timezone.localdate():
        raise ValidationError("A data do arquivamento deve estar entre a abertura do processo e hoje.")
    return update_audited(
        actor=actor,
        instance=process,
        changes={"status": ProcessStatus.DISMISSED, "closed_on": on},
        reason=reason,
        action="enforcement.revocation_dismissed",
    )


# ------------------------------------------------------------------------ end of suspensions


@dataclass
class SuspensionResult:
    reinstated: int = 0
    awaiting_proof: int = 0
    processes: int = 0
    ended: int = 0
    voided: int = 0


def _reinstate(actor: Any, follow: SuspensionFollowUp, on: dt.date, why: str) -> bool:
    try:
        with transaction.atomic():
            permits.reinstate_permit(actor=actor, permit=follow.permit, reason=why, on=on)
    except ValidationError:
        return False  # the permit left the suspension another way (revoked, expired)
    return True


def end_suspensions(*, today: dt.date, actor: Any = None) -> SuspensionResult:
    """Daily job: suspensions whose term is over return the permit, or wait for the proof the law
    asks; where the law orders it, an unproved end opens the revocation process."""
    result = SuspensionResult()
    ids = SuspensionFollowUp.unscoped.filter(status=FollowStatus.RUNNING, ends_on__lt=today).values_list(
        "pk", flat=True
    )
    for pk in list(ids):
        with transaction.atomic():
            follow = SuspensionFollowUp.unscoped.select_for_update().select_related("notice").get(pk=pk)
            if follow.status != FollowStatus.RUNNING:
                continue
            _end_one(actor, follow, today, result)
    result.voided = check_interventions(today=today, actor=actor)
    return result


def _end_one(actor: Any, follow: SuspensionFollowUp, today: dt.date, result: SuspensionResult) -> None:
    code = follow.jurisdiction_id
    why = f"Fim da suspensão em {_br(follow.ends_on)} (auto {follow.notice.number})"
    if not follow.requires_proof or follow.proved_on is not None:
        if _reinstate(actor, follow, today, why):
            result.reinstated += 1
        result.ended += 1
        update_audited(
            actor=actor,
            instance=follow,
            changes={"status": FollowStatus.ENDED},
            reason=why,
            action="enforcement.suspension_ended",
        )
        return
    rule = value(code, "decision.suspension_end", follow.starts_on) or {}
    status = FollowStatus.AWAITING_PROOF
    if rule.get("if_not_proved") == "revocation_process":
        permit = Permit.unscoped.get(pk=follow.permit_id)
        if permit.effective_status(today) in LIVE:
            _open_process(
                actor=actor,
                notice=follow.notice,
                permit=permit,
                on=today,
                cause=(
                    f"Suspensão encerrada em {_br(follow.ends_on)} sem comprovação de que as "
                    f"irregularidades do auto {follow.notice.number} foram sanadas."
                ),
                citations=list(follow.citations),
            )
            result.processes += 1
            status = FollowStatus.REVOCATION_OPENED
    result.awaiting_proof += 1
    update_audited(
        actor=actor,
        instance=follow,
        changes={"status": status},
        reason=f"{why}, sem comprovação das correções: a permissão continua suspensa",
        action="enforcement.suspension_awaiting_proof",
    )


@transaction.atomic
def record_suspension_proof(
    *,
    actor: Any,
    followup: SuspensionFollowUp,
    proved_on: dt.date,
    note: str,
    reason: str,
    today: dt.date | None = None,
) -> SuspensionFollowUp:
    """Record the proof that the faults were fixed; the permit returns at once when the term is
    over (else the daily job returns it at the end). An open revocation process stays open for
    the authority to decide (the pack's reading of `decision.suspension_end`)."""
    _require(reason, "Informe o motivo.")
    note = _require(note, "Descreva a comprovação apresentada (documentos, vistoria).")
    today = today or timezone.localdate()
    follow = SuspensionFollowUp.unscoped.select_for_update().select_related("notice").get(pk=followup.pk)
    if not follow.requires_proof:
        raise ValidationError("A lei não exige comprovação para encerrar esta suspensão.")
    if follow.proved_on is not None or follow.status == FollowStatus.ENDED:
        raise ValidationError("A comprovação desta suspensão já foi registrada.")
    if proved_on < follow.starts_on or proved_on > today:
        raise ValidationError(
            f"A data da comprovação deve estar entre o início da suspensão ({_br(follow.starts_on)}) e hoje."
        )
    changes: dict[str, Any] = {"proved_on": proved_on, "proof_note": note}
    if today > follow.ends_on:  # the term is over: the permit returns now
        _reinstate(actor, follow, today, f"Comprovação das correções: {reason}")
        changes["status"] = FollowStatus.ENDED
    return update_audited(
        actor=actor, instance=follow, changes=changes, reason=reason, action="enforcement.suspension_proof"
    )


# ------------------------------------------------------------------------ intervention (Esteio)


def intervention_allowed(code: str, on: dt.date) -> bool:
    return value(code, "deadline.intervention_procedure", on) is not None


def _deadline(code: str, deadline: str, start: dt.date) -> dict[str, Any]:
    result = evaluate_case(
        {"jurisdiction": code, "kind": "deadline", "deadline": deadline, "date": start.isoformat()}
    )
    if "error" in result or "due" not in result:
        raise ValidationError(str(result.get("error", {}).get("message", "Prazo não calculado.")))
    return result


@transaction.atomic
def decree_intervention(
    *,
    actor: Any,
    permit: Permit,
    decree: str,
    decreed_on: dt.date | None,
    interventor: str,
    term_until: dt.date | None,
    goals: str,
    limits: str,
    reason: str,
) -> Intervention:
    """Record the decree of intervention (art. 43): interventor, term, goals and limits are all
    required; the deadline to open the procedure (art. 44) is the engine's."""
    code = permit.jurisdiction_id
    on = decreed_on or timezone.localdate()
    if not intervention_allowed(code, on):
        raise ValidationError(f"A lei de {pack_for(code).name} não prevê intervenção.")
    missing = [
        label
        for label, given in (
            ("o número do decreto", decree),
            ("a data do decreto", decreed_on),
            ("o interventor", interventor),
            ("o prazo da intervenção", term_until),
            ("os objetivos", goals),
            ("os limites da medida", limits),
        )
        if not given or not str(given).strip()
    ]
    if missing:
        raise ValidationError(
            f"O decreto de intervenção deve conter {', '.join(missing)} "
            f"({pack_for(code).law}, art. 43, parágrafo único)."
        )
    _require(reason, "Informe o motivo.")
    if decreed_on is None or term_until is None:  # for the type checker: refused above
        raise ValidationError("Informe as datas do decreto e do prazo da intervenção.")
    if decreed_on > timezone.localdate():
        raise ValidationError("A data do decreto não pode ser futura.")
    if term_until <= decreed_on:
        raise ValidationError("O prazo da intervenção deve ser posterior à data do decreto.")
    permit = Permit.unscoped.select_for_update().get(pk=permit.pk)
    if permit.effective_status(decreed_on) not in LIVE:
        raise ValidationError(
            f"Não cabe intervenção: a permissão está {permit.effective_status_label(decreed_on).lower()}."
        )
    if Intervention.unscoped.filter(
        permit=permit, status__in=[IStatus.DECREED, IStatus.PROCEDURE_OPEN]
    ).exists():
        raise ValidationError("Já há uma intervenção em curso nesta permissão.")
    due = _deadline(code, "intervention_procedure", decreed_on)
    intervention = Intervention(
        jurisdiction_id=code,
        permit=permit,
        decree=decree.strip(),
        decreed_on=decreed_on,
        interventor=interventor.strip(),
        term_until=term_until,
        goals=goals.strip(),
        limits=limits.strip(),
        procedure_due=dt.date.fromisoformat(str(due["due"])),
        citations=list(due.get("citations", [])),
    )
    return create_audited(
        actor=actor, instance=intervention, reason=reason, action="enforcement.intervention_decreed"
    )


def _locked(intervention: Intervention, status: str, doing: str) -> Intervention:
    intervention = Intervention.unscoped.select_for_update().get(pk=intervention.pk)
    if intervention.status != status:
        raise ValidationError(
            f"Não é possível {doing}: a intervenção está {intervention.get_status_display().lower()}."
        )
    return intervention


@transaction.atomic
def open_intervention_procedure(
    *, actor: Any, intervention: Intervention, opened_on: dt.date, reason: str
) -> Intervention:
    """The administrative procedure of art. 44 (within its deadline); the deadline to conclude it
    (art. 44 § 2º) is counted from here by the engine."""
    _require(reason, "Informe o motivo.")
    intervention = _locked(intervention, IStatus.DECREED, "instaurar o procedimento")
    if opened_on < intervention.decreed_on or opened_on > timezone.localdate():
        raise ValidationError("A data de instauração deve estar entre o decreto e hoje.")
    if intervention.procedure_due is not None and opened_on > intervention.procedure_due:
        raise ValidationError(
            f"O prazo para instaurar o procedimento venceu em {_br(intervention.procedure_due)} "
            "(art. 44): a intervenção é inválida."
        )
    due = _deadline(intervention.jurisdiction_id, "intervention_conclusion", opened_on)
    citations = list(dict.fromkeys([*intervention.citations, *due.get("citations", [])]))
    return update_audited(
        actor=actor,
        instance=intervention,
        changes={
            "status": IStatus.PROCEDURE_OPEN,
            "procedure_opened_on": opened_on,
            "conclusion_due": dt.date.fromisoformat(str(due["due"])),
            "citations": citations,
        },
        reason=reason,
        action="enforcement.intervention_procedure",
    )


@transaction.atomic
def conclude_intervention(
    *,
    actor: Any,
    intervention: Intervention,
    concluded_on: dt.date,
    outcome_note: str,
    reason: str,
    nullity: bool = False,
) -> Intervention:
    """Conclude the procedure in time: the service returns to the holder after the interventor's
    accounts, unless an inquiry to end the permit is proposed (art. 45); `nullity` where the
    intervention did not meet the legal grounds (art. 44 § 1º)."""
    _require(reason, "Informe o motivo.")
    outcome_note = _require(
        outcome_note, "Descreva o resultado (prestação de contas do interventor, devolução ou inquérito)."
    )
    intervention = _locked(intervention, IStatus.PROCEDURE_OPEN, "concluir")
    opened = intervention.procedure_opened_on or intervention.decreed_on
    if concluded_on < opened or concluded_on > timezone.localdate():
        raise ValidationError("A data de conclusão deve estar entre a instauração do procedimento e hoje.")
    if intervention.conclusion_due is not None and concluded_on > intervention.conclusion_due:
        raise ValidationError(
            f"O prazo para concluir o procedimento venceu em {_br(intervention.conclusion_due)} "
            "(art. 44, § 2º): a intervenção é inválida."
        )
    return update_audited(
        actor=actor,
        instance=intervention,
        changes={
            "status": IStatus.ANNULLED if nullity else IStatus.CONCLUDED,
            "concluded_on": concluded_on,
            "outcome_note": outcome_note,
        },
        reason=reason,
        action="enforcement.intervention_concluded",
    )


def _missed(intervention: Intervention) -> dt.date | None:
    if intervention.status == IStatus.DECREED:
        return intervention.procedure_due
    if intervention.status == IStatus.PROCEDURE_OPEN:
        return intervention.conclusion_due
    return None


def check_interventions(*, today: dt.date, actor: Any = None) -> int:
    """Interventions whose procedure was not opened (art. 44) or concluded (art. 44 § 2º) in time
    become void, with a work item for the manager (the service returns to the holder)."""
    from lotacao.workqueue.services import open_item

    voided = 0
    candidates = Intervention.unscoped.filter(status__in=[IStatus.DECREED, IStatus.PROCEDURE_OPEN])
    for pk in list(candidates.values_list("pk", flat=True)):
        with transaction.atomic():
            intervention = Intervention.unscoped.select_for_update().get(pk=pk)
            due = _missed(intervention)
            if due is None or due >= today:
                continue
            what = "instaurado" if intervention.status == IStatus.DECREED else "concluído"
            why = (
                f"Intervenção inválida: o procedimento administrativo não foi {what} até {_br(due)} "
                "(art. 44 e § 2º)."
            )
            update_audited(
                actor=actor,
                instance=intervention,
                changes={"status": IStatus.VOID, "outcome_note": why},
                reason=why,
                action="enforcement.intervention_void",
            )
            open_item(_void_spec(intervention, due), today)
            voided += 1
    return voided


# ------------------------------------------------------------------------ work items


def _void_spec(intervention: Intervention, due: dt.date | None) -> Any:
    from lotacao.workqueue.services import WorkItemSpec

    return WorkItemSpec(
        jurisdiction_id=intervention.jurisdiction_id,
        kind=INTERVENTION_VOID_KIND,
        key=f"intervention:{intervention.pk}",
        title=(
            f"Intervenção ({intervention.decree}) inválida por prazo perdido: devolver o serviço ao "
            "permissionário"
        )[:300],
        due_on=due,
        url=f"/fiscalizacao/efeitos/intervencoes/{intervention.pk}/",
    )


def effect_items(today: dt.date, horizon: int) -> Iterator[Any]:
    """Work-queue items: suspensions awaiting proof, open revocation processes, interventions with
    a deadline within the horizon, and interventions voided within the last `horizon` days."""
    from lotacao.workqueue.services import WorkItemSpec

    waiting = SuspensionFollowUp.unscoped.filter(
        status__in=[FollowStatus.AWAITING_PROOF, FollowStatus.REVOCATION_OPENED], proved_on__isnull=True
    ).select_related("permit")
    for follow in waiting:
        yield WorkItemSpec(
            jurisdiction_id=follow.jurisdiction_id,
            kind=AWAITING_PROOF_KIND,
            key=f"followup:{follow.pk}",
            title=f"{follow.permit}: suspensão encerrada em {_br(follow.ends_on)} aguardando comprovação"[
                :300
            ],
            due_on=follow.ends_on,
            url=f"/fiscalizacao/efeitos/suspensoes/{follow.pk}/",
        )
    for process in RevocationProcess.unscoped.filter(status=ProcessStatus.OPEN).select_related("permit"):
        yield WorkItemSpec(
            jurisdiction_id=process.jurisdiction_id,
            kind=REVOCATION_KIND,
            key=f"process:{process.pk}",
            title=f"{process.permit}: processo de cassação aberto ({process.decided_by_label})"[:300],
            due_on=None,
            url=f"/fiscalizacao/efeitos/cassacoes/{process.pk}/",
        )
    until = today + dt.timedelta(days=horizon)
    since = today - dt.timedelta(days=horizon)
    for intervention in Intervention.unscoped.filter(
        status__in=[IStatus.DECREED, IStatus.PROCEDURE_OPEN, IStatus.VOID]
    ):
        if intervention.status == IStatus.VOID:
            due = intervention.conclusion_due or intervention.procedure_due
            if due is not None and due >= since:
                yield _void_spec(intervention, due)
            continue
        due = _missed(intervention)
        if due is None or due > until:
            continue
        what = (
            "instaurar o procedimento"
            if intervention.status == IStatus.DECREED
            else "concluir o procedimento"
        )
        yield WorkItemSpec(
            jurisdiction_id=intervention.jurisdiction_id,
            kind=INTERVENTION_DUE_KIND,
            key=f"intervention:{intervention.pk}",
            title=f"Intervenção ({intervention.decree}): {what} o procedimento até {_br(due)}"[:300],
            due_on=due,
            url=f"/fiscalizacao/efeitos/intervencoes/{intervention.pk}/",
        )


def public_vehicle_info(vehicle: Any, on: dt.date) -> dict[str, Any]:
    """For the public plate check: a holder who must finish a course before operating again
    (`decision.course_blocks_operation`, Cabo's 100 points) may not operate this vehicle. No
    personal data: the reason says what, since when and the article."""
    info: dict[str, Any] = {"reasons": []}
    if getattr(vehicle, "holder_id", None) is None:
        return info
    pending = CourseRequirement.unscoped.filter(
        holder_id=vehicle.holder_id, blocks_operation=True, completed_on__isnull=True, required_on__lte=on
    ).order_by("required_on")
    for course in pending:
        info["authorized"] = False
        info["reasons"].append(
            f"Curso obrigatório pendente desde {_br(course.required_on)}: o permissionário não pode "
            f"operar até concluí-lo ({course.citation})."
        )
    return info
