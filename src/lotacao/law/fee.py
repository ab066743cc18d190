"""kind `fee`: the fees a law charges, as dated pack parameters `fee.<id>`.

A fee parameter is a mapping: `{amount: "10.00"}` (fixed, BRL), `{amount: "40.45", per: vehicles}`
(per unit of a case input), `{rate: "4", of: demand_revenue}` (percent of a case input), and an
optional `unit` (a fiscal unit: the result is then {units, unit}). Optional companions:
`fee.due_day.<id>` (day of the month the fee falls due), `fee.exempt_modalities.<id>` and
`fee.correction` (how the law corrects its nominal values).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from lotacao.law.context import Context, get_choice, get_decimal, get_int, pt_date
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import Pack
from lotacao.law.units import FISCAL_UNITS, brl, dec, fiscal, money, number_pt
from lotacao.law.words import lower_first, modality_pt, plural

FIELDS = frozenset({"fee", "demand_revenue", "months", "vehicles", "seats", "modality"})
PER_INPUTS = {"vehicles": ("veículo", "veículos"), "months": ("mês", "meses"), "seats": ("lugar", "lugares")}
RATE_INPUTS = {"demand_revenue": "receita da demanda informada"}


def fees(pack: Pack) -> list[str]:
    return sorted(
        n[4:] for n in pack.parameters if n.startswith("fee.") and n.count(".") == 1 and n != "fee.correction"
    )


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    available = tuple(fees(pack))
    if not available:
        raise CaseError("not_applicable", f"A {pack.law} não define taxas neste motor.", "kind")
    fee_id = get_choice(case, "fee", available)
    assert fee_id is not None
    name = f"fee.{fee_id}"
    param = pack.parameters[name]
    entry = ctx.entry(name)
    result: dict[str, Any] = {"fee": fee_id}
    if entry.status != "value":
        result["amount"] = None
        why = entry.reason or "a taxa não está em vigor nesta data"
        result["explanation"] = (
            f"{param.description} ({entry.cite}): sem valor em {pt_date(ctx.date)} — {lower_first(why)}."
        )
        return result
    rule: Mapping[str, Any] = entry.value
    unit = rule.get("unit")
    if ctx.has("fee.correction"):
        ctx.entry("fee.correction")

    exempt = _exempt(ctx, fee_id, case)
    if exempt:
        total = Decimal(0)
        text = f"{param.description} ({entry.cite}): não é devida — {exempt}."
    elif "rate" in rule:
        source = str(rule["of"])
        base = get_decimal(case, source)
        assert base is not None
        rate = dec(rule["rate"])
        total = base * rate / 100
        text = (
            f"{param.description} ({entry.cite}): {number_pt(rate)}% sobre {brl(base)} "
            f"({RATE_INPUTS.get(source, source)}) = {brl(total)}."
        )
    else:
        amount = dec(rule["amount"])
        per = rule.get("per")
        if per is not None:
            count = get_int(case, str(per), minimum=0)
            assert count is not None
            total = amount * count
            each = f"{number_pt(amount)} {unit}" if unit else brl(amount)
            whole = f"{number_pt(total)} {unit}" if unit else brl(total)
            one, many = PER_INPUTS.get(str(per), (str(per), str(per)))
            text = f"{param.description} ({entry.cite}): {plural(count, one, many)} × {each} = {whole}."
        else:
            total = amount
            shown = f"{number_pt(total)} {unit}" if unit else brl(total)
            text = f"{param.description} ({entry.cite}): {shown}."
    if unit in FISCAL_UNITS:
        result.update(fiscal(total, str(unit)))
    else:
        result["amount"] = money(total)

    due_name = f"fee.due_day.{fee_id}"
    if ctx.has(due_name) and not exempt:
        due_entry = ctx.entry(due_name)
        if due_entry.status == "value":
            due = ctx.date.replace(day=int(due_entry.value))
            result["due"] = due.isoformat()
            text += f" Vencimento no dia {due_entry.value} do mês: {pt_date(due)} ({due_entry.cite})."
        else:
            result["due"] = None
    result["explanation"] = text
    return result


def _exempt(ctx: Context, fee_id: str, case: Mapping[str, Any]) -> str | None:
    name = f"fee.exempt_modalities.{fee_id}"
    if not ctx.has(name):
        return None
    modality = case.get("modality")
    if modality is None:
        return None
    entry = ctx.entry(name, cite=False)
    if entry.status == "value" and modality in entry.value:
        ctx.add_citation(entry.citation)
        return f"o {modality_pt(str(modality))} é isento ({entry.cite})"
    return None


def due_in_month(day: dt.date, due_day: int) -> dt.date:
    return day.replace(day=due_day)
