"""The periods of a periodic report and their due dates: calendar periods of `every_months`
months (January–March, April–June… for three), due `due_days` calendar days after the period
ends (the agency's value where the law leaves it open)."""

from __future__ import annotations

import datetime as dt

from dateutil.relativedelta import relativedelta

from lotacao.duties.rules import ReportRule

MAX_PERIODS = 24  # the screens list at most two years of periods


def period_of(rule: ReportRule, day: dt.date) -> tuple[dt.date, dt.date, dt.date] | None:
    """(start, end, due) of the period containing `day`; None while the rule is not defined."""
    if not rule.defined:
        return None
    assert rule.every_months is not None and rule.due_days is not None
    index = (day.month - 1) // rule.every_months * rule.every_months
    start = dt.date(day.year, index + 1, 1)
    end = start + relativedelta(months=rule.every_months) - dt.timedelta(days=1)
    return start, end, end + dt.timedelta(days=rule.due_days)


def periods_between(
    rule: ReportRule, first_day: dt.date, today: dt.date
) -> list[tuple[dt.date, dt.date, dt.date]]:
    """The finished periods from the one containing `first_day` (never before the rule's start) to
    today's, newest first, at most MAX_PERIODS."""
    found = period_of(rule, max(first_day, rule.since))
    out: list[tuple[dt.date, dt.date, dt.date]] = []
    while found is not None and found[1] < today:
        out.append(found)
        found = period_of(rule, found[1] + dt.timedelta(days=1))
    return list(reversed(out))[:MAX_PERIODS]
