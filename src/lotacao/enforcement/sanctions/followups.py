"""What final decisions leave to follow up: suspensions that end (the permit returns, or waits
for the proof the law asks — Maricá art. 58 §§ 3º–4º, Pernambuco art. 30 § 1º — opening the
revocation process the day after an unproved end where the law says so), revocation processes
for another authority's act (Esteio Anexo I art. 9 § 2º: the Mayor), and mandatory courses
completed. The daily `end_suspensions` job also voids interventions past their deadlines.
Work items: `followup_items`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import lower_first
from lotacao.core.law import value
from lotacao.enforcement.models import (
    CourseRequirement,
    InfractionNotice,
    RevocationProcess,
    SuspensionFollowUp,
)
from lotacao.enforcement.reading import br, citation_of
from lotacao.enforcement.sanctions.interventions import LIVE, check_interventions
from lotacao.permits import services as permits
from lotacao.permits.models import Permit
from lotacao.workqueue.services import WorkItemSpec

FollowStatus = SuspensionFollowUp.Status
ProcessStatus = RevocationProcess.Status
AWAITING_PROOF_KIND = "enforcement.suspension_awaiting_proof"
REVOCATION_KIND = "enforcement.revocation_process"


def _require(text: str, message: str) -> str:
    if not text or not str(text).strip():
        raise ValidationError(message)
    return str(text).strip()


@transaction.atomic
def complete_course(
    *, actor: Any, requirement: CourseRequirement, completed_on: dt.date, certificate: str, reason: str
) -> CourseRequirement:
    """Record that a mandatory course was concluded (lifts the block where the law sets one)."""
    _require(reason, "Informe o motivo.")
    certificate = _require(certificate, "Informe o certificado de conclusão do curso.")
    requirement = CourseRequirement.unscoped.select_for_update().get(pk=requirement.pk)
    if requirement.completed_on is not None:
        raise ValidationError(f"O curso já foi concluído em {br(requirement.completed_on)}.")
    if completed_on < requirement.required_on or completed_on > timezone.localdate():
        raise ValidationError("A data de conclusão deve estar entre a exigência do curso e hoje.")
    return update_audited(
        actor=actor,
        instance=requirement,
        changes={"completed_on": completed_on, "certificate": certificate},
        reason=reason,
        action="enforcement.course_completed",
    )


def pending_courses(*, code: str, person: Any, on: dt.date) -> list[tuple[int, str]]:
    """The seam `pending_course_requirements`: the mandatory courses a final decision imposed on
    the person (as the offender or as the holder), not yet completed, the oldest first."""
    rows = (
        CourseRequirement.unscoped.filter(
            jurisdiction_id=code, completed_on__isnull=True, required_on__lte=on
        )
        .filter(Q(person_id=person.pk) | Q(holder__person_id=person.pk))
        .select_related("notice")
        .order_by("required_on", "id")
    )
    return [
        (row.pk, f"Curso obrigatório desde {br(row.required_on)}, auto {row.notice.number} ({row.citation})")
        for row in rows
    ]


def course_done(
    *, actor: Any, requirement_id: int, completed_on: dt.date, certificate: str, reason: str
) -> None:
    """The seam `course_requirement_completed`: the course of the catalogue was concluded."""
    requirement = CourseRequirement.unscoped.get(pk=requirement_id)
    if requirement.completed_on is None:
        complete_course(
            actor=actor,
            requirement=requirement,
            completed_on=completed_on,
            certificate=certificate,
            reason=reason,
        )


def open_revocation_process(
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
    by_cite = citation_of(code, "decision.revocation_by", on)
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
        raise ValidationError(f"O processo de cassação já está {lower_first(process.get_status_display())}.")
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
            f"O ato não pode ser anterior à abertura do processo ({br(process.opened_on)})."
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
    why = f"Fim da suspensão em {br(follow.ends_on)} (auto {follow.notice.number})"
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
            open_revocation_process(
                actor=actor,
                notice=follow.notice,
                permit=permit,
                on=today,
                cause=(
                    f"Suspensão encerrada em {br(follow.ends_on)} sem comprovação de que as "
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
            f"A data da comprovação deve estar entre o início da suspensão ({br(follow.starts_on)}) e hoje."
        )
    changes: dict[str, Any] = {"proved_on": proved_on, "proof_note": note}
    if today > follow.ends_on:  # the term is over: the permit returns now
        _reinstate(actor, follow, today, f"Comprovação das correções: {reason}")
        changes["status"] = FollowStatus.ENDED
    return update_audited(
        actor=actor, instance=follow, changes=changes, reason=reason, action="enforcement.suspension_proof"
    )


def followup_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Work items: suspensions awaiting proof, open revocation processes."""
    waiting = SuspensionFollowUp.unscoped.filter(
        status__in=[FollowStatus.AWAITING_PROOF, FollowStatus.REVOCATION_OPENED], proved_on__isnull=True
    ).select_related("permit")
    for follow in waiting:
        yield WorkItemSpec(
            jurisdiction_id=follow.jurisdiction_id,
            kind=AWAITING_PROOF_KIND,
            key=f"followup:{follow.pk}",
            title=f"{follow.permit}: suspensão encerrada em {br(follow.ends_on)} aguardando comprovação"[
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
