"""What the law says about a vehicle, read from the packs and the rules engine (no jurisdiction names).

- `entry(code, name, on)`: lotacao.core.law's — the dated entry (value, undefined or repealed), or
  None where this law has no such rule; a repealed rule counts as absent wherever it is read here;
- `assess(...)`: the engine's `vehicle` kind (admission, stay, replacement, inspection);
- `age_limit(vehicle, on)`: the first day the vehicle is over its age limit (`vehicle.max_age`),
  and `replacement_deadline(...)`: the engine's `vehicle_replacement` deadline from that day;
- `clearance(...)`: the billing app's clearance check (quitação).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from lotacao.billing import selectors as billing_selectors
from lotacao.core.formats import br_date
from lotacao.core.law import entry, evaluate_case, pack_for, value
from lotacao.core.providers import providers
from lotacao.law.packs import Entry

__all__ = ["entry", "value"]  # re-exported: value is None when absent, undefined or repealed


def vehicle_case(vehicle: Any, insurance: dict[str, str] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "category": vehicle.category,
        "manufacture_year": int(vehicle.manufacture_year),
        "seats": int(vehicle.seats),
        "doors": int(vehicle.doors),
    }
    if insurance is not None:
        data["insurance"] = insurance
    return data


def vehicle_modalities(vehicle: Any, on: dt.date) -> list[str]:
    """The modalities the vehicle serves in, where the law has them (Pernambuco's chartering: the
    company's, asked through the seam `vehicle_modalities`); [] elsewhere."""
    for _name, provider in providers("vehicle_modalities"):
        found = provider(vehicle=vehicle, on=on)
        if found:
            return list(found)
    return []


def assess(
    code: str,
    action: str,
    on: dt.date,
    vehicle: Any,
    *,
    replaced: Any = None,
    insurance: dict[str, str] | None = None,
    modalities: list[str] | None = None,
) -> dict[str, Any]:
    """The engine's answer for a vehicle (objects with category, manufacture_year, seats, doors).
    With `modalities`, the vehicle is judged for each and passes if it is admissible in one of them
    (Lei 16.205/2017, art. 3º, § 3º: the 7-seat car only in tourism); the refusals of all are kept."""
    if modalities:
        answers = [
            _assess(code, action, on, vehicle, replaced=replaced, insurance=insurance, modality=m)
            for m in modalities
        ]
        passed = next((a for a in answers if a.get("eligible") is not False), None)
        if passed is not None:
            return passed
        merged = dict(answers[0])
        merged["violations"] = [v for a in answers for v in a["violations"]]
        merged["citations"] = list(dict.fromkeys(c for a in answers for c in a.get("citations", [])))
        return merged
    return _assess(code, action, on, vehicle, replaced=replaced, insurance=insurance)


def _assess(
    code: str,
    action: str,
    on: dt.date,
    vehicle: Any,
    *,
    replaced: Any = None,
    insurance: dict[str, str] | None = None,
    modality: str = "",
) -> dict[str, Any]:
    case: dict[str, Any] = {
        "jurisdiction": code,
        "kind": "vehicle",
        "action": action,
        "date": on.isoformat(),
        "vehicle": vehicle_case(vehicle, insurance),
    }
    if replaced is not None:
        case["replaced"] = vehicle_case(replaced)
    if modality:
        case["modality"] = modality
    result = evaluate_case(case)
    if "error" in result:
        return {
            "eligible": False,
            "violations": [{"rule": "case", "message": result["error"]["message"], "citation": ""}],
            "citations": [],
            "explanation": result["error"]["message"],
            "missing_parameters": [],
        }
    return result


def violations_text(result: dict[str, Any]) -> list[str]:
    return [
        f"{v['message']} ({v['citation']})" if v.get("citation") else v["message"]
        for v in result["violations"]
    ]


@dataclass(frozen=True)
class AgeLimit:
    limit_years: int | None
    reached_on: dt.date | None  # the first day the vehicle is over its limit
    citation: str
    replacement_due: dt.date | None = None
    replacement_citation: str = ""


def max_age_years(code: str, category: str, on: dt.date) -> tuple[int | None, str]:
    found = entry(code, "vehicle.max_age", on)
    if found is None or found.status == "repealed":
        return None, ""  # no limit of stay in force
    if found.status != "value":
        return None, found.citation
    limit = found.value.get(category, found.value.get("any"))
    return (int(limit) if limit is not None else None), found.citation


def age_limit(vehicle: Any, on: dt.date) -> AgeLimit:
    """Age on a date = its year - the manufacture year; "up to N years" holds while age <= N."""
    code = vehicle.jurisdiction_id
    years, cite = max_age_years(code, vehicle.category, on)
    if years is None:
        return AgeLimit(None, None, cite)
    reached = dt.date(int(vehicle.manufacture_year) + years + 1, 1, 1)
    due, due_cite = replacement_deadline(code, reached)
    return AgeLimit(years, reached, cite, due, due_cite)


def replacement_deadline(code: str, reached: dt.date) -> tuple[dt.date | None, str]:
    if not pack_for(code).has("deadline.vehicle_replacement"):
        return None, ""
    result = evaluate_case(
        {
            "jurisdiction": code,
            "kind": "deadline",
            "deadline": "vehicle_replacement",
            "date": reached.isoformat(),
        }
    )
    if "error" in result or not result.get("due"):
        return None, ""
    return dt.date.fromisoformat(result["due"]), "; ".join(result["citations"])


@dataclass(frozen=True)
class Clearance:
    cleared: bool
    message: str = ""


def clearance(holder: Any, on: dt.date, procedure: str) -> Clearance:
    """Ask the billing app whether unpaid fines or fees block `procedure` (quitação).

    Without a holder (a vehicle not yet tied to one) there is no debt to look for. An error in
    billing propagates: it never reads as "cleared".
    """
    if holder is None:
        return Clearance(True)
    result = billing_selectors.clearance(holder=holder, on=on, procedure=procedure)
    return _as_clearance(result)


def _as_clearance(result: Any) -> Clearance:
    """billing.selectors.Clearance: `clear`, `reasons` (Portuguese, citing the article)."""
    if bool(getattr(result, "clear", result)):
        return Clearance(True)
    reasons = [str(r) for r in getattr(result, "reasons", []) or []]
    return Clearance(False, " ".join(reasons) or "Há débitos pendentes que impedem este procedimento.")


def seal_rule(code: str, on: dt.date) -> tuple[dict[str, Any] | None, Entry | None]:
    found = entry(code, "inspection.seal", on)
    if found is None or found.status == "repealed":
        return None, None
    if found.status != "value":
        return None, found
    return dict(found.value), found


def description(code: str, name: str) -> str:
    return pack_for(code).parameters[name].description


def cite(code: str, text: str) -> str:
    return pack_for(code).cite(text)


def pt(day: dt.date | None) -> str:
    return br_date(day) if day else "—"


def after_accident_citation(code: str, on: dt.date) -> str:
    """The article that keeps a vehicle in an accident out of operation until it passes an
    inspection (`duties.incidents`, key `inspection`: Maricá art. 40, IX), or "" where the law
    has none."""
    found = entry(code, "duties.incidents", on)
    if found is None or found.status != "value" or not isinstance(found.value, dict):
        return ""
    article = found.value.get("inspection")
    return pack_for(code).cite(str(article)) if article else ""


@dataclass(frozen=True)
class ProvisionalRule:
    older_than_years: int
    term_months: int
    citation: str


def provisional_rule(code: str, on: dt.date) -> ProvisionalRule | None:
    """The provisional authorization of an over-age vehicle (`vehicle.provisional_over_age`), or
    None where the law has none."""
    found = entry(code, "vehicle.provisional_over_age", on)
    if found is None or found.status != "value":
        return None
    return ProvisionalRule(
        int(found.value["older_than_years"]), int(found.value["term_months"]), found.citation
    )
