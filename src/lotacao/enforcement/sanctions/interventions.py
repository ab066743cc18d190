"""Esteio's intervention (arts. 43–45): the decree with interventor, term, goals and limits; the
administrative procedure opened within the engine's deadline (`deadline.intervention_procedure`,
art. 44) and concluded within `deadline.intervention_conclusion` (art. 44 § 2º), or the
intervention is void (the daily `end_suspensions` job voids it and opens a work item at once, from
the same producer the nightly queue yields: `intervention_items`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import lower_first
from lotacao.core.law import evaluate_case, pack_for, value
from lotacao.enforcement.models import Intervention
from lotacao.enforcement.reading import br
from lotacao.enforcement.work_items import open_now
from lotacao.permits.models import Permit
from lotacao.workqueue.services import WorkItemSpec

IStatus = Intervention.Status
# The permit states the effects of a decision (suspension, revocation, intervention) can still reach.
LIVE = (Permit.Status.ACTIVE, Permit.Status.SUSPENDED)
INTERVENTION_DUE_KIND = "enforcement.intervention_due"
INTERVENTION_VOID_KIND = "enforcement.intervention_void"


def _require(text: str, message: str) -> str:
    if not text or not str(text).strip():
        raise ValidationError(message)
    return str(text).strip()


def intervention_allowed(code: str, on: dt.date) -> bool:
    return value(code, "deadline.intervention_procedure", on) is not None


def _deadline(code: str, deadline: str, start: dt.date) -> dict[str, Any]:
    result = evaluate_case(
        {"jurisdiction": code, "kind": "deadline", "deadline": deadline, "date": start.isoformat()}
    )
    if "error" in result or "due" not in result:
        raise ValidationError(str(result.get("error", {}).get("message", "Prazo não calculado.")))
    return result


def _check_decree(
    code: str,
    decree: str,
    decreed_on: dt.date | None,
    interventor: str,
    term_until: dt.date | None,
    goals: str,
    limits: str,
) -> None:
    """Art. 43, parágrafo único: the decree names the interventor, the term, goals and limits."""
    if not intervention_allowed(code, decreed_on or timezone.localdate()):
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


def _permit_open_to_intervention(permit: Permit, decreed_on: dt.date, term_until: dt.date) -> Permit:
    """The dates make sense, the permit is live and has no intervention running (locked)."""
    if decreed_on > timezone.localdate():
        raise ValidationError("A data do decreto não pode ser futura.")
    if term_until <= decreed_on:
        raise ValidationError("O prazo da intervenção deve ser posterior à data do decreto.")
    permit = Permit.unscoped.select_for_update().get(pk=permit.pk)
    if permit.effective_status(decreed_on) not in LIVE:
        raise ValidationError(
            "Não cabe intervenção: a permissão está "
            f"{lower_first(permit.effective_status_label(decreed_on))}."
        )
    if Intervention.unscoped.filter(
        permit=permit, status__in=[IStatus.DECREED, IStatus.PROCEDURE_OPEN]
    ).exists():
        raise ValidationError("Já há uma intervenção em curso nesta permissão.")
    return permit


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
    _check_decree(code, decree, decreed_on, interventor, term_until, goals, limits)
    _require(reason, "Informe o motivo.")
    if decreed_on is None or term_until is None:  # for the type checker: refused above
        raise ValidationError("Informe as datas do decreto e do prazo da intervenção.")
    permit = _permit_open_to_intervention(permit, decreed_on, term_until)
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
            f"Não é possível {doing}: a intervenção está {lower_first(intervention.get_status_display())}."
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
            f"O prazo para instaurar o procedimento venceu em {br(intervention.procedure_due)} "
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
            f"O prazo para concluir o procedimento venceu em {br(intervention.conclusion_due)} "
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


def check_interventions(*, today: dt.date, actor: Any = None, only: list[int] | None = None) -> int:
    """Interventions whose procedure was not opened (art. 44) or concluded (art. 44 § 2º) in time
    become void, with a work item for the manager (the service returns to the holder). The nightly
    job checks them all; a screen that reads some checks those (`only`) before it shows them."""
    voided = 0
    candidates = Intervention.unscoped.filter(status__in=[IStatus.DECREED, IStatus.PROCEDURE_OPEN])
    if only is not None:
        candidates = candidates.filter(pk__in=only)
    for pk in list(candidates.values_list("pk", flat=True)):
        with transaction.atomic():
            intervention = Intervention.unscoped.select_for_update().get(pk=pk)
            due = _missed(intervention)
            if due is None or due >= today:
                continue
            what = "instaurado" if intervention.status == IStatus.DECREED else "concluído"
            why = (
                f"Intervenção inválida: o procedimento administrativo não foi {what} até {br(due)} "
                "(art. 44 e § 2º)."
            )
            update_audited(
                actor=actor,
                instance=intervention,
                changes={"status": IStatus.VOID, "outcome_note": why},
                reason=why,
                action="enforcement.intervention_void",
            )
            open_now([void_item(intervention, due)], today)
            voided += 1
    return voided


def void_item(intervention: Intervention, due: dt.date | None) -> WorkItemSpec:
    """The work item of an intervention voided by a missed deadline: return the service."""
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


def intervention_items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    """Work items: interventions with a deadline within the horizon, and those voided within the
    last `horizon` days (the item `check_interventions` opened at once)."""
    until = today + dt.timedelta(days=horizon)
    since = today - dt.timedelta(days=horizon)
    for intervention in Intervention.unscoped.filter(
        status__in=[IStatus.DECREED, IStatus.PROCEDURE_OPEN, IStatus.VOID]
    ):
        if intervention.status == IStatus.VOID:
            due = intervention.conclusion_due or intervention.procedure_due
            if due is not None and due >= since:
                yield void_item(intervention, due)
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
            title=f"Intervenção ({intervention.decree}): {what} o procedimento até {br(due)}"[:300],
            due_on=due,
            url=f"/fiscalizacao/efeitos/intervencoes/{intervention.pk}/",
        )
