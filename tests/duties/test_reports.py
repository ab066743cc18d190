"""Periodic reports: due dates from the law or the agency's value, late ones flagged to staff with
the infraction the law suggests, deliveries checked."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.duties import selectors, services
from lotacao.duties.models import PeriodicReport
from tests import clock
from tests.duties.conftest import set_value

TODAY = dt.date(2026, 3, 15)


def _start(holder: Any, day: dt.date) -> None:
    holder.__class__.unscoped.filter(pk=holder.pk).update(
        created_at=dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC)
    )
    holder.refresh_from_db()
    from lotacao.permits.models import Permit

    Permit.unscoped.filter(holder=holder).update(granted_on=day)


def test_recife_reports_wait_for_the_agency_then_run_monthly(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    _start(holder, dt.date(2025, 11, 20))
    assert selectors.report_periods(holder, TODAY) == []
    pending = selectors.pending_rules("recife", TODAY)
    assert [r.id for r in pending] == ["operational_data"]
    assert "art. 13, XXVI" in pending[0].citation
    set_value("recife", "report.operational_data", {"every_months": 1, "due_days": 10})
    periods = selectors.report_periods(holder, TODAY)
    assert [(p.start, p.due) for p in periods] == [
        (dt.date(2026, 2, 1), dt.date(2026, 3, 10)),
        (dt.date(2026, 1, 1), dt.date(2026, 2, 10)),
        (dt.date(2025, 12, 1), dt.date(2026, 1, 10)),
        (dt.date(2025, 11, 1), dt.date(2025, 12, 10)),
    ]
    assert all(p.overdue for p in periods)
    late = [i for i in selectors.work_items(TODAY, 30) if i.kind == services.LATE_REPORT_KIND]
    assert len(late) == 4 and "Grupo 2, a" in late[0].title
    services.deliver_report(
        actor=None,
        holder=holder,
        report="operational_data",
        period_start=dt.date(2026, 2, 1),
        notes="Passageiros: 4.120; quilômetros: 3.300.",
        delivered_at=dt.datetime(2026, 3, 9, 12, tzinfo=dt.UTC),
    )
    row = PeriodicReport.objects.get()
    assert row.late is False and row.due_on == dt.date(2026, 3, 10)
    late = [i for i in selectors.work_items(TODAY, 30) if i.kind == services.LATE_REPORT_KIND]
    assert len(late) == 3
    duties = selectors.holder_duties(holder, TODAY)
    assert len([d for d in duties if d["what"].startswith("Entregar")]) == 3


def test_esteio_monthly_statements_and_a_late_delivery(world: Any) -> None:
    holder = world.objects["esteio"]["registry.holder"]
    _start(holder, dt.date(2026, 1, 5))
    ids = [r.id for r in selectors.pending_rules("esteio", TODAY)]
    assert ids == ["operational_data", "statements_annual", "statements_monthly", "statements_semiannual"]
    set_value("esteio", "report.statements_monthly", {"every_months": 1, "due_days": 10})
    services.deliver_report(
        actor=None,
        holder=holder,
        report="statements_monthly",
        period_start=dt.date(2026, 1, 1),
        notes="Demonstrativo de janeiro.",
        delivered_at=dt.datetime(2026, 2, 20, 12, tzinfo=dt.UTC),
    )
    row = PeriodicReport.objects.get()
    assert row.late is True and row.citation.endswith("art. 24, III")
    late = [i for i in selectors.work_items(TODAY, 30) if i.kind == services.LATE_REPORT_KIND]
    assert [i.key.split(":")[-1] for i in late] == ["2026-02-01"]
    assert "III-26" in late[0].title


def test_marica_tachograph_discs_quarterly(world: Any, marica: dict[str, Any]) -> None:
    holder = marica["holder"]
    _start(holder, dt.date(2025, 8, 1))
    set_value("marica", "report.tachograph_discs", {"every_months": 3, "due_days": 5})
    periods = selectors.report_periods(holder, TODAY)
    assert [(p.start, p.end, p.due) for p in periods] == [
        (dt.date(2025, 10, 1), dt.date(2025, 12, 31), dt.date(2026, 1, 5)),
        (dt.date(2025, 7, 1), dt.date(2025, 9, 30), dt.date(2025, 10, 5)),
    ]
    late = [i for i in selectors.work_items(TODAY, 30) if i.kind == services.LATE_REPORT_KIND]
    assert len(late) == 2 and "infração sugerida" not in late[0].title


def test_delivery_refusals(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    _start(holder, dt.date(2025, 11, 20))
    with pytest.raises(ValidationError, match="ainda não informou"):
        services.deliver_report(
            actor=None, holder=holder, report="operational_data", period_start=dt.date(2026, 1, 1), notes="x"
        )
    with pytest.raises(ValidationError, match="não exige"):
        services.deliver_report(
            actor=None, holder=holder, report="tachograph_discs", period_start=dt.date(2026, 1, 1), notes="x"
        )
    set_value("recife", "report.operational_data", {"every_months": 1, "due_days": 10})
    with pytest.raises(ValidationError, match="períodos"):
        services.deliver_report(
            actor=None, holder=holder, report="operational_data", period_start=dt.date(2026, 1, 2), notes="x"
        )
    with pytest.raises(ValidationError, match="arquivo"):
        services.deliver_report(
            actor=None, holder=holder, report="operational_data", period_start=dt.date(2026, 1, 1)
        )
    future = clock.today().replace(day=1)
    with pytest.raises(ValidationError, match="ainda não terminou"):
        services.deliver_report(
            actor=None, holder=holder, report="operational_data", period_start=future, notes="x"
        )
    services.deliver_report(
        actor=None, holder=holder, report="operational_data", period_start=dt.date(2026, 1, 1), notes="x"
    )
    with pytest.raises(ValidationError, match="já foi entregue"):
        services.deliver_report(
            actor=None, holder=holder, report="operational_data", period_start=dt.date(2026, 1, 1), notes="y"
        )
    assert PeriodicReport.objects.count() == 1
