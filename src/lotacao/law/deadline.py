"""kind `deadline`: when a procedural deadline falls, counted as the pack's parameter says.

Each deadline is a parameter `deadline.<id>` of type mapping `{days: N, counting: C}` where C is
- `calendar_days`: the start day excluded, the last day included, moved to the next business day
  when it is not one (parameter `calendar.move_last_day`, Lei 9.784/1999, art. 66, § 1º);
- `business_days`: only business days after the start day count;
- `from_first_business_day`: the first business day after the start is day 1 (then as calendar days);
- `before`: at least N days before the date (plain arithmetic, no move);
- `after`: N days after the date (plain arithmetic, no move; e.g. service by edital).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from lotacao.law.context import Context, get_choice, pt_date
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import Pack
from lotacao.law.words import join_pt

FIELDS = frozenset({"deadline"})
COUNTINGS = ("calendar_days", "business_days", "from_first_business_day", "before", "after")
PREFIX = "deadline."


def deadlines(pack: Pack) -> list[str]:
    return sorted(n[len(PREFIX) :] for n in pack.parameters if n.startswith(PREFIX))


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    available = tuple(deadlines(pack))
    if not available:
        raise CaseError("not_applicable", f"A {pack.law} não define prazos neste motor.", "kind")
    deadline_id = get_choice(case, "deadline", available)
    assert deadline_id is not None
    name = PREFIX + deadline_id
    param = pack.parameters[name]
    entry = ctx.entry(name)
    start = ctx.date
    if entry.status != "value":
        why = entry.reason or "sem regra vigente"
        return {
            "deadline": deadline_id,
            "start": start.isoformat(),
            "due": None,
            "counting": None,
            "days": None,
            "explanation": (
                f"{param.description}: a lei não permite calcular o prazo em {pt_date(start)} — {why}"
            ),
        }
    rule: dict[str, Any] = entry.value
    days = int(rule["days"])
    counting = str(rule["counting"])
    due, moved_from, skipped = compute(ctx, start, days, counting)
    text = [f"{param.description} ({entry.cite}): {days} {_unit(counting, days)}"]
    if counting == "calendar_days":
        text.append(f"contados de {pt_date(start)}, excluído o dia do início")
    elif counting == "business_days":
        text.append(f"contados a partir do dia útil seguinte a {pt_date(start)}")
        if skipped:
            text.append(f"sem contar {skipped}")
    elif counting == "from_first_business_day":
        first = ctx.calendar.first_business_day_after(start)
        text.append(
            f"contados a partir do primeiro dia útil após {pt_date(start)}, que é {pt_date(first)} (dia 1)"
        )
    elif counting == "before":
        text.append(f"de antecedência em relação a {pt_date(start)}")
    else:
        text.append(f"após {pt_date(start)}")
    sentence = ", ".join(text)
    if counting == "before":
        sentence += f". Data-limite: {pt_date(due)}."
    else:
        sentence += f". Vence em {pt_date(due)}."
    if moved_from is not None:
        reason = ctx.calendar.reason_closed(moved_from) or "dia sem expediente"
        sentence += (
            f" O último dia, {pt_date(moved_from)}, não é dia útil ({reason}): o prazo se prorroga para o "
            f"primeiro dia útil seguinte."
        )
    return {
        "deadline": deadline_id,
        "start": start.isoformat(),
        "due": due.isoformat(),
        "counting": counting,
        "days": days,
        "explanation": sentence,
    }


def compute(ctx: Context, start: dt.date, days: int, counting: str) -> tuple[dt.date, dt.date | None, str]:
    """(due date, the unmoved last day when it was moved, the days skipped in words)."""
    if counting == "before":
        return start - dt.timedelta(days=days), None, ""
    if counting == "after":
        return start + dt.timedelta(days=days), None, ""
    cal = ctx.calendar
    if counting == "business_days":
        due = cal.add_business_days(start, days)
        skipped = []
        day = start + dt.timedelta(days=1)
        while day < due:
            why = cal.reason_closed(day)
            if why and not why.startswith(("sábado", "domingo")):
                skipped.append(f"{pt_date(day)} ({why})")
            day += dt.timedelta(days=1)
        return due, None, join_pt(skipped)
    if counting == "from_first_business_day":
        last = cal.first_business_day_after(start) + dt.timedelta(days=days - 1)
    else:
        last = start + dt.timedelta(days=days)
    if cal.is_business_day(last) or not ctx.has("calendar.move_last_day"):
        return last, None, ""
    if ctx.value("calendar.move_last_day"):  # only a last day without business reads the rule
        return cal.next_business_day(last), last, ""
    return last, None, ""


def _unit(counting: str, days: int) -> str:
    if counting == "business_days":
        return "dia útil" if days == 1 else "dias úteis"
    return "dia" if days == 1 else "dias"
