"""Demo rosters and duty logs: where the law has the roster procedure (Recife, Cabo), the first
line's representative (a holder of the line, elected for the law's term) and its roster approved
for the live permits of the line; where the law fixes hours (Recife, Esteio), the portal holder's
duty logs of the last days, one of them above the limit. Idempotent (a jurisdiction with rosters
or duty logs is left as it is)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.accounts.models import HolderAccount
from lotacao.core.models import Jurisdiction
from lotacao.permits.models import Permit
from lotacao.registry.models import Line, LineRepresentative
from lotacao.rosters import rules, services
from lotacao.rosters.models import DutyLog, Roster

LOGS = (
    (1, [{"start": "06:00", "end": "10:00"}, {"start": "11:00", "end": "15:00"}]),
    (2, [{"start": "05:00", "end": "10:30"}, {"start": "11:00", "end": "16:30"}]),
)


def load(today: dt.date, summary: Any) -> None:
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        code = jurisdiction.code
        if (
            Roster.unscoped.filter(jurisdiction=jurisdiction).exists()
            or DutyLog.unscoped.filter(jurisdiction=jurisdiction).exists()
        ):
            summary.existing += 1
            continue
        made = False
        try:
            if rules.submitters(code, today)[0]:
                made = _roster(jurisdiction, today)
            if rules.has_workday_limits(code):
                made = _logs(jurisdiction, today) or made
        except ValidationError:
            continue  # the demo's register does not fit (no live permit on a line): nothing to show
        if made:
            summary.created += 1


def _roster(jurisdiction: Jurisdiction, today: dt.date) -> bool:
    permits = [
        p
        for p in Permit.unscoped.filter(jurisdiction=jurisdiction, status__in=Permit.LIVE, line__isnull=False)
        .select_related("holder__person", "vehicle", "line")
        .order_by("line__code", "pk")
        if p.vehicle is not None and p.holder.person is not None and p.effective_status(today) in Permit.LIVE
    ]
    if not permits:
        return False
    line: Line = permits[0].line  # type: ignore[assignment]
    on_line = [p for p in permits if p.line_id == line.pk]
    positions = rules.submitters(jurisdiction.code, today)[0]
    representative = LineRepresentative.unscoped.create(
        jurisdiction=jurisdiction,
        line=line,
        person=on_line[0].holder.person,  # type: ignore[misc]
        position=positions[0],
        term_start=today - dt.timedelta(days=60),
        term_end=today + dt.timedelta(days=300),
    )
    start = today - dt.timedelta(days=30)
    entries = [
        services.EntryData(
            p.vehicle,
            p.holder.person,
            "123456",
            dt.time(6),
            dt.time(12) if i % 2 else dt.time(14),
            "06:00, 07:00, 08:00, 09:00",
        )
        for i, p in enumerate(on_line)
        if p.vehicle is not None and p.holder.person is not None
    ]
    roster = services.create_roster(
        actor=None, line=line, starts_on=start, ends_on=None, entries=entries, notes="Escala de demonstração"
    )
    services.submit_roster(actor=None, roster=roster, representative=representative, on=start)
    services.decide_roster(
        actor=None, roster=roster, approve=True, reasons="Atende à ordem de serviço da linha", on=start
    )
    return True


def _logs(jurisdiction: Jurisdiction, today: dt.date) -> bool:
    account = (
        HolderAccount.objects.select_related("holder__person")
        .filter(holder__jurisdiction=jurisdiction)
        .first()
    )
    if account is None or account.holder.person is None:
        return False
    permit = next(
        (
            p
            for p in Permit.unscoped.filter(holder=account.holder, status__in=Permit.LIVE).select_related(
                "vehicle"
            )
            if p.vehicle is not None and p.effective_status(today) in Permit.LIVE
        ),
        None,
    )
    if permit is None or permit.vehicle is None:
        return False
    for days_ago, periods in LOGS:
        services.record_duty_log(
            actor=None,
            vehicle=permit.vehicle,
            driver=account.holder.person,
            day=today - dt.timedelta(days=days_ago),
            periods=periods,
        )
    return True
