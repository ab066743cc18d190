"""Where a notice stands in its due process: the instance of the pack's `process.instances` open
for a filing now, the event that starts its deadline and the engine's deadline, or why no filing
can be made (the notice's state in the table of `notices.states`, a final decision, a filing still
waiting, no other instance, or the body's own decision still to come — `ex_officio`, Cabo's
Council applying the penalty, art. 29). Every wing reads it: filings, judging, the daily settlement, the
notice page and the API.

`after_event` is what every event of the process ends with: the fine is recomputed
(`sanctions.fines.sync_fine`, idempotent).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from lotacao.core.law import entry
from lotacao.enforcement.due_process.procedure import (
    SEVERITY,
    body_key,
    deadline_id,
    instances,
    penalty_in_force,
    run_deadline,
    short_cites,
    with_measures,
)
from lotacao.enforcement.models import Decision, Filing, InfractionNotice, Measure
from lotacao.enforcement.notices import states
from lotacao.enforcement.reading import infraction_day
from lotacao.enforcement.sanctions.fines import sync_fine

OPEN_FILING = (Filing.Status.PENDING, Filing.Status.DILIGENCE)


def penalty_kind(penalty: dict[str, Any]) -> str | None:
    """The most severe penalty type of a penalty result."""
    types = {str(p.get("type")) for p in penalty.get("penalties") or []}
    return next((kind for kind in SEVERITY if kind in types), None)


def pick(instance: dict[str, Any], key: str, penalty: dict[str, Any]) -> tuple[str | None, str]:
    """An instance's deadline or body for the penalty in force; the second value explains a gap."""
    found = deadline_id(instance, penalty) if key == "deadline" else body_key(instance, penalty)
    if found is not None:
        return found, ""
    kind = penalty_kind(penalty)
    if kind is None:
        return None, "o auto não tem penalidade registrada"
    return None, f"a lei não diz qual {'prazo' if key == 'deadline' else 'órgão'} vale para {kind}"


def in_force_penalty(notice: InfractionNotice) -> dict[str, Any]:
    """The penalty in force: the last decision's that set one, else the notice's."""
    return penalty_in_force(notice, list(notice.decisions.all()))


def applied_measures(notice: InfractionNotice) -> list[str]:
    """The kinds of the measures applied on the notice (one converted counts as what it became)."""
    return [m.kind for m in notice.measures.all() if m.status != Measure.Status.CONVERTED]


def route_penalty(notice: InfractionNotice, decisions: list[Decision] | None = None) -> dict[str, Any]:
    """What picks the body and deadline of an appeal: the penalty in force and the measures
    applied (Maricá: retention, art. 70; seizure, art. 71)."""
    found = list(notice.decisions.all()) if decisions is None else decisions
    return with_measures(penalty_in_force(notice, found), applied_measures(notice))


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
    ex_officio: bool = False  # the instance open is the body's own decision (no filing: Cabo art. 29)


def current_stage(notice: InfractionNotice, on: dt.date) -> Stage:
    """The instance open for a filing now, its deadline, or why none is open."""
    code = notice.jurisdiction_id
    day = infraction_day(notice)
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
    if instance.get("ex_officio"):
        stage.ex_officio = True
        stage.blocked = (
            f"{instance['name']} ainda não registrada ({'; '.join(stage.citations)}): defesa ou recurso "
            "cabem depois da comunicação dessa decisão."
        )
        return stage
    if any(f.instance == instance["id"] and f.status in OPEN_FILING for f in notice.filings.all()):
        stage.blocked = f"{instance['name']}: já há um pedido protocolado, aguardando julgamento."
        return stage
    deadline, gap = pick(instance, "deadline", route_penalty(notice, decisions))
    if deadline is None:
        stage.missing.append(f"process.instances.{instance['id']}.deadline")
        stage.explanation = f"Prazo não calculado: {gap}."
        return stage
    if start is None:
        event = "a comunicação da decisão" if instance.get("starts") == "decision_served" else "a notificação"
        stage.explanation = f"O prazo começa com {event}, ainda não registrada."
        return stage
    result = run_deadline(code, deadline, start)
    stage.due = result["due"]
    stage.explanation = result["explanation"]
    stage.citations = list(dict.fromkeys(stage.citations + result["citations"]))
    stage.missing = result["missing"]
    return stage


def after_event(actor: Any, notice: InfractionNotice, on: dt.date) -> None:
    """After a filing, a decision, its service or finality: the fine follows (idempotent)."""
    sync_fine(actor=actor, notice=InfractionNotice.unscoped.get(pk=notice.pk), on=on)


def stage_context(notice: InfractionNotice) -> dict[str, Any]:
    """What the notice's pages show of its due process: the stage now, whether it is past due, and
    what the law requires before a filing can be accepted (Maricá art. 70, parágrafo único: the
    fine paid first) — said up front, so no form is offered that could only be refused."""
    from lotacao.enforcement.models import Fine
    from lotacao.enforcement.sanctions.fine_payment import paid_before_appeal_deadline, slip_refusal

    today = timezone.localdate()
    stage = current_stage(notice, today)
    requirement, condition, how_to_pay, fine = "", "", "", None
    if stage.instance is not None and not stage.blocked:
        paid_first = paid_before_appeal_deadline(notice, str(stage.instance.get("id")))
        if not paid_first:
            if paid_first.blocks_filing:
                requirement = paid_first.message
            else:
                condition = paid_first.message  # said up front; the form is offered
            fine = Fine.unscoped.filter(notice=notice).first()
            how_to_pay = slip_refusal(fine, today) if fine is not None else "A multa ainda não foi lançada."
    return {
        "stage": stage,
        "stage_late": stage.due is not None and today > stage.due,
        "filing_requirement": requirement,
        "filing_condition": condition,
        "filing_how_to_pay": how_to_pay,
        "filing_fine": fine,
    }
