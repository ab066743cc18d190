"""Properties of the `penalty` kind over every pack, and its input validation.

- adding a final infraction to a history never makes the result milder (severity order below);
- pending or annulled entries never change a result (only the explanation mentions them);
- the result does not depend on the order of the history.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lotacao.law.evaluate import evaluate_case
from lotacao.law.packs import get_pack

PROFILES: dict[str, dict[str, Any]] = {
    "recife": {"offenders": ["permit_holder", "auxiliary_driver", "relief_driver", "fare_collector"]},
    "esteio": {"offenders": ["permit_holder", "company"]},
    "marica": {"offenders": ["permit_holder", "auxiliary_driver"]},
    "pernambuco": {"offenders": ["company"]},
    "cabo": {"offenders": ["permit_holder", "auxiliary_driver", "fare_collector"]},
}
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _codes(pack_id: str) -> list[tuple[str, str | None]]:
    """(code, group to give) for the pack: catalogue codes; group given where the law leaves it open."""
    pack = get_pack(pack_id)
    if not pack.infractions:
        return [(f"reg-{i}", g) for i, g in enumerate(pack.groups)]
    out = []
    for code, inf in pack.infractions.items():
        out.append((code, inf.group))
    return out


@st.composite
def entries(draw: Any, pack_id: str, day: dt.date, status: Any = None) -> dict[str, Any]:
    pack = get_pack(pack_id)
    code, group = draw(st.sampled_from(_codes(pack_id)))
    if group is None:
        group = draw(st.sampled_from(sorted(pack.groups)))
    back = draw(st.integers(min_value=0, max_value=800))
    item = {
        "date": (day - dt.timedelta(days=back)).isoformat(),
        "code": code,
        "status": draw(status if status is not None else st.sampled_from(["final", "pending", "annulled"])),
    }
    if pack.infractions.get(code) is None or pack.infractions[code].group is None:
        item["group"] = group
    return item


@st.composite
def cases(draw: Any) -> tuple[dict[str, Any], str, dt.date]:
    pack_id = draw(st.sampled_from(sorted(PROFILES)))
    pack = get_pack(pack_id)
    start = max(pack.start, dt.date(2021, 1, 1))
    day = start + dt.timedelta(days=draw(st.integers(min_value=0, max_value=1600)))
    code, group = draw(st.sampled_from(_codes(pack_id)))
    infraction: dict[str, Any] = {"code": code}
    if group is None:
        infraction["group"] = draw(st.sampled_from(sorted(pack.groups)))
    elif not pack.infractions:
        infraction["group"] = group
    history = draw(st.lists(entries(pack_id, day), max_size=12))
    case = {
        "jurisdiction": pack_id,
        "kind": "penalty",
        "date": day.isoformat(),
        "offender": draw(st.sampled_from(PROFILES[pack_id]["offenders"])),
        "infraction": infraction,
        "history": history,
    }
    return case, pack_id, day


def severity(result: dict[str, Any]) -> tuple[Any, ...]:
    """Revocation (and its ban) > suspension days > fine value > course > any penalty at all."""
    kinds = {p["type"]: p for p in result["penalties"]}
    revocation = kinds.get("revocation")
    fine = kinds.get("fine")
    fine_value = Decimal(-2)
    if fine is not None:
        raw = fine.get("amount", fine.get("units"))
        fine_value = Decimal(raw) if raw is not None else Decimal(-1)
    return (
        revocation is not None,
        (revocation or {}).get("ban_years") or 0,
        (kinds.get("suspension") or {}).get("days", 0),
        fine_value,
        "course" in kinds,
        bool(kinds),
    )


def _run(case: dict[str, Any]) -> dict[str, Any]:
    result = evaluate_case(case)
    assert "error" not in result, (case, result)
    return result


def _without_explanation(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "explanation"}


@SETTINGS
@given(data=st.data(), drawn=cases())
def test_adding_a_final_infraction_never_makes_the_penalty_milder(
    data: Any, drawn: tuple[dict[str, Any], str, dt.date]
) -> None:
    case, pack_id, day = drawn
    before = _run(case)
    extra = data.draw(entries(pack_id, day, status=st.just("final")))
    after = _run({**case, "history": [*case["history"], extra]})
    assert severity(after) >= severity(before), (case, extra, before["penalties"], after["penalties"])
    order = list(get_pack(pack_id).groups)
    if before["group"] is not None:
        assert order.index(after["group"]) >= order.index(before["group"])
    if before["repeat"] is not None and after["repeat"] is not None:
        assert after["repeat"] >= before["repeat"]
    if before.get("points") and before["points"]["added"] is not None:
        for window, total in before["points"]["totals"].items():
            assert after["points"]["totals"][window] >= total


@SETTINGS
@given(data=st.data(), drawn=cases())
def test_pending_or_annulled_entries_never_change_the_result(
    data: Any, drawn: tuple[dict[str, Any], str, dt.date]
) -> None:
    case, pack_id, day = drawn
    before = _run(case)
    noise = data.draw(
        st.lists(
            entries(pack_id, day, status=st.sampled_from(["pending", "annulled"])), min_size=1, max_size=5
        )
    )
    mixed = list(case["history"])
    for item in noise:
        mixed.insert(data.draw(st.integers(min_value=0, max_value=len(mixed))), item)
    after = _run({**case, "history": mixed})
    assert _without_explanation(after) == _without_explanation(before)


@SETTINGS
@given(data=st.data(), drawn=cases())
def test_the_order_of_the_history_does_not_matter(
    data: Any, drawn: tuple[dict[str, Any], str, dt.date]
) -> None:
    case, _, _ = drawn
    shuffled = data.draw(st.permutations(case["history"]))
    assert _run({**case, "history": list(shuffled)}) == _run(case)


# --------------------------------------------------------------------------- validation errors

BASE = {
    "jurisdiction": "recife",
    "kind": "penalty",
    "date": "2025-06-16",
    "offender": "permit_holder",
    "infraction": {"code": "G1-a"},
    "history": [],
}
OK = {"date": "2025-05-01", "code": "G1-b", "status": "final"}


def _error(**changes: Any) -> dict[str, str]:
    case = {**BASE, **changes}
    for key, value in list(case.items()):
        if value is _DROP:
            del case[key]
    result = evaluate_case(case)
    assert "error" in result, result
    error: dict[str, str] = result["error"]
    assert error["message"] and error["code"]
    return error


_DROP = object()


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"offender": _DROP}, "missing_field", "offender"),
        ({"offender": "driver"}, "invalid_field", "offender"),
        ({"offender": "company"}, "offender_not_applicable", "offender"),
        ({"infraction": _DROP}, "missing_field", "infraction"),
        ({"infraction": "G1-a"}, "invalid_field", "infraction"),
        ({"infraction": {}}, "missing_field", "infraction.code"),
        ({"infraction": {"code": 7}}, "invalid_field", "infraction.code"),
        ({"infraction": {"code": "G7-a"}}, "unknown_infraction", "infraction.code"),
        ({"infraction": {"code": "G1-a", "group": "2"}}, "group_mismatch", "infraction.group"),
        ({"infraction": {"code": "unlicensed_transport"}}, "invalid_field", "offender"),
        ({"offender": "unlicensed"}, "invalid_field", "infraction.code"),
        ({"history": {"date": "2025-05-01"}}, "invalid_field", "history"),
        ({"history": [OK, OK, "G1-a"]}, "invalid_field", "history.2"),
        ({"history": [OK, {"code": "G1-a", "status": "final"}]}, "missing_field", "history.1.date"),
        (
            {"history": [OK, OK, {"date": "16/06/2025", "code": "G1-a", "status": "final"}]},
            "invalid_date",
            "history.2.date",
        ),
        (
            {"history": [{"date": "2025-02-30", "code": "G1-a", "status": "final"}]},
            "invalid_date",
            "history.0.date",
        ),
        (
            {"history": [{"date": 20250101, "code": "G1-a", "status": "final"}]},
            "invalid_date",
            "history.0.date",
        ),
        (
            {"history": [{"date": "2025-06-17", "code": "G1-a", "status": "final"}]},
            "history_after_case",
            "history.0.date",
        ),
        (
            {"history": [{"date": "2025-05-01", "code": "G1-a", "status": "closed"}]},
            "invalid_field",
            "history.0.status",
        ),
        ({"history": [{"date": "2025-05-01", "code": "G1-a"}]}, "missing_field", "history.0.status"),
        ({"history": [{"date": "2025-05-01", "status": "final"}]}, "missing_field", "history.0.code"),
        (
            {"history": [{"date": "2025-05-01", "code": "", "status": "final"}]},
            "invalid_field",
            "history.0.code",
        ),
        (
            {"history": [OK, {"date": "2025-05-01", "code": "X-1", "status": "pending"}]},
            "unknown_infraction",
            "history.1.code",
        ),
        (
            {"history": [{"date": "2025-05-01", "code": "G1-a", "group": "3", "status": "final"}]},
            "group_mismatch",
            "history.0.group",
        ),
        ({"histroy": []}, "unknown_field", "histroy"),
    ],
)
def test_invalid_input_gives_a_portuguese_error_with_its_field(
    changes: dict[str, Any], code: str, field: str
) -> None:
    error = _error(**changes)
    assert (error["code"], error["field"]) == (code, field), error


def test_group_only_packs_require_a_known_group() -> None:
    base = {**BASE, "jurisdiction": "marica", "infraction": {"code": "art42-IX", "group": "B"}}
    assert "error" not in evaluate_case(base)
    missing = evaluate_case({**base, "infraction": {"code": "art42-IX"}})["error"]
    assert (missing["code"], missing["field"]) == ("missing_field", "infraction.group")
    assert "grupo" in missing["message"]
    unknown = evaluate_case({**base, "infraction": {"code": "art42-IX", "group": "Z"}})["error"]
    assert (unknown["code"], unknown["field"]) == ("invalid_field", "infraction.group")
    entry = {"date": "2025-05-01", "code": "art42-IX", "status": "final"}
    no_group = evaluate_case({**base, "history": [entry]})["error"]
    assert no_group["field"] == "history.0.group"


def test_messages_are_portuguese() -> None:
    error = _error(history=[{"date": "2025-06-17", "code": "G1-a", "status": "final"}])
    assert "posterior à data do caso" in error["message"]
    error = _error(offender="company")
    assert "não prevê penalidade" in error["message"]


def test_a_valid_case_after_an_invalid_one_is_unaffected() -> None:
    _error(history=[{"date": "2025-06-17", "code": "G1-a", "status": "final"}])
    result = evaluate_case({**BASE, "history": [OK]})
    assert result["penalties"] == [{"type": "fine", "amount": "50.00"}]
