"""Reading the permit parameters of a jurisdiction's pack (no branching on the jurisdiction's name).

`entry()` returns None when the pack does not have the parameter (the law has no such rule).
"""

from __future__ import annotations

import datetime as dt

from dateutil.relativedelta import relativedelta

from lotacao.core.formats import br_date
from lotacao.core.law import entry, pack_for, value

__all__ = ["add", "cite", "entry", "law_name", "value"]


def cite(jurisdiction_code: str, name: str, on: dt.date) -> str:
    e = entry(jurisdiction_code, name, on)
    return str(e.citation) if e is not None else pack_for(jurisdiction_code).law


def law_name(jurisdiction_code: str) -> str:
    return pack_for(jurisdiction_code).law


def add(day: dt.date, duration: dict[str, int]) -> dt.date:
    """`day` plus a pack duration ({years|months|days: N})."""
    return day + relativedelta(
        years=int(duration.get("years", 0)),
        months=int(duration.get("months", 0)),
        days=int(duration.get("days", 0)),
    )


def subtract(day: dt.date, duration: dict[str, int]) -> dt.date:
    return day - relativedelta(
        years=int(duration.get("years", 0)),
        months=int(duration.get("months", 0)),
        days=int(duration.get("days", 0)),
    )


def describe(duration: dict[str, int]) -> str:
    parts = []
    for key, one, many in (("years", "ano", "anos"), ("months", "mês", "meses"), ("days", "dia", "dias")):
        n = int(duration.get(key, 0))
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    return " e ".join(parts) or "0 dias"


def age_on(birth: dt.date, on: dt.date) -> int:
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


__all__ = ["add", "age_on", "br_date", "cite", "describe", "entry", "law_name", "subtract", "value"]
