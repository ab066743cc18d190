"""Temporal coverage (as in Catala's examples): for every parameter of every pack, every date from
the law's start to today resolves to exactly one entry — a value, an explicit `undefined` or an
explicit `repealed` — with no gap and no overlap.

Every day is walked: ~80,000 days per pack is cheap with bisect, and it is the claim itself.
"""

from __future__ import annotations

import datetime as dt

import pytest
from tests import clock

from lotacao.law.packs import available_packs, get_pack

ONE_DAY = dt.timedelta(days=1)


def _params() -> list[object]:
    return [
        pytest.param(pack_id, name, id=f"{pack_id}:{name}")
        for pack_id in available_packs()
        for name in sorted(get_pack(pack_id).parameters)
    ]


@pytest.mark.parametrize(("pack_id", "name"), _params())
def test_every_day_from_the_law_start_resolves_to_exactly_one_entry(pack_id: str, name: str) -> None:
    pack = get_pack(pack_id)
    param = pack.parameters[name]
    starts = [e.start for e in param.entries]
    assert starts == sorted(set(starts)), "dates out of order or repeated"
    assert starts[0] <= pack.start, "the law's start is not covered"
    today = clock.today()
    day = pack.start
    index = 0
    while day <= today:
        # exactly one entry: the last one starting on or before `day`
        while index + 1 < len(starts) and starts[index + 1] <= day:
            index += 1
        covering = [
            e for e in param.entries if e.start <= day and (e is param.entries[-1] or _next(param, e) > day)
        ]
        if day in starts or day == pack.start or day.day == 1:  # full check at boundaries and monthly
            assert len(covering) == 1, f"{day}: {len(covering)} entries"
        entry = pack.resolve(name, day)
        assert entry is param.entries[index], f"{day}: resolved {entry.start}, expected {starts[index]}"
        assert entry.status in ("value", "undefined", "repealed")
        assert entry.cite.strip()
        if entry.status != "value":
            assert entry.reason and entry.reason.strip()
        day += ONE_DAY


def _next(param: object, entry: object) -> dt.date:
    entries = param.entries  # type: ignore[attr-defined]
    return entries[entries.index(entry) + 1].start  # type: ignore[no-any-return]


def test_no_parameter_starts_after_today() -> None:
    today = clock.today()
    for pack_id in available_packs():
        for name, param in get_pack(pack_id).parameters.items():
            assert param.entries[0].start <= today, f"{pack_id}:{name}"
