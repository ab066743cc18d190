"""The shapes of the engine's answers (../shared/contracts/README.md), for the code that reads them.

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
    days: NotRequired[int]
    ban_years: NotRequired[int]


class Measure(TypedDict):
    type: str
    days: NotRequired[int]


class Points(TypedDict):
    added: int
    totals: dict[str, int]


class PenaltyResult(TypedDict):
    penalties: list[Penalty]
    measures: list[Measure]
    group: str | None
    repeat: int
    citations: list[str]
    explanation: str
    missing_parameters: list[str]
    points: NotRequired[Points]
    interpretations: NotRequired[list[Interpretation]]
    error: NotRequired[CaseErrorBody]


class DeadlineResult(TypedDict):
    due: str | None
    counting: str
    days: int | None
    citations: list[str]
    explanation: str
    missing_parameters: list[str]
    interpretations: NotRequired[list[Interpretation]]
    error: NotRequired[CaseErrorBody]
