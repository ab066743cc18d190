"""The reading of the due process that every enforcement module shares: the pack's instances of
defense and appeal (in order), the body and engine deadline each names — directly, or by the
most severe penalty in force (`body_by_penalty`, `deadline_by_penalty`) or measure applied
(`body_by_measure`, `deadline_by_measure`: Maricá arts. 70–71) —, the event that opens
it (`starts`: `served` = the notice's service; `decision_served` = the service of the previous
instance's decision), the engine's deadline from a start date, whether an instance is decided by
its body without a filing (`ex_officio`: Cabo's Council applies the penalty) and whether a filing
at an instance suspends the effects of the decision before it (`suspensive`: Recife's appeal to
the CRA does not, art. 43, parágrafo único). (Days, dates and the law's
silences: `lotacao.enforcement.reading`.)

Law values only through `lotacao.core.law`; nothing here writes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core.law import evaluate_case, pack_for, value

# Most severe first: the type that picks an instance's deadline or body by penalty.
SEVERITY = (
    "revocation",
    "crc_revocation",
    "crc_cancellation",
    "intervention",
    "suspension",
    "crc_suspension",
    "course",
    "fine",
    "warning",
)
# The same order with the measures a law treats as penalties (Maricá art. 48: warning, fine,
# retention, seizure, suspension, revocation), for `body_by_measure` / `deadline_by_measure`.
ROUTE_ORDER = (
    "revocation",
    "crc_revocation",
    "crc_cancellation",
    "intervention",
    "suspension",
    "crc_suspension",
    "permit_suspension",
    "vehicle_seizure",
    "vehicle_removal",
    "vehicle_retention",
    "document_seizure",
    "staff_removal",
    "course",
    "fine",
    "warning",
)
COUNTING = {
    "calendar_days": "dias corridos",
    "business_days": "dias úteis",
    "from_first_business_day": "dias corridos, contados a partir do primeiro dia útil",
}
STARTS = {
    "served": "do recebimento da notificação do auto",
    "decision_served": "do recebimento da comunicação da decisão",
}


def instances(code: str, on: dt.date) -> list[dict[str, Any]]:
    """The pack's instances of defense and appeal in force on `on` (empty when the law gives none)."""
    found = value(code, "process.instances", on)
    return [dict(i) for i in found] if isinstance(found, list) else []


def short_cites(item: dict[str, Any]) -> list[str]:
    """An instance's or body's own citations, as the pack writes them ("art. 41")."""
    raw = item.get("cite") or []
    return [str(raw)] if isinstance(raw, str) else [str(c) for c in raw]


def cite(code: str, short: Any) -> list[str]:
    """Short citations of a pack value ("art. 41") with the law's name in front."""
    law = pack_for(code).law
    items = short if isinstance(short, list) else [short] if short else []
    return [f"{law}, {c}" for c in items]


def penalty_in_force(notice: Any, decisions: list[Any]) -> dict[str, Any]:
    """The last decision's penalty when it set one (a not-known decision carries the penalty that
    stands), else the notice's."""
    for decision in sorted(decisions, key=lambda d: (d.decided_on, d.pk or 0), reverse=True):
        if decision.penalty:
            return dict(decision.penalty)
    return dict(notice.penalty or {})


def with_measures(penalty: dict[str, Any], kinds: list[str]) -> dict[str, Any]:
    """The penalty in force with the measures actually applied on the notice (what an appeal
    against a measure is about: Maricá arts. 70–71), instead of those the engine listed."""
    return {**penalty, "measures": [{"type": kind} for kind in kinds]}


def by_penalty(mapping: dict[str, Any], penalty: dict[str, Any]) -> Any:
    """The entry of `mapping` for the most severe penalty (or measure) type of `penalty` it lists."""
    types = {str(p.get("type", "")) for p in penalty.get("penalties", []) or []}
    types |= {str(m.get("type", "")) for m in penalty.get("measures", []) or [] if isinstance(m, dict)}
    for kind in ROUTE_ORDER:
        if kind in types and kind in mapping:
            return mapping[kind]
    return None


def _by(instance: dict[str, Any], what: str, penalty: dict[str, Any]) -> Any:
    """An instance's body or deadline: fixed, or by the most severe penalty or measure in force
    (`<what>_by_penalty`, `<what>_by_measure`)."""
    mapping = {**(instance.get(f"{what}_by_penalty") or {}), **(instance.get(f"{what}_by_measure") or {})}
    return instance.get(what) or by_penalty(mapping, penalty)


def body_key(instance: dict[str, Any], penalty: dict[str, Any]) -> str | None:
    found = _by(instance, "body", penalty)
    return str(found) if found else None


def body_rules(code: str, key: str | None, on: dt.date) -> dict[str, Any]:
    """What the law fixes of a body (composition, quorum, voting…); {} when it names none."""
    for body in value(code, "process.bodies", on) or []:
        if isinstance(body, dict) and body.get("key") == key:
            return dict(body)
    return {}


def body_name(code: str, instance: dict[str, Any], penalty: dict[str, Any], on: dt.date) -> str:
    key = body_key(instance, penalty)
    if not key:
        return ""
    return str(body_rules(code, key, on).get("name", key))


def deadline_id(instance: dict[str, Any], penalty: dict[str, Any]) -> str | None:
    found = _by(instance, "deadline", penalty)
    return str(found) if found else None


def run_deadline(code: str, deadline: str, start: dt.date) -> dict[str, Any]:
    """The engine's deadline from `start`: {"due", "citations", "explanation", "missing", "rule"}
    (`due` None and the engine's message as explanation when it cannot compute)."""
    result = evaluate_case(
        {"jurisdiction": code, "kind": "deadline", "deadline": deadline, "date": start.isoformat()}
    )
    if "error" in result or not result.get("due"):
        message = result.get("error", {}).get("message", "") if isinstance(result.get("error"), dict) else ""
        return {
            "due": None,
            "citations": list(result.get("citations", [])),
            "explanation": str(message or result.get("explanation", "")),
            "missing": list(result.get("missing_parameters", [])),
            "rule": "",
        }
    days, counting = result.get("days"), COUNTING.get(str(result.get("counting", "")), "dias")
    return {
        "due": dt.date.fromisoformat(str(result["due"])),
        "citations": list(result.get("citations", [])),
        "explanation": str(result.get("explanation", "")),
        "missing": list(result.get("missing_parameters", [])),
        "rule": f"{days} {counting}" if days is not None else "",
    }


def next_instance(code: str, instance_id: str, on: dt.date) -> dict[str, Any] | None:
    """The instance after `instance_id` in the pack's chain (None: it is the last, or unknown)."""
    steps = instances(code, on)
    ids = [str(s.get("id")) for s in steps]
    if instance_id not in ids or ids.index(instance_id) + 1 >= len(steps):
        return None
    return steps[ids.index(instance_id) + 1]


def effects_on_service(code: str, instance_id: str, on: dt.date) -> dict[str, Any] | None:
    """The next instance when a filing there does not suspend the decision of `instance_id`
    (`suspensive: false`): that decision's effects on the permit start when it is served.
    None where they wait for finality (the key absent, or true)."""
    following = next_instance(code, instance_id, on)
    if following is None or following.get("suspensive") is not False:
        return None
    return following


def judgment_due(filing: Any) -> tuple[dt.date | None, list[str]]:
    """The day by which the body must judge a filing, where the law gives one (Recife art. 42: the
    CDTC has up to 30 days from receiving the defense): (due, citations); (None, []) otherwise."""
    from lotacao.enforcement.reading import local_day

    code = filing.jurisdiction_id
    received = local_day(filing.notice.jurisdiction, filing.filed_at)
    instance = next((i for i in instances(code, received) if i.get("id") == filing.instance), None)
    deadline = str((instance or {}).get("judgment") or "")
    if not deadline:
        return None, []
    result = run_deadline(code, deadline, received)
    return result["due"], list(result["citations"])
