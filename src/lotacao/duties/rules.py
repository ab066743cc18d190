"""What each law says of the operator duties, read from its pack through `lotacao.core.law`
(never by the jurisdiction's name):

- `duties.incidents`: the reports the law requires ({accident, incident} → citation) and, under
  `inspection`, the inspection the vehicle needs before operating again (Maricá art. 40, IX;
  Esteio Anexo II, III-11);
  `deadline.accident_report`: their deadline, counted by the engine;
- `duties.authorizations`: the prior authorizations the law has ({kind → citation});
- `report.<id>`: each periodic report, `{every_months, due_days}` (mostly the agency's values:
  the laws leave the period and the deadline to the agency);
- `duties.incident_infractions`, `duties.report_infractions`: the infractions a late report
  suggests to staff.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from lotacao.core.law import entry, evaluate_deadline, pack_for

INCIDENTS = "duties.incidents"
AUTHORIZATIONS = "duties.authorizations"
INCIDENT_DEADLINE = "accident_report"
INCIDENT_INFRACTIONS = "duties.incident_infractions"
REPORT_INFRACTIONS = "duties.report_infractions"
REPORT_PREFIX = "report."


def cited(code: str, cite: str) -> str:
    """A citation as the engine prints it: the law's name, then the provision."""
    if cite.startswith(("Lei", "Decreto")):
        return cite
    return f"{pack_for(code).law}, {cite}"


def law_name(code: str) -> str:
    return str(pack_for(code).law)


def incident_rule(code: str, on: dt.date) -> dict[str, str] | None:
    """{kind → provision} of the reports the law requires on `on` (None: the law has none)."""
    found = entry(code, INCIDENTS, on)
    if found is None or found.status != "value":
        return None
    return dict(found.value)


def incident_deadline(code: str, occurred_on: dt.date) -> dict[str, Any]:
    """The engine's deadline for reporting a fact of `occurred_on` ({"due": None} where the law
    gives none and the agency has not supplied it)."""
    if entry(code, "deadline." + INCIDENT_DEADLINE, occurred_on) is None:
        return {"due": None, "explanation": "A lei não fixa prazo para esta comunicação.", "citations": []}
    result = evaluate_deadline(
        {
            "jurisdiction": code,
            "kind": "deadline",
            "deadline": INCIDENT_DEADLINE,
            "date": occurred_on.isoformat(),
        }
    )
    return dict(result)


def authorization_kinds(code: str, on: dt.date) -> dict[str, str]:
    """{kind → citation} of the prior authorizations the law has on `on` ({} where none)."""
    found = entry(code, AUTHORIZATIONS, on)
    if found is None or found.status != "value":
        return {}
    return {kind: cited(code, cite) for kind, cite in dict(found.value).items()}


def suggested_infractions(code: str, parameter: str, on: dt.date) -> list[dict[str, str]]:
    """The catalogue entries a late report suggests ([{code, description, citation}])."""
    found = entry(code, parameter, on)
    if found is None or found.status != "value":
        return []
    pack = pack_for(code)
    out = []
    for item in found.value:
        infraction = pack.infractions.get(item)
        if infraction is not None:
            out.append({"code": item, "description": infraction.description, "citation": infraction.citation})
    return out


@dataclass(frozen=True)
class ReportRule:
    """One periodic report of the law: its period and deadline when known (the law's or the
    agency's value), else why not (`reason`)."""

    id: str
    description: str
    citation: str
    every_months: int | None
    due_days: int | None
    reason: str
    since: dt.date
    act: str = ""  # the agency's act that supplied the period and deadline, where it did

    @property
    def defined(self) -> bool:
        return self.every_months is not None and self.due_days is not None


def report_rules(code: str, on: dt.date) -> list[ReportRule]:
    pack = pack_for(code)
    rules = []
    for name in sorted(pack.parameters):
        if not name.startswith(REPORT_PREFIX):
            continue
        found = entry(code, name, on)
        if found is None or found.status == "repealed":
            continue
        every = due = None
        if found.status == "value":
            every, due = int(found.value["every_months"]), int(found.value["due_days"])
        law_entry = next((e for e in pack.parameters[name].entries if e.by is None), found)
        rules.append(
            ReportRule(
                id=name[len(REPORT_PREFIX) :],
                description=pack.parameters[name].description,
                citation=str(law_entry.citation),
                act=str(found.cite) if found.by is not None else "",
                every_months=every if every and every > 0 else None,
                due_days=due if due is not None and due >= 0 else None,
                reason=found.reason or "",
                since=found.start,
            )
        )
    return rules


def report_rule(code: str, report: str, on: dt.date) -> ReportRule | None:
    return next((r for r in report_rules(code, on) if r.id == report), None)
