"""The penalties and measures a fired rule brings, with the amount of each fine.

A rule's penalty becomes a record — type, result item, severity (to keep the most severe of
each type), sentence, citations and undefined parameters — memoised per period in the config.
A fine is the table's value (BRL, a fiscal unit, or a multiple of the base value Vb) times the
rule's factor (plus `factor_per_repeat` per recidivism), capped at the rule's `max`.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from lotacao.law.pack_model import Infraction
from lotacao.law.penalty_config import Config
from lotacao.law.penalty_result import OFFENDER_PT, Findings
from lotacao.law.penalty_rules import FineTable, PenaltySpec, Rule
from lotacao.law.units import brl, number_pt, plain
from lotacao.law.words import plural

CENT = Decimal("0.01")

_TYPE_TEXT = {
    "warning": "advertência por escrito",
    "course": "curso obrigatório",
    "intervention": "intervenção",
}

# kind, output, severity, text, citations, missing parameters
_Record = tuple[str, dict[str, Any], tuple[Decimal, ...], str, tuple[str, ...], tuple[str, ...]]


def fire_rule(rule: Rule, group: str | None, cfg: Config, repeat: int, found: Findings) -> None:
    """A rule whose conditions hold: its penalty, its measures (and what releases them), the
    amounts it adds, the types it replaces, and the reading of the law it embodies."""
    found.cite(*rule.citations)
    if rule.penalty is not None:
        apply_penalty(rule.penalty, rule.cites, group, cfg, repeat, found)
    for m, days in rule.measures:
        found.add_measure(m, days, "; ".join(rule.cites))
        if rule.release is not None:
            found.measure_release.setdefault(m, rule.release)
    for charge in rule.charges:
        found.charges.setdefault(charge, rule.citations[0])
    found.replaced |= rule.replaces
    if rule.reading:
        found.read(rule.param, rule.reading)


def add_catalogue_measures(inf: Infraction | None, found: Findings) -> None:
    """The measures the catalogue row of the infraction gives (permit suspension with its days;
    where the row offers a choice, the agency applies one of them)."""
    if inf is not None and inf.measures:
        for m in inf.measures:
            found.add_measure(m, inf.measure_days if m == "permit_suspension" else None, inf.cite)
        if "permit_suspension" in inf.measures and inf.measure_days is None:
            found.open_days = inf.code
        if inf.measure_choice:
            found.choice = inf.measures
        found.cite(inf.citation)


def apply_penalty(
    spec: PenaltySpec, cites: tuple[str, ...], group: str | None, cfg: Config, repeat: int, found: Findings
) -> None:
    key = (id(spec), cites, group, repeat)
    rec = cfg.memo.get(key)
    if rec is None:
        rec = cfg.memo[key] = _record(spec, cites, group, cfg, repeat)
    kind, out, severity, text, citations, missing = rec
    if spec.type == "fine" and cfg.fines[spec.fine or str(group)].base_multiple is not None:
        found.uses_base = True
    for c in citations:
        found.citations[c] = None
    for m in missing:
        found.miss(m)
    found.add(kind, dict(out), severity, text)


def _record(
    spec: PenaltySpec, cites: tuple[str, ...], group: str | None, cfg: Config, repeat: int
) -> _Record:
    where = "; ".join(cites)
    kind = spec.type
    out: dict[str, Any]
    severity: tuple[Decimal, ...] = ()
    if kind == "fine":
        key = spec.fine or group
        assert key is not None
        kind, out, severity, text, citations, missing = _fine(spec, cfg.fines[key], cfg, repeat)
        return kind, out, severity, f"{text} ({where})", citations, missing
    if kind == "suspension":
        assert spec.days is not None
        out, severity, text = {"type": "suspension", "days": spec.days}, (Decimal(spec.days),), ""
        text = f"suspensão por {plural(spec.days, 'dia')}"
    elif kind == "revocation":
        out = {"type": "revocation"}
        if spec.ban_years is not None:
            out["ban_years"] = spec.ban_years
            text = f"cassação, com impedimento de {plural(spec.ban_years, 'ano')} para voltar ao serviço"
        else:
            text = "cassação (a lei não fixa prazo de impedimento)"
        severity = (Decimal(spec.ban_years or 0),)
    else:
        out, text = {"type": kind}, _TYPE_TEXT[kind]
    return kind, out, severity, f"{text} ({where})", (), ()


# --------------------------------------------------------------------------- fines


def _fine(spec: PenaltySpec, table: FineTable, cfg: Config, repeat: int) -> _Record:
    """The fine of the table, in money, fiscal units or multiples of Vb; undefined where the law is."""
    factor = spec.factor + spec.per_repeat * repeat
    charged = (
        f", a cargo do {OFFENDER_PT[spec.charged_to]} a que o infrator está vinculado"
        if spec.charged_to
        else ""
    )
    out: dict[str, Any] = {"type": "fine"}
    if spec.charged_to:
        out["charged_to"] = spec.charged_to
    if table.status != "value":
        out["amount"] = None
        text = f"multa de valor que o texto disponível não define{charged}"
        return "fine", out, (Decimal(-1), factor), text, (table.citation,), (table.param,)
    if table.by:
        charged += f", valor fixado pelo órgão gestor, {table.by}, conforme {table.citation},"
    if table.base_multiple is not None:
        return _fine_in_base_values(table, cfg, factor, out, charged)
    if table.amount is not None:
        value, text = _fine_in_money(spec, table, factor, out)
    else:
        value, text = _fine_in_units(spec, table, factor, out)
    return "fine", out, (value,), text + charged, (table.citation,), ()


def _fine_in_base_values(
    table: FineTable, cfg: Config, factor: Decimal, out: dict[str, Any], charged: str
) -> _Record:
    """N × Vb (penalty.base_fine) × the factor; undefined while Vb is."""
    assert table.base_multiple is not None
    entry = cfg.base_fine_entry
    assert entry is not None
    cites = (table.citation, entry.citation)
    if cfg.base_fine is None:
        out["amount"] = None
        text = f"multa de {number_pt(table.base_multiple)} × Vb, com o valor base (Vb) não definido"
        return "fine", out, (Decimal(-1), factor), text + charged, cites, ("penalty.base_fine",)
    value = (table.base_multiple * cfg.base_fine * factor).quantize(CENT, rounding=ROUND_HALF_UP)
    out["amount"] = str(value)
    text = f"multa de {brl(value)} ({number_pt(table.base_multiple)} × Vb de {brl(cfg.base_fine)}"
    text += f", × {number_pt(factor)})" if factor != 1 else ")"
    return "fine", out, (value,), text + charged, cites, ()


def _fine_in_money(
    spec: PenaltySpec, table: FineTable, factor: Decimal, out: dict[str, Any]
) -> tuple[Decimal, str]:
    """An amount in BRL × the factor, capped at the rule's max."""
    assert table.amount is not None
    capped = ""
    value = (table.amount * factor).quantize(CENT, rounding=ROUND_HALF_UP)
    if spec.max is not None and value > spec.max:
        value, capped = spec.max, f", limitada a {brl(spec.max)}"
    out["amount"] = str(value)
    text = f"multa de {brl(value)}"
    if factor != 1:
        text += f" ({brl(table.amount)} × {number_pt(factor)}{capped})"
    return value, text


def _fine_in_units(
    spec: PenaltySpec, table: FineTable, factor: Decimal, out: dict[str, Any]
) -> tuple[Decimal, str]:
    """A number of fiscal units (UFIR, UFM …) × the factor, capped at the rule's max."""
    assert table.units is not None and table.unit is not None
    capped = ""
    value = table.units * factor
    if spec.max is not None and value > spec.max:
        value, capped = spec.max, f", limitada a {number_pt(spec.max)} {table.unit}"
    out["units"] = plain(value)
    out["unit"] = table.unit
    text = f"multa de {number_pt(value)} {table.unit}"
    if factor != 1:
        text += f" (valor inicial de {number_pt(table.units)} {table.unit} × {number_pt(factor)}{capped})"
    return value, text
