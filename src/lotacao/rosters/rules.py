"""What each law says of rosters and working days, read from its pack through `lotacao.core.law`
(never by the jurisdiction's name):

- `rosters.submitters`: the line positions through which a roster reaches the agency (Recife
  art. 6º, § 3º: the representative; Cabo art. 20: the coordinator and the auxiliaries of
  art. 19); a law without it has no roster procedure;
- `workday.*`: the limits of a driver's day, checked by the engine (`kind: workday`); a law
  without them fixes no hours (Cabo, Pernambuco).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core.formats import lower_first
from lotacao.core.law import entry, evaluate_case, pack_for
from lotacao.law.errors import CaseError
from lotacao.registry.models import POSITION_LABELS

SUBMITTERS = "rosters.submitters"


def law_name(code: str) -> str:
    return str(pack_for(code).law)


def submitters(code: str, on: dt.date) -> tuple[list[str], str]:
    """(positions allowed to submit, citation) on `on`; ([], "") where the law has no rosters."""
    found = entry(code, SUBMITTERS, on)
    if found is None or found.status != "value":
        return [], ""
    return [str(p) for p in found.value], str(found.citation)


def submitters_words(positions: list[str]) -> str:
    labels = [lower_first(POSITION_LABELS.get(p, p)) for p in positions]
    return " ou ".join(labels)


def has_workday_limits(code: str) -> bool:
    return any(name.startswith("workday.") for name in pack_for(code).parameters)


def no_limits_text(code: str) -> str:
    return f"A {law_name(code)} não fixa limites para a jornada dos condutores."


def check_workday(
    code: str,
    day: dt.date,
    role: str,
    periods: list[dict[str, str]],
    *,
    days_in_week: int | None = None,
    holder_drove: bool | None = None,
) -> dict[str, Any]:
    """The engine's verdict on one driver's day. A law without limits answers `within_limits`
    None with the sentence that says so; a malformed day raises LawError (a ValidationError)."""
    if not has_workday_limits(code):
        return {
            "within_limits": None,
            "driving_minutes": _driving(periods),
            "violations": [],
            "infractions": [],
            "citations": [],
            "explanation": no_limits_text(code),
        }
    case: dict[str, Any] = {
        "jurisdiction": code,
        "kind": "workday",
        "date": day.isoformat(),
        "driver": role,
        "periods": periods,
    }
    if days_in_week is not None:
        case["days_driven_in_week"] = days_in_week
    if holder_drove is not None:
        case["holder_drove"] = holder_drove
    result = evaluate_case(case)
    error = result.get("error")
    if isinstance(error, dict):
        from lotacao.core.law import LawError

        raise LawError(CaseError(str(error.get("code")), str(error.get("message")), str(error.get("field"))))
    return result


def _driving(periods: list[dict[str, str]]) -> int:
    total = 0
    for p in periods:
        try:
            sh, sm = (int(x) for x in p["start"].split(":"))
            eh, em = (int(x) for x in p["end"].split(":"))
        except (KeyError, ValueError, AttributeError):
            continue
        total += max(0, eh * 60 + em - sh * 60 - sm)
    return total
