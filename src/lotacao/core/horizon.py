"""The bounds every input number and date must fall in, the same on the API and on the screens.

- An integer the databases cannot hold (beyond 64 bits: SQLite's INTEGER and PostgreSQL's bigint)
  is refused before any query runs (it raised `OverflowError` on SQLite and a `DataError` on
  PostgreSQL).
- A date is between 01/01/1900 and `LOTACAO_DATE_YEARS_AHEAD` years after today (default 50): a
  notice dated 31/12/9999, an inspection performed in 0292, are typing mistakes, and dates that
  far away break date arithmetic (`date.max + 1 day`) further on. The domain's own rules (a
  notice is not drawn up in the future, a date is not before the law) come after this one.

`check_day(value)` raises a Portuguese `ValidationError`; the forms run it on every `DateField` and
`DateTimeField` (lotacao.core.apps), the API on every date of every operation (lotacao.api.bounds).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
EARLIEST = dt.date(1900, 1, 1)
DEFAULT_YEARS_AHEAD = 50


def latest() -> dt.date:
    """The last date accepted: 31/12 of the year `LOTACAO_DATE_YEARS_AHEAD` years from now."""
    years = int(getattr(settings, "LOTACAO_DATE_YEARS_AHEAD", DEFAULT_YEARS_AHEAD))
    return dt.date(min(timezone.localdate().year + years, dt.MAXYEAR), 12, 31)


def horizon_message() -> str:
    return f"deve ser uma data entre {EARLIEST:%d/%m/%Y} e {latest():%d/%m/%Y}"


def within_horizon(value: dt.date | dt.datetime | None) -> bool:
    if value is None:
        return True
    day = value.date() if isinstance(value, dt.datetime) else value
    return EARLIEST <= day <= latest()


def check_day(value: dt.date | dt.datetime | None) -> None:
    """A Django validator: refuses a date (or a moment) outside the horizon, in Portuguese."""
    if not within_horizon(value):
        raise ValidationError(
            "Data fora do intervalo aceito: informe uma data entre "
            f"{EARLIEST:%d/%m/%Y} e {latest():%d/%m/%Y}.",
            code="date_horizon",
        )
