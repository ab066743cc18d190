"""Statistics of manifestations — by month, kind, line and operator — and the yearly management
report (Lei federal 13.460/2017, art. 14, II, with the contents of art. 15: the number received,
their reasons, the recurring points and the measures taken; art. 15, p.ú., II: published in full
on the internet). Nothing here holds personal data: counts only; an operator who is a natural
person is never named (the rows of natural persons are counted together).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from lotacao.ombudsman.models import Complaint, Kind

MONTHS = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
PEOPLE = "Permissionários pessoas físicas (não nomeados)"
NO_SUBJECT = "Sem veículo ou linha identificados"


@dataclass
class Facts:
    protocol: str
    kind: str
    status: str
    month: str  # "2026-03"
    received_on: dt.date
    answered_on: dt.date | None
    due_on: dt.date
    extended: bool
    line: str
    operator: str
    measures: str


@dataclass
class YearStats:
    jurisdiction: Any
    year: int
    total: int = 0
    by_month: dict[int, Counter[str]] = field(default_factory=dict)
    by_kind: Counter[str] = field(default_factory=Counter)
    by_line: Counter[str] = field(default_factory=Counter)
    by_operator: Counter[str] = field(default_factory=Counter)
    answered: int = 0
    on_time: int = 0
    extended: int = 0
    open: int = 0
    overdue: int = 0
    mean_days: float | None = None
    measures: list[tuple[str, str, str]] = field(default_factory=list)  # (protocol, kind, measures)


def _rows(code: str, start: dt.datetime | None = None, end: dt.datetime | None = None) -> list[Facts]:
    qs = Complaint.unscoped.filter(jurisdiction_id=code).select_related("line", "holder__company")
    if start is not None:
        qs = qs.filter(received_at__gte=start)
    if end is not None:
        qs = qs.filter(received_at__lt=end)
    found = []
    for c in qs.order_by("received_at"):
        received = timezone.localtime(c.received_at).date()
        if c.holder is None:
            operator = NO_SUBJECT
        elif c.holder.company_id is not None:
            operator = str(c.holder.company)
        else:
            operator = PEOPLE
        found.append(
            Facts(
                protocol=c.protocol,
                kind=c.kind,
                status=c.status,
                month=f"{received:%Y-%m}",
                received_on=received,
                answered_on=timezone.localtime(c.answered_at).date() if c.answered_at else None,
                due_on=c.due_on,
                extended=c.extended_on is not None,
                line=f"{c.line.code} — {c.line.name}" if c.line is not None else NO_SUBJECT,
                operator=operator,
                measures=c.measures,
            )
        )
    return found


def _bounds(year: int) -> tuple[dt.datetime, dt.datetime]:
    zone = timezone.get_current_timezone()
    return (
        dt.datetime(year, 1, 1, tzinfo=zone),
        dt.datetime(year + 1, 1, 1, tzinfo=zone),
    )


def year_stats(jurisdiction: Any, year: int, today: dt.date | None = None) -> YearStats:
    day = today or timezone.localdate()
    start, end = _bounds(year)
    stats = YearStats(jurisdiction=jurisdiction, year=year)
    waits: list[int] = []
    for f in _rows(jurisdiction.code, start, end):
        stats.total += 1
        stats.by_month.setdefault(f.received_on.month, Counter())[f.kind] += 1
        stats.by_kind[f.kind] += 1
        stats.by_line[f.line] += 1
        stats.by_operator[f.operator] += 1
        if f.extended:
            stats.extended += 1
        if f.answered_on is not None:
            stats.answered += 1
            waits.append((f.answered_on - f.received_on).days)
            if f.answered_on <= f.due_on:
                stats.on_time += 1
            if f.measures:
                stats.measures.append((f.protocol, Kind(f.kind).label, f.measures))
        else:
            stats.open += 1
            if f.due_on < day:
                stats.overdue += 1
    if waits:
        stats.mean_days = sum(waits) / len(waits)
    return stats


def years(jurisdiction: Any) -> list[int]:
    first = Complaint.unscoped.filter(jurisdiction=jurisdiction).order_by("received_at").first()
    this = timezone.localdate().year
    start = timezone.localtime(first.received_at).year if first else this
    return list(range(this, start - 1, -1))


def month_label(month: int, year: int) -> str:
    return f"{MONTHS[month - 1]}/{year}"


HEADER = [
    "mês",
    "tipo",
    "recebidas",
    "respondidas",
    "respondidas no prazo",
    "prazo prorrogado",
    "em aberto",
    "em aberto com prazo vencido",
]


def monthly_rows(jurisdiction_code: str, today: dt.date | None = None) -> tuple[list[str], list[list[Any]]]:
    """The monthly statistics of manifestations for the open data catalogue: one row per month
    and kind (month as AAAA-MM, kind as its Portuguese name), counts only — no protocol, no text,
    no identity, no plate."""
    day = today or timezone.localdate()
    table: dict[tuple[str, str], list[int]] = {}
    for f in _rows(jurisdiction_code):
        counts = table.setdefault((f.month, f.kind), [0, 0, 0, 0, 0, 0])
        counts[0] += 1
        if f.answered_on is not None:
            counts[1] += 1
            if f.answered_on <= f.due_on:
                counts[2] += 1
        else:
            counts[4] += 1
            if f.due_on < day:
                counts[5] += 1
        if f.extended:
            counts[3] += 1
    order = {k: i for i, k in enumerate(Kind.values)}
    rows = [
        [month, Kind(kind).label, *counts]
        for (month, kind), counts in sorted(table.items(), key=lambda item: (item[0][0], order[item[0][1]]))
    ]
    return list(HEADER), rows
