"""Properties of the deadline arithmetic (hypothesis)."""

from __future__ import annotations

import datetime as dt

import holidays
from hypothesis import given, settings
from hypothesis import strategies as st

from lotacao.law.calendar import Calendar
from lotacao.law.evaluate import evaluate_case
from lotacao.law.packs import get_pack

MOVING = {  # deadlines whose due date must be a business day
    "recife": ["notification", "defense", "judgment", "decision_notice", "appeal", "accident_report"],
    "esteio": ["notification", "defense"],
    "marica": ["appeal_minor", "appeal_major", "fine_payment_for_appeal", "vehicle_replacement"],
    "pernambuco": [
        "crc_issue",
        "crc_complement",
        "traffic_card",
        "notice_copy",
        "defense",
        "decision_notice",
        "payment",
    ],
    "cabo": ["appeal"],
}
PAIRS = [(j, d) for j, ds in MOVING.items() for d in ds]
dates = st.dates(min_value=dt.date(2021, 1, 1), max_value=dt.date(2027, 12, 31))


def _is_official_holiday(jurisdiction: str, day: dt.date) -> bool:
    cal = get_pack(jurisdiction).calendar
    return day in holidays.country_holidays(cal["country"], subdiv=cal.get("subdivision"), years=day.year)


@settings(max_examples=300, deadline=None)
@given(pair=st.sampled_from(PAIRS), start=dates, extra=st.lists(dates, max_size=6))
def test_a_business_day_deadline_never_falls_on_a_weekend_or_holiday(
    pair: tuple[str, str], start: dt.date, extra: list[dt.date]
) -> None:
    jurisdiction, deadline = pair
    case = {
        "jurisdiction": jurisdiction,
        "kind": "deadline",
        "deadline": deadline,
        "date": start.isoformat(),
        "extra_holidays": [d.isoformat() for d in extra],
    }
    result = evaluate_case(case)
    due = dt.date.fromisoformat(result["due"])
    assert due > start
    assert due.weekday() < 5, result
    assert not _is_official_holiday(jurisdiction, due), result
    assert due not in extra, result


@settings(max_examples=200, deadline=None)
@given(start=dates, n=st.integers(min_value=1, max_value=40), extra=st.lists(dates, max_size=6))
def test_adding_business_days_counts_exactly_n_business_days(
    start: dt.date, n: int, extra: list[dt.date]
) -> None:
    cal = Calendar("BR", "RS", [], extra)
    due = cal.add_business_days(start, n)
    counted = sum(
        1 for k in range(1, (due - start).days + 1) if cal.is_business_day(start + dt.timedelta(days=k))
    )
    assert counted == n and cal.is_business_day(due)


@settings(max_examples=200, deadline=None)
@given(start=dates, extra=st.lists(dates, max_size=4))
def test_an_extra_holiday_never_brings_a_deadline_earlier(start: dt.date, extra: list[dt.date]) -> None:
    base = {"jurisdiction": "esteio", "kind": "deadline", "deadline": "defense", "date": start.isoformat()}
    without = evaluate_case(base)["due"]
    with_extra = evaluate_case({**base, "extra_holidays": [d.isoformat() for d in extra]})["due"]
    assert with_extra >= without


@settings(max_examples=100, deadline=None)
@given(start=dates)
def test_plain_arithmetic_deadlines_never_move(start: dt.date) -> None:
    case = {
        "jurisdiction": "marica",
        "kind": "deadline",
        "deadline": "edital_service",
        "date": start.isoformat(),
    }
    assert evaluate_case(case)["due"] == (start + dt.timedelta(days=20)).isoformat()
    case = {
        "jurisdiction": "pernambuco",
        "kind": "deadline",
        "deadline": "crc_renewal",
        "date": start.isoformat(),
    }
    assert evaluate_case(case)["due"] == (start - dt.timedelta(days=30)).isoformat()


def test_municipal_holidays_from_the_pack_count_as_holidays() -> None:
    day = dt.date(2025, 7, 16)  # a Wednesday
    assert not Calendar("BR", "PE", ["07-16"]).is_business_day(day)
    assert not Calendar("BR", "PE", ["2025-07-16"]).is_business_day(day)
    assert Calendar("BR", "PE", ["2024-07-16"]).is_business_day(day)
    pack = get_pack("recife").with_overrides(
        {
            "calendar.municipal_holidays": [
                {
                    "from": "2003-04-16",
                    "value": ["07-16"],
                    "by": "CTTU",
                    "cite": "Lei Municipal (feriado de N. S. do Carmo)",
                }
            ]
        }
    )
    case = {"jurisdiction": "recife", "kind": "deadline", "deadline": "appeal", "date": "2025-07-01"}
    assert evaluate_case(case)["due"] == "2025-07-16"
    overrides = {
        "calendar.municipal_holidays": [
            {"from": "2003-04-16", "value": ["07-16"], "cite": "Lei Municipal (feriado de N. S. do Carmo)"}
        ]
    }
    assert evaluate_case(case, overrides=overrides)["due"] == "2025-07-17"
    assert pack.resolve("calendar.municipal_holidays", day).value == ["07-16"]


def test_holiday_tables_are_cached_on_disk_and_give_the_same_answer(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import datetime as dt

    from lotacao.law import calendar

    monkeypatch.setenv("LOTACAO_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("LOTACAO_NO_PACK_CACHE", raising=False)
    monkeypatch.setattr(calendar, "_TABLES", {})
    monkeypatch.setattr(calendar, "_DISK", {})
    monkeypatch.setattr(calendar, "_SETS", {})
    first = calendar.official_holidays("BR", "PE", 2025)
    assert dt.date(2025, 3, 6) in first  # Data Magna de Pernambuco (state holiday)
    assert dt.date(2025, 4, 21) in first  # Tiradentes (national)
    [file] = tmp_path.glob("holidays-BR-PE-*.json")
    # a new process reads the file instead of the package
    monkeypatch.setattr(calendar, "_TABLES", {})
    monkeypatch.setattr(calendar, "_DISK", {})
    monkeypatch.setattr(calendar, "_SETS", {})
    monkeypatch.setattr(calendar, "_compute", lambda *a: (_ for _ in ()).throw(AssertionError("recomputed")))
    assert calendar.official_holidays("BR", "PE", 2025) == first
    assert calendar.holiday_name("BR", "PE", dt.date(2025, 4, 21))
    assert file.is_file()
