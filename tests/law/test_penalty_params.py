"""The packs' penalty parameters: they compile on every date they change, agree with the
catalogues, and an agency's values (overrides) reach the result with who set them."""

from __future__ import annotations

import datetime as dt

import pytest
from tests import clock

from lotacao.law.evaluate import evaluate_case
from lotacao.law.packs import available_packs, get_pack
from lotacao.law.penalty_config import compile_config
from lotacao.law.penalty_rules import Window, window_start

PACKS = available_packs()


@pytest.mark.parametrize("pack_id", PACKS)
def test_penalty_parameters_compile_on_each_date_they_change(pack_id: str) -> None:
    pack = get_pack(pack_id)
    days = {pack.start, clock.today()}
    for name, param in pack.parameters.items():
        if name.startswith("penalty."):
            days.update(param.starts)
            days.update(d - dt.timedelta(days=1) for d in param.starts if d > pack.start)
    for day in sorted(days):
        cfg = compile_config(pack, day)
        assert cfg.offenders, (pack_id, day)
        for profile in set(cfg.offenders.values()):
            assert profile in cfg.rules


@pytest.mark.parametrize("pack_id", PACKS)
def test_every_offender_profile_has_cited_rules(pack_id: str) -> None:
    cfg = compile_config(get_pack(pack_id), dt.date(2025, 6, 16))
    for rules in cfg.rules.values():
        for rule in rules:
            assert rule.citations and all(c.strip() for c in rule.citations)


def test_marica_points_agree_with_the_catalogue_groups() -> None:
    pack = get_pack("marica")
    points = pack.resolve("penalty.points", dt.date(2025, 6, 16)).value
    assert points == {g: pack.groups[g].points for g in pack.groups}


def test_windows_exclude_d_minus_l_and_include_the_next_day() -> None:
    day = dt.date(2025, 8, 31)
    start = window_start(day, Window("months", 6))
    assert start == dt.date(2025, 2, 28)  # calendar months: 31/08 − 6 months = 28/02
    assert window_start(day, Window("days", 120)) == day - dt.timedelta(days=120)
    assert window_start(day, Window("unlimited", 0)) is None


def test_an_agency_base_value_for_recife_is_used_and_named() -> None:
    case = {
        "jurisdiction": "recife",
        "kind": "penalty",
        "date": "2025-03-01",
        "offender": "permit_holder",
        "infraction": {"code": "G3-a"},
        "history": [],
    }
    overrides = {
        "penalty.base_fine": [
            {"from": "2024-01-01", "value": "61.50", "by": "CTTU", "cite": "Portaria CTTU 12/2024"}
        ]
    }
    result = evaluate_case(case, overrides=overrides)
    assert result["penalties"] == [{"type": "fine", "amount": "184.50"}]
    assert "Portaria CTTU 12/2024" in result["citations"]
    assert "CTTU" in result["explanation"]
    before = evaluate_case({**case, "date": "2023-12-31"}, overrides=overrides)
    assert before["penalties"] == [{"type": "fine", "amount": "150.00"}]


def test_cabo_points_and_fines_supplied_by_the_agency_trigger_the_course() -> None:
    history = [
        {"date": f"2008-01-0{i}", "code": "r", "group": "gravissima", "status": "final"} for i in range(1, 5)
    ]
    case = {
        "jurisdiction": "cabo",
        "kind": "penalty",
        "date": "2010-06-16",
        "offender": "permit_holder",
        "infraction": {"code": "r", "group": "grave"},
        "history": history,
    }
    overrides = {
        "penalty.points": [
            {
                "from": "2005-01-01",
                "value": {"leve": 3, "media": 4, "grave": 5, "gravissima": 24},
                "by": "Conselho",
                "cite": "Resolução 1/2005",
            }
        ],
        "penalty.fine.grave": [
            {"from": "2005-01-01", "value": {"units": "50", "unit": "UFIR"}, "cite": "Resolução 1/2005"}
        ],
    }
    result = evaluate_case(case, overrides=overrides)
    assert {p["type"] for p in result["penalties"]} == {"fine", "course"}
    assert result["points"] == {"added": 5, "totals": {"all": 101}}
    assert "penalty.points" not in result["missing_parameters"]
    history[0]["status"] = "annulled"
    fewer = evaluate_case({**case, "history": history}, overrides=overrides)
    assert {p["type"] for p in fewer["penalties"]} == {"fine"}
    assert fewer["points"]["totals"]["all"] == 77


def test_marica_course_applies_once_the_agency_lists_the_safety_items() -> None:
    history = [
        {"date": "2025-05-01", "code": "art42-XV-b", "group": "C", "status": "final"},
        {"date": "2025-04-01", "code": "art42-XVII", "group": "C", "status": "final"},
    ]
    case = {
        "jurisdiction": "marica",
        "kind": "penalty",
        "date": "2025-06-16",
        "offender": "permit_holder",
        "infraction": {"code": "art42-XV-a", "group": "C"},
        "history": history,
    }
    listed = ["art42-XV-a", "art42-XV-b", "art42-XVII"]
    overrides = {
        "penalty.course_codes": [{"from": "2016-01-01", "value": listed, "cite": "Portaria EPT 1/2016"}]
    }
    result = evaluate_case(case, overrides=overrides)
    assert "course" in {p["type"] for p in result["penalties"]}
    assert result["missing_parameters"] == []
    overrides["penalty.course_codes"][0]["value"] = listed[:2]  # art42-XVII is not a safety item
    assert "course" not in {p["type"] for p in evaluate_case(case, overrides=overrides)["penalties"]}
