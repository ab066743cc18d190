"""The shapes of the engine's answers (docs/contract/README.md), for the code that reads them.

The engine builds plain dicts (their key order is part of the JSON it prints); these TypedDicts
describe them so that the Django side reads `result["penalties"]` with types, not `Any`.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class CaseErrorBody(TypedDict):
    code: str
    message: str
    field: str


class Interpretation(TypedDict):
    parameter: str
    text: str


class Penalty(TypedDict):
    type: str  # warning, fine, suspension, revocation, course, intervention
    amount: NotRequired[str]
    units: NotRequired[str]
    unit: NotRequired[str]
    days: NotRequired[int | None]
    ban_years: NotRequired[int]
    charged_to: NotRequired[str]


class Measure(TypedDict):
    type: str
    days: NotRequired[int | None]
    choice: NotRequired[str]


class Points(TypedDict):
    added: int | None
    totals: dict[str, int | None]


class ReleaseCondition(TypedDict):
    id: str
    label: str
    citation: str


class Escalation(TypedDict):
    to: str
    when: str
    citation: str


class Charge(TypedDict):
    type: str
    citation: str


class BaseFine(TypedDict):
    amount: str
    since: str
    act: str


class PenaltyResult(TypedDict):
    jurisdiction: str
    kind: str
    penalties: list[Penalty]
    measures: list[Measure]
    group: str | None
    repeat: int
    citations: list[str]
    explanation: str
    missing_parameters: list[str]
    interpretations: list[Interpretation]
    points: NotRequired[Points]
    release_conditions: NotRequired[dict[str, list[ReleaseCondition]]]
    measure_escalations: NotRequired[dict[str, Escalation]]
    charges: NotRequired[list[Charge]]
    base_fine: NotRequired[BaseFine]


class DeadlineResult(TypedDict):
    jurisdiction: str
    kind: str
    deadline: str
    start: str
    due: str | None
    counting: str
    days: int | None
    citations: list[str]
    explanation: str
    missing_parameters: list[str]
    interpretations: list[Interpretation]
