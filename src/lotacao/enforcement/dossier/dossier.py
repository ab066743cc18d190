"""The holder's dossier (prontuário): permits, notices, points, fines, measures, filings,
decisions, what final decisions left behind, and the deadlines still open — read only.

The steps of the due process shown here and in the letters of `dossier/pdf.py` (the instance open
after the notice's service or after a given decision, its body and deadline) are built on the
shared reading in `due_process/procedure.py`, the same one the due process files and judges by.

Queries are bounded: one per kind of row whatever the number of notices (prefetching), and the
pack is read from the process's layered-pack cache.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Prefetch

from lotacao.core.law import pack_for, value
from lotacao.enforcement.due_process.procedure import (
    STARTS,
    body_name,
    cite,
    deadline_id,
    instances,
    penalty_in_force,
    run_deadline,
    with_measures,
)
from lotacao.enforcement.models import (
    CourseRequirement,
    Decision,
    Filing,
    InfractionNotice,
    Measure,
    NoticeService,
    PointsEntry,
    RevocationProcess,
    SuspensionFollowUp,
)
from lotacao.enforcement.reading import describe_penalty, law_date
from lotacao.permits.models import Permit

CLOSED = {
    InfractionNotice.Status.DECIDED_FINAL.value,
    InfractionNotice.Status.ANNULLED.value,
    InfractionNotice.Status.ARCHIVED.value,
}


# ------------------------------------------------------------------------------ due process


@dataclass
class Step:
    """The next instance open to the offender, where to file and until when."""

    instance: str
    name: str
    body: str
    starts: str  # words: "do recebimento da notificação do auto"
    start: dt.date | None
    due: dt.date | None
    rule: str  # "30 dias corridos…"
    citations: list[str]
    explanation: str
    missing: list[str]

    def overdue(self, on: dt.date) -> bool:
        return self.due is not None and self.due < on


def step_for(
    notice: InfractionNotice,
    instance: dict[str, Any],
    penalty: dict[str, Any],
    start: dt.date | None,
    on: dt.date,
) -> Step:
    code = notice.jurisdiction_id
    citations = cite(code, instance.get("cite"))
    deadline = deadline_id(instance, penalty)
    due, rule, explanation, missing = None, "", "", []
    if instance.get("ex_officio"):
        explanation = (
            f"{instance.get('name', '')}: decisão do órgão, sem protocolo do infrator; o recurso cabe "
            "depois da comunicação dessa decisão."
        )
    elif deadline is None:
        missing = ["process.instances"]
        explanation = "O pacote não indica o prazo desta instância para a penalidade em vigor."
    else:
        # Without the start date yet (not served), the rule is read from the infraction's day.
        result = run_deadline(code, deadline, start or law_date(notice.drawn_up_at))
        rule, missing = result["rule"], result["missing"]
        citations = list(dict.fromkeys([*result["citations"], *citations]))
        if start is not None:
            due, explanation = result["due"], result["explanation"]
        else:
            explanation = f"O prazo começa a correr {STARTS.get(str(instance.get('starts')), '')}."
    return Step(
        instance=str(instance.get("id", "")),
        name=str(instance.get("name", "")),
        body=body_name(code, instance, penalty, on),
        starts=STARTS.get(str(instance.get("starts", "")), ""),
        start=start,
        due=due,
        rule=rule,
        citations=citations,
        explanation=explanation,
        missing=missing,
    )


def next_instance(code: str, after: str | None, on: dt.date) -> dict[str, Any] | None:
    """The instance after `after` (None: the first), or None when there is no other."""
    found = instances(code, on)
    if after is None:
        return found[0] if found else None
    ids = [str(i.get("id")) for i in found]
    if after not in ids:
        return None
    position = ids.index(after) + 1
    return found[position] if position < len(found) else None


def first_step(notice: InfractionNotice, served_on: dt.date | None, on: dt.date) -> Step | None:
    """The first instance (defense or appeal against the notice), from its service date."""
    instance = next_instance(notice.jurisdiction_id, None, on)
    if instance is None:
        return None
    start = served_on if instance.get("starts") == "served" else None
    return step_for(notice, instance, dict(notice.penalty or {}), start, on)


def step_after(decision: Decision, on: dt.date) -> Step | None:
    """The instance open after a decision that is not final, or None (final, or no other)."""
    if decision.final:
        return None
    notice = decision.notice
    instance = next_instance(notice.jurisdiction_id, decision.instance, on)
    if instance is None:
        return None
    start = decision.served_on if instance.get("starts") == "decision_served" else notice.served_on
    return step_for(notice, instance, dict(decision.penalty or notice.penalty or {}), start, on)


# ------------------------------------------------------------------------------------ dossier


@dataclass
class Deadline:
    notice: InfractionNotice
    label: str
    due: dt.date | None
    overdue: bool
    citations: list[str] = field(default_factory=list)
    explanation: str = ""
    missing: list[str] = field(default_factory=list)


@dataclass
class NoticeRow:
    notice: InfractionNotice
    penalty: str  # the penalty in force, in words
    points: int
    fine: Any  # Fine or None
    measures: list[Measure]
    services: list[NoticeService]
    filings: list[Filing]
    decisions: list[Decision]
    final: bool
    step: Deadline | None


@dataclass
class PointsWindow:
    label: str
    total: int
    final_total: int  # only notices decided final (what the thresholds count)
    at_least: int
    penalty: str
    citations: list[str]


@dataclass
class Dossier:
    holder: Any
    on: dt.date
    jurisdiction: Any
    permits: list[Permit]
    notices: list[NoticeRow]
    points_entries: list[PointsEntry]
    points_total: int
    points_windows: list[PointsWindow]
    fines: list[Any]
    fines_open_total: Decimal
    measures_in_force: list[Measure]
    measures_released: list[Measure]
    filings: list[Filing]
    decisions: list[Decision]
    courses: list[CourseRequirement]
    suspensions: list[SuspensionFollowUp]
    revocations: list[RevocationProcess]
    deadlines: list[Deadline]


def _window(window: Any, on: dt.date) -> tuple[str, dt.date | None]:
    """The label and the first day counted (None: unlimited) of a thresholds window."""
    from dateutil.relativedelta import relativedelta

    if isinstance(window, dict) and len(window) == 1:
        ((unit, n),) = window.items()
        words = {"days": "dias", "months": "meses", "years": "anos"}.get(str(unit), str(unit))
        n = int(n)
        delta = relativedelta(
            days=n if unit == "days" else 0,
            months=n if unit == "months" else 0,
            years=n if unit == "years" else 0,
        )
        return f"Últimos {n} {words}", on - delta + dt.timedelta(days=1)
    return "Todo o prontuário (sem limite de tempo)", None


def _notice_step(
    notice: InfractionNotice, decisions: list[Decision], filings: list[Filing], on: dt.date
) -> Deadline | None:
    """The next thing the offender may do against a notice not yet final, with its deadline."""
    if notice.status in CLOSED or any(d.final for d in decisions):
        return None
    code = notice.jurisdiction_id
    last = max(decisions, key=lambda d: (d.decided_on, d.pk or 0)) if decisions else None
    instance = next_instance(code, last.instance if last else None, on)
    if instance is None:
        return Deadline(notice, "Aguardando o registro da decisão definitiva", None, False)
    judged = {d.filing_id for d in decisions}
    pending = [
        f
        for f in filings
        if f.instance == instance.get("id")
        and f.pk not in judged
        and f.status in (Filing.Status.PENDING, Filing.Status.DILIGENCE)
    ]
    if pending:
        filing = pending[-1]
        return Deadline(
            notice,
            f"{filing.instance_name}: protocolo {filing.receipt} aguardando julgamento",
            None,
            False,
            citations=list(filing.citations),
        )
    applied = [m.kind for m in notice.measures.all() if m.status != Measure.Status.CONVERTED]
    penalty = with_measures(penalty_in_force(notice, decisions), applied)
    if instance.get("starts") == "decision_served":
        start = last.served_on if last else None
    else:
        start = notice.served_on
    step = step_for(notice, instance, penalty, start, on)
    where = f" ({step.body})" if step.body else ""
    return Deadline(
        notice,
        f"{step.name}{where}",
        step.due,
        step.overdue(on),
        citations=step.citations,
        explanation=step.explanation,
        missing=step.missing,
    )


@dataclass
class _Gathered:
    """The rows of the holder's notices, and what they lead to."""

    rows: list[NoticeRow] = field(default_factory=list)
    fines: list[Any] = field(default_factory=list)
    measures: list[Measure] = field(default_factory=list)
    filings: list[Filing] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    deadlines: list[Deadline] = field(default_factory=list)


def _holder_notices(holder: Any) -> list[InfractionNotice]:
    """The holder's notices with everything the dossier shows, in a fixed number of queries."""
    return list(
        InfractionNotice.objects.filter(holder=holder)
        .select_related("fine", "vehicle", "line", "permit", "jurisdiction")
        .prefetch_related(
            "services",
            "measures",
            Prefetch("filings", queryset=Filing.objects.select_related("body")),
            Prefetch("decisions", queryset=Decision.objects.select_related("body")),
        )
        .order_by("-drawn_up_at", "-id")
    )


def _gather(notices: list[InfractionNotice], points_by_notice: dict[int, int], on: dt.date) -> _Gathered:
    """Per notice: the penalty in force, points, fine, measures, filings, decisions and the next
    deadline (the open instance's, and the fine's due date)."""
    out = _Gathered()
    for notice in notices:
        n_decisions = sorted(notice.decisions.all(), key=lambda d: (d.decided_on, d.pk))
        n_filings = list(notice.filings.all())
        fine = getattr(notice, "fine", None) if _has_fine(notice) else None
        step = _notice_step(notice, n_decisions, n_filings, on)
        out.rows.append(
            NoticeRow(
                notice=notice,
                penalty=describe_penalty(penalty_in_force(notice, n_decisions)),
                points=points_by_notice.get(notice.pk, 0),
                fine=fine,
                measures=list(notice.measures.all()),
                services=list(notice.services.all()),
                filings=n_filings,
                decisions=n_decisions,
                final=notice.status == InfractionNotice.Status.DECIDED_FINAL
                or any(d.final for d in n_decisions),
                step=step,
            )
        )
        if step is not None:
            out.deadlines.append(step)
        if fine is not None:
            out.fines.append(fine)
            if fine.status == fine.Status.OPEN and fine.due_on is not None:
                out.deadlines.append(
                    Deadline(
                        notice,
                        "Vencimento da multa",
                        fine.due_on,
                        fine.due_on < on,
                        citations=list(fine.due_citations),
                        explanation=fine.due_explanation,
                    )
                )
        out.measures += list(notice.measures.all())
        out.filings += n_filings
        out.decisions += n_decisions
    return out


def _points_windows(
    code: str, entries: list[PointsEntry], status_of: dict[int, str], on: dt.date
) -> list[PointsWindow]:
    """The points per window of `penalty.points_thresholds`: all, and final decisions only."""
    windows: list[PointsWindow] = []
    pack = pack_for(code)
    thresholds = value(code, "penalty.points_thresholds", on) or []
    for threshold in thresholds if isinstance(thresholds, list) else []:
        label, first = _window(threshold.get("window"), on)
        inside = [e for e in entries if (first is None or e.on >= first) and e.on <= on]
        windows.append(
            PointsWindow(
                label=label,
                total=sum(e.points for e in inside),
                final_total=sum(
                    e.points
                    for e in inside
                    if status_of.get(e.notice_id) == InfractionNotice.Status.DECIDED_FINAL
                ),
                at_least=int(threshold.get("at_least", 0)),
                penalty=describe_penalty({"penalties": [threshold.get("penalty") or {}]}),
                citations=[f"{pack.law}, {c}" for c in _as_list(threshold.get("cite"))],
            )
        )
    return windows


def holder_dossier(holder: Any, on: dt.date) -> Dossier:
    """Everything the agency holds against a permit holder, as of `on` (read through the active
    scope: staff of the jurisdiction, or the holder themself)."""
    permits = list(Permit.objects.filter(holder=holder).select_related("line", "vehicle").order_by("-id"))
    notices = _holder_notices(holder)
    entries = list(PointsEntry.objects.filter(holder=holder).order_by("-on", "-id"))
    points_by_notice: dict[int, int] = {}
    for entry in entries:
        points_by_notice[entry.notice_id] = points_by_notice.get(entry.notice_id, 0) + entry.points
    got = _gather(notices, points_by_notice, on)
    got.deadlines.sort(key=lambda d: (d.due is None, d.due or dt.date.max))
    open_fines = [f for f in got.fines if f.status == f.Status.OPEN and f.amount is not None]
    return Dossier(
        holder=holder,
        on=on,
        jurisdiction=holder.jurisdiction,
        permits=permits,
        notices=got.rows,
        points_entries=entries,
        points_total=sum(e.points for e in entries),
        points_windows=_points_windows(
            holder.jurisdiction_id, entries, {n.pk: n.status for n in notices}, on
        ),
        fines=got.fines,
        fines_open_total=sum((f.amount for f in open_fines), Decimal("0")),
        measures_in_force=[m for m in got.measures if m.status == Measure.Status.IN_FORCE],
        measures_released=[m for m in got.measures if m.status == Measure.Status.RELEASED],
        filings=got.filings,
        decisions=got.decisions,
        courses=list(CourseRequirement.objects.filter(holder=holder).order_by("-required_on")),
        suspensions=list(
            SuspensionFollowUp.objects.filter(permit__holder=holder)
            .select_related("permit")
            .order_by("-starts_on")
        ),
        revocations=list(
            RevocationProcess.objects.filter(permit__holder=holder)
            .select_related("permit")
            .order_by("-opened_on")
        ),
        deadlines=got.deadlines,
    )


def _has_fine(notice: InfractionNotice) -> bool:
    try:
        return notice.fine is not None
    except ObjectDoesNotExist:
        return False


def _as_list(raw: Any) -> list[str]:
    if isinstance(raw, list):
        return [str(c) for c in raw]
    return [str(raw)] if raw else []
