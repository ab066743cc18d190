"""The daily settlement of the due process (`manage.py settle_due_process`): what no instance can
change any more becomes final — a notice served whose first deadline passed with nothing filed
gets a `lapsed` decision; a decision whose next instance's deadline passed unused becomes final —
and fines past due while a filing waits take the law's effect that day (Esteio Anexo I art. 22
§ 1º). Also the due process's work items: diligences past the law's number of sessions, decisions
not yet communicated."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from lotacao.audit.services import create_audited
from lotacao.enforcement.due_process.decisions import finalize
from lotacao.enforcement.due_process.judging import diligence_limit
from lotacao.enforcement.due_process.procedure import judgment_due
from lotacao.enforcement.due_process.stage import (
    OPEN_FILING,
    Stage,
    after_event,
    current_stage,
    in_force_penalty,
)
from lotacao.enforcement.models import Decision, Filing, Fine, InfractionNotice
from lotacao.enforcement.reading import br
from lotacao.workqueue.services import WorkItemSpec

Outcome = Decision.Outcome
DILIGENCE_KIND = "enforcement.diligence_overdue"
DECISION_NOTICE_KIND = "enforcement.decision_to_notify"
JUDGMENT_KIND = "enforcement.judgment_due"
MANDATE_KIND = "enforcement.mandate_review"


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
            f"Prazo de {str(instance.get('name', 'defesa')).lower()} vencido em {br(due)} sem protocolo: "
            "a penalidade fica definitiva."
        ),
        penalty=in_force_penalty(notice),
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
        InfractionNotice.unscoped.filter(status=InfractionNotice.Status.NOTIFIED, served_on__isnull=False)
        .select_related("jurisdiction")
        .prefetch_related("decisions", "filings", "measures")
    )
    for notice in candidates.iterator(chunk_size=500):
        if any(f.status in OPEN_FILING for f in notice.filings.all()):
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
    waiting = Fine.unscoped.filter(
        status=Fine.Status.OPEN,
        due_on__lt=today,
        notice__filings__status__in=list(OPEN_FILING),
    ).distinct()
    for fine in waiting.select_related("notice"):
        after_event(actor, fine.notice, today)
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
    yield from judgment_items(today)
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


def judgment_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Where the law gives the body a judging deadline (Recife art. 42: 30 days from receiving the
    defense): each filing waiting for judgment, due that day; and each judged after it, for the
    president to see whether the delay was justified — unjustified, the members who missed it lose
    their mandate (art. 40, II), which `judging.end_mandate` records."""
    waiting = Filing.unscoped.filter(status__in=list(OPEN_FILING)).select_related("notice__jurisdiction")
    for filing in waiting:
        due, cites = judgment_due(filing)
        if due is None:
            continue
        yield WorkItemSpec(
            jurisdiction_id=filing.jurisdiction_id,
            kind=JUDGMENT_KIND,
            key=f"filing:{filing.pk}",
            title=f"Julgar o protocolo {filing.receipt} até {br(due)} ({'; '.join(cites)})"[:300],
            due_on=due,
            url=filing.get_absolute_url(),
        )
    since = today - dt.timedelta(days=180)
    judged = Decision.unscoped.filter(
        filing__isnull=False, decided_on__gte=since, mandate_reviewed=False
    ).select_related("filing__notice__jurisdiction", "body")
    for decision in judged:
        assert decision.filing is not None
        due, cites = judgment_due(decision.filing)
        if due is None or decision.decided_on <= due:
            continue
        yield WorkItemSpec(
            jurisdiction_id=decision.jurisdiction_id,
            kind=MANDATE_KIND,
            key=f"decision:{decision.pk}",
            title=(
                f"Protocolo {decision.filing.receipt} julgado em {br(decision.decided_on)}, depois do prazo "
                f"de {br(due)} ({'; '.join(cites)}): sem justificativa, os membros perdem o mandato "
                "(art. 40, II)"
            )[:300],
            due_on=today,
            url=decision.get_absolute_url(),
        )
