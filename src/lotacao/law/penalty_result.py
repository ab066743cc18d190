"""The answer of the `penalty` kind as it is assembled: what was found, and the words to say it.

:class:`Findings` collects, step by step, the penalties (the most severe of each type), the
measures, the amounts owed besides them, the citations, the undefined parameters and the
readings of the law relied on, and the sentences of the explanation; :func:`state_result` turns
them into the result of the contract, with what releases each measure (`measure.release`) and
what a measure turns into (`measure.escalation`) where the pack says.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from lotacao.law.context import Context
from lotacao.law.penalty_config import Config
from lotacao.law.penalty_rules import Release
from lotacao.law.units import brl, money, number_pt, plain
from lotacao.law.words import join_pt, lower_first, plural

OFFENDER_PT = {
    "permit_holder": "permissionário",
    "auxiliary_driver": "condutor auxiliar",
    "relief_driver": "condutor eventual",
    "fare_collector": "cobrador",
    "company": "empresa operadora",
    "unlicensed": "transportador sem autorização",
}
# "cometida pelo permissionário"
OFFENDER_BY = {
    "permit_holder": "pelo permissionário",
    "auxiliary_driver": "pelo condutor auxiliar",
    "relief_driver": "pelo condutor eventual",
    "fare_collector": "pelo cobrador",
    "company": "pela empresa operadora",
    "unlicensed": "por transportador sem autorização",
}
MEASURE_PT = {
    "vehicle_retention": "retenção do veículo",
    "vehicle_removal": "afastamento do veículo",
    "vehicle_seizure": "remoção e apreensão do veículo",
    "document_seizure": "recolhimento dos documentos obrigatórios",
    "staff_removal": "afastamento do pessoal de operação",
    "permit_suspension": "suspensão da permissão",
    "credit_offset": "desconto do valor devido de créditos do infrator",
}
# "a retenção do veículo", "o recolhimento dos documentos…"
MEASURE_THE = {
    m: ("o " if m in ("document_seizure", "staff_removal", "vehicle_removal", "credit_offset") else "a ") + t
    for m, t in MEASURE_PT.items()
}
CHARGE_PT = {
    "removal_and_storage_costs": "ressarcir as despesas de remoção e estadia do veículo",
    "fine_equal_to_costs": "pagar, por ser reincidente, multa de valor igual ao dessas despesas",
}
SCOPE_PT = {"same_group": "do mesmo grupo", "same_code": "da mesma infração"}
TYPE_PT = {
    "warning": "advertência",
    "fine": "multa",
    "suspension": "suspensão",
    "revocation": "cassação",
    "course": "curso obrigatório",
    "intervention": "intervenção",
}
TYPE_ORDER = {"warning": 0, "fine": 1, "suspension": 2, "revocation": 3, "course": 4, "intervention": 5}


def pt_date(day: dt.date) -> str:
    """16/06/2025 (faster than strftime, which dominates batch explanations)."""
    return f"{day.day:02d}/{day.month:02d}/{day.year}"


def earlier_pt(n: int) -> str:
    """`1 infração anterior definitiva`, `2 infrações anteriores definitivas`."""
    return plural(n, "infração anterior definitiva", "infrações anteriores definitivas")


class Findings:
    """Penalties being collected: the most severe of each type; types replaced by a fired rule."""

    def __init__(self) -> None:
        self.penalties: dict[str, tuple[dict[str, Any], tuple[Decimal, ...], str]] = {}
        self.replaced: set[str] = set()
        self.measures: dict[str, int | None] = {}
        self.measure_cites: dict[str, str] = {}
        self.measure_release: dict[str, tuple[Release, ...]] = {}  # a rule's own release conditions
        self.choice: tuple[str, ...] = ()  # measures of which the agency applies one (catalogue row)
        self.open_days: str | None = None  # the code whose suspension days the law does not give
        self.charges: dict[str, str] = {}  # charge -> the citation of the rule that brought it
        self.citations: dict[str, None] = {}  # an ordered set
        self.missing: list[str] = []
        self.interpretations: list[tuple[str, str]] = []  # (parameter, sentence)
        self.counts: list[int] = []  # earlier infractions counted by each rule that fired on them
        self.lines: list[str] = []  # the sentences of the explanation, in order
        self.uses_base = False  # a fine was computed from the base value (Vb)
        self.release_conditions: dict[str, list[dict[str, str]]] = {}
        self.escalations: dict[str, dict[str, str]] = {}

    def say(self, sentence: str) -> None:
        self.lines.append(sentence)

    def cite(self, *citations: str) -> None:
        for c in citations:
            self.citations[c] = None

    def miss(self, name: str) -> None:
        if name not in self.missing:
            self.missing.append(name)

    def interpret(self, cfg: Config, *names: str) -> None:
        """Rely on the interpretation of each parameter named (those that carry one)."""
        for name in names:
            text = cfg.interpretations.get(name)
            if text is not None:
                self.read(name, text)

    def read(self, name: str, text: str) -> None:
        """Rely on a reading of the law (a sentence) that parameter `name` holds."""
        if all(t != text for _, t in self.interpretations):
            self.interpretations.append((name, text))

    def add(self, kind: str, out: dict[str, Any], severity: tuple[Decimal, ...], text: str) -> None:
        current = self.penalties.get(kind)
        if current is None or severity > current[1]:
            self.penalties[kind] = (out, severity, text)

    def add_measure(self, measure: str, days: int | None, cite: str) -> None:
        """A measure (the longest, where days are given), cited by the first rule that brought it."""
        if measure not in self.measures or (days or 0) > (self.measures[measure] or 0):
            self.measures[measure] = days
        self.measure_cites.setdefault(measure, cite)


def state_result(
    found: Findings,
    ctx: Context,
    group: str | None,
    repeat: int | None,
    points: dict[str, Any] | None,
    cfg: Config | None = None,
) -> dict[str, Any]:
    """The result: the penalties not replaced (in the law's order of severity), the measures and
    what releases them, the group, the recidivism count and points, with the explanation that
    closes on them."""
    chosen = [(kind, item) for kind, item in found.penalties.items() if kind not in found.replaced]
    chosen.sort(key=lambda ki: TYPE_ORDER[ki[0]])
    penalties = [item[0] for _, item in chosen]
    if chosen:
        found.say("Penalidades: " + "; ".join(item[2] for _, item in chosen) + ".")
    else:
        found.say("Nenhuma penalidade decorre desta infração pelo texto da lei.")
    out: dict[str, Any] = {"penalties": penalties}
    base = base_value(cfg, found, ctx) if cfg is not None else None
    if base is not None:
        out["base_fine"] = base
    out["measures"] = _measures(found, ctx)
    if found.release_conditions:
        out["release_conditions"] = found.release_conditions
    if found.escalations:
        out["measure_escalations"] = found.escalations
    out["group"] = group
    out["repeat"] = repeat
    if points is not None:
        out["points"] = points
    if found.charges:
        out["charges"] = [{"type": c, "citation": cite} for c, cite in found.charges.items()]
        found.say(
            "Além disso, o infrator deve "
            + join_pt(f"{CHARGE_PT[c]} ({_short(ctx, cite)})" for c, cite in found.charges.items())
            + "."
        )
    for name, text in found.interpretations:
        ctx.interpret(name, text)
    out["citations"] = list(found.citations)
    out["explanation"] = " ".join(found.lines)
    out["missing_parameters"] = found.missing
    return out


def base_value(cfg: Config, found: Findings, ctx: Context) -> dict[str, Any] | None:
    """The base value (Vb) a fine used: the amount, since when, by which act; said in words."""
    entry = cfg.base_fine_entry
    if not found.uses_base or entry is None or cfg.base_fine is None or cfg.base_fine_original is None:
        return None
    original = cfg.base_fine_original
    origin = (
        f"fixado pelo órgão gestor, {entry.by}, conforme {entry.citation}"
        if entry.by
        else f"o valor fixado pela lei em {entry.start.year} ({_short(ctx, entry.citation)})"
    )
    item: dict[str, Any] = {
        "amount": money(cfg.base_fine),
        "since": entry.start.isoformat(),
        "act": entry.citation,
    }
    readj = cfg.readjustment_entry
    if cfg.readjustments:
        last = cfg.readjustments[-1]
        item["since"], item["act"] = last.start.isoformat(), last.citation
        item["readjustments"] = [
            {"from": r.start.isoformat(), "percent": plain(r.percent), "act": r.citation}
            for r in cfg.readjustments
        ]
        steps = join_pt(
            f"{number_pt(r.percent)}% a partir de {pt_date(r.start)}, conforme {r.citation}"
            for r in cfg.readjustments
        )
        found.cite(*(r.citation for r in cfg.readjustments))
        if readj is not None:
            found.cite(readj.citation)
            found.interpret(cfg, "penalty.base_fine_readjustment")
        found.say(
            f"Valor base (Vb) de {brl(cfg.base_fine)}: {brl(original)}, {origin}, corrigido em {steps}."
        )
    elif readj is not None:
        found.cite(readj.citation)
        found.say(
            f"Valor base (Vb) de {brl(original)}, {origin}, sem correção: o órgão não registrou "
            f"reajuste até {pt_date(ctx.date)}, e cada reajuste corrige o Vb a partir da sua data "
            f"({_short(ctx, readj.citation)})."
        )
    elif entry.by:
        found.say(f"Valor base (Vb) de {brl(original)}, {origin}.")
    return item


def _short(ctx: Context, citation: str) -> str:
    """A citation of the pack's law without the law's name ("art. 36, III")."""
    prefix = f"{ctx.pack.law}, "
    return citation[len(prefix) :] if citation.startswith(prefix) else citation


def _measures(found: Findings, ctx: Context) -> list[dict[str, Any]]:
    """The measures as the contract lists them, and in words: each with what releases it."""
    measures: list[dict[str, Any]] = []
    texts = []
    for m, days in found.measures.items():
        item: dict[str, Any] = {"type": m}
        label = MEASURE_PT[m]
        if m == "permit_suspension" and days is None and found.open_days is not None:
            days = _open_suspension_days(found, ctx, found.open_days)
            item["days"] = days
            label += f" por {plural(days, 'dia')}" if days is not None else ", por prazo que a lei não fixa"
        elif days is not None:
            item["days"] = days
            label += f" por {plural(days, 'dia')}"
        if m in found.choice:
            item["choice"] = list(found.choice)
        measures.append(item)
        texts.append((m, f"{label} ({found.measure_cites[m]})"))
    if not texts:
        return measures
    alone = [t for m, t in texts if m not in found.choice]
    either = [t for m, t in texts if m in found.choice]
    if alone:
        found.say("Medidas administrativas cabíveis: " + "; ".join(alone) + ".")
    if either:
        found.say("O órgão aplica uma só destas medidas, à sua escolha: " + join_pt(either, "ou") + ".")
    _release(found, ctx, [i["type"] for i in measures])
    return measures


def _open_suspension_days(found: Findings, ctx: Context, code: str) -> int | None:
    """The days of a suspension the catalogue row leaves open: the agency's (measure.suspension_days)."""
    name = "measure.suspension_days"
    if not ctx.has(name):
        return None
    entry = ctx.pack.resolve(name, ctx.date)
    if entry.status == "value" and isinstance(entry.value, dict) and code in entry.value:
        found.cite(entry.citation)
        return int(entry.value[code])
    found.cite(entry.citation)
    found.miss(name)
    return None


def _cited_conditions(items: list[tuple[str, str, str]]) -> str:
    """"a (art. 54); b (art. 54); c (art. 55)" → "a e b (art. 54); c (art. 55)": conditions of one
    provision cited once (issue 24: no provision twice in one sentence)."""
    groups: dict[str, list[str]] = {}
    for _, label, cite in items:
        groups.setdefault(cite, []).append(lower_first(label))
    return "; ".join(join_pt(labels) + (f" ({cite})" if cite else "") for cite, labels in groups.items())


def _release(found: Findings, ctx: Context, kinds: list[str]) -> None:
    """What releases each measure (measure.release, or the rule's own conditions) and what it turns
    into (measure.escalation): in the result and in words."""
    conditions: dict[str, list[dict[str, str]]] = {}
    table: dict[str, Any] = {}
    if ctx.has("measure.release"):
        entry = ctx.pack.resolve("measure.release", ctx.date)
        if entry.status == "value" and isinstance(entry.value, dict):
            table = entry.value
    for m in kinds:
        rows = found.measure_release.get(m)
        items = (
            [(r.id, r.label, r.cite) for r in rows]
            if rows is not None
            else [(str(r["id"]), str(r["label"]), str(r.get("cite", ""))) for r in table.get(m) or []]
        )
        if not items:
            continue
        conditions[m] = [{"id": i, "label": label, "citation": ctx.pack.cite(c)} for i, label, c in items]
        for _, _, c in items:
            found.cite(ctx.pack.cite(c))
        found.say(f"Para liberar {MEASURE_THE[m]}: " + _cited_conditions(items) + ".")
    if conditions:
        found.release_conditions = conditions
    escalations: dict[str, dict[str, str]] = {}
    if ctx.has("measure.escalation"):
        entry = ctx.pack.resolve("measure.escalation", ctx.date)
        if entry.status == "value" and isinstance(entry.value, dict):
            for m in kinds:
                rule = entry.value.get(m)
                if not isinstance(rule, dict):
                    continue
                to, when, cite = str(rule["to"]), str(rule["when"]), str(rule["cite"])
                escalations[m] = {"to": to, "when": when, "citation": ctx.pack.cite(cite)}
                found.cite(ctx.pack.cite(cite))
                found.say(f"Se {when}, {MEASURE_THE[m]} passa a {MEASURE_PT[to]} ({cite}).")
    if escalations:
        found.escalations = escalations
