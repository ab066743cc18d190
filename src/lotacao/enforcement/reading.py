"""Small readings every enforcement wing shares: the day of a moment where the jurisdiction is
(the law counts days there), the infraction's day, why the law gives no value (for a message that
says so), and dates in Brazilian format. Nothing here writes."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from lotacao.core.law import entry

DEFAULT_ZONE = "America/Sao_Paulo"


def br(day: dt.date) -> str:
    """`31/12/2025`."""
    return f"{day:%d/%m/%Y}"


def local_day(jurisdiction: Any, moment: dt.datetime) -> dt.date:
    """The day of `moment` where the jurisdiction is (its time zone)."""
    return moment.astimezone(ZoneInfo(jurisdiction.timezone or DEFAULT_ZONE)).date()


def infraction_day(notice: Any) -> dt.date:
    """The day of the infraction where it happened: the date the pack's rules are read for."""
    return local_day(notice.jurisdiction, notice.drawn_up_at)


def silence(code: str, parameter: str, on: dt.date) -> tuple[str, str]:
    """(why the law gives no value, its citation) — for a message that says a value is missing."""
    found = entry(code, parameter, on)
    if found is None:
        return "a lei não trata do assunto", ""
    return (found.reason or "a lei não define").strip().rstrip("."), str(found.citation)


def silence_text(code: str, parameter: str, on: dt.date) -> str:
    """`a lei não define (art. 12)`: why the law gives no value, with its article, in a sentence."""
    reason, where = silence(code, parameter, on)
    return f"{reason} ({where})" if where else reason
