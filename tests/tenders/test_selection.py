"""The ranking's pieces: facts read through the seam, the order of the criteria, abridged names."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

from lotacao.tenders import selection
from tests.tenders.conftest import Tenders


def test_infractions_come_from_the_enforcement_seam(tenders: Tenders) -> None:
    j = tenders.jurisdiction("marica")
    holder = tenders.holder(j)
    assert selection.infractions(holder.pk, "marica", dt.date(2025, 6, 16)) == 0


def test_more_service_first_then_fewer_infractions_then_the_incumbent() -> None:
    apps = [SimpleNamespace(number=n) for n in (1, 2, 3, 4)]
    facts: dict[int, dict[str, Any]] = {
        1: {"service_time": 10, "infractions": 3},
        2: {"service_time": 10, "infractions": 1},
        3: {"service_time": 24, "infractions": 9},
        4: {"service_time": 10, "infractions": 1, "incumbent": True},
    }
    rows, ties = selection.rank(apps, facts, ["service_time", "infractions"], preference=False)
    assert [r.application.number for r in rows] == [3, 2, 4, 1] and ties == [[2, 4]]
    rows, ties = selection.rank(apps, facts, ["service_time", "infractions"], preference=True)
    assert [r.application.number for r in rows] == [3, 4, 2, 1] and ties == []


def test_months_and_masked_names() -> None:
    assert selection.months_between(dt.date(2024, 9, 2), dt.date(2025, 6, 11)) == 9
    assert selection.months_between(dt.date(2024, 9, 12), dt.date(2025, 6, 11)) == 8
    assert selection.masked_name("Maria da Silva Souza") == "Maria S. S."
    assert selection.masked_name("") == "—"
