"""The answer of the `penalty` kind as it is assembled: what was found, and the words to say it.

:class:`Findings` collects, step by step, the penalties (the most severe of each type), the
measures, the citations, the undefined parameters and interpretations relied on, and the
sentences of the explanation; :func:`state_result` turns them into the result of the contract.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from lotacao.law.context import Context
from lotacao.law.penalty_config import Config

OFFENDER_PT = {
    "permit_holder": "permissionário",
    "auxiliary_driver": "condutor auxiliar",
    "relief_driver": "condutor eventual",
    "fare_collector": "cobrador",
    "company": "empresa operadora",
    "unlicensed": "transportador sem autorização",
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
SCOPE_PT = {"same_group": "do mesmo grupo", "same_code": "da mesma infração (mesmo código)"}
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


class Findings:
    """Penalties being collected: the most severe of each type; types replaced by a fired rule."""

    def __init__(self) -> None:
        self.penalties: dict[str, tuple[dict[str, Any], tuple[Decimal, ...], str]] = {}
        self.replaced: set[str] = set()
        self.measures: dict[str, int | None] = {}
        self.measure_cites: dict[str, str] = {}
        self.citations: dict[str, None] = {}  # an ordered set
        self.missing: list[str] = []
        self.interpretations: list[str] = []
        self.counts: list[int] = []  # earlier infractions counted by each rule that fired on them
        self.lines: list[str] = []  # the sentences of the explanation, in order

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
            if name in cfg.interpretations and name not in self.interpretations:
                self.interpretations.append(name)

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
    found: Findings, ctx: Context, group: str | None, repeat: int | None, points: dict[str, Any] | None
) -> dict[str, Any]:
    """The result: the penalties not replaced (in the law's order of severity), the measures, the
    group, the recidivism count and points, with the explanation that closes on them."""
    chosen = [(kind, item) for kind, item in found.penalties.items() if kind not in found.replaced]
    chosen.sort(key=lambda ki: TYPE_ORDER[ki[0]])
    penalties = [item[0] for _, item in chosen]
    if chosen:
        found.say("Penalidades: " + "; ".join(item[2] for _, item in chosen) + ".")
    else:
        found.say("Nenhuma penalidade decorre desta infração pelo texto da lei.")
    measures: list[dict[str, Any]] = []
    texts = []
    for m, days in found.measures.items():
        item: dict[str, Any] = {"type": m}
        label = MEASURE_PT[m]
        if days is not None:
            item["days"] = days
            label += f" por {days} dias"
        measures.append(item)
        texts.append(f"{label} ({found.measure_cites[m]})")
    if texts:
        found.say("Medidas administrativas cabíveis: " + "; ".join(texts) + ".")
    for name in found.interpretations:
        if name not in ctx.interpretations:
            ctx.interpretations.append(name)
    out: dict[str, Any] = {
        "penalties": penalties,
        "measures": measures,
        "group": group,
        "repeat": repeat,
    }
    if points is not None:
        out["points"] = points
    out["citations"] = list(found.citations)
    out["explanation"] = " ".join(found.lines)
    out["missing_parameters"] = found.missing
    return out
