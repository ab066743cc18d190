"""Every `cases/penalty.yaml` of every pack, and the contract's penalty examples, through the engine.

Expectations have the meaning of ../shared/contracts/check.py: `penalties` (each listed penalty is
present, with at least the given keys), `penalty_types` (exactly these types),
`penalty_types_exclude`, `measures` (these measure types are present), `points` (`added` and the
listed `totals`), `missing_parameters_nonempty`, `error`, or any result key compared exactly.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import pytest
import yaml

from lotacao.law.evaluate import evaluate_case
from lotacao.law.packs import PACKS_DIR, available_packs

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "contracts" / "examples" / "penalty.json"


def _plain(value: Any) -> Any:
    """YAML dates become ISO strings, as they would arrive in JSON."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _cases() -> list[Any]:
    out = []
    for pack_id in available_packs():
        file = PACKS_DIR / pack_id / "cases" / "penalty.yaml"
        if file.exists():
            for item in yaml.safe_load(file.read_text(encoding="utf-8")) or []:
                out.append(pytest.param(_plain(item), id=item["name"]))
    if EXAMPLES.exists():
        for item in json.loads(EXAMPLES.read_text(encoding="utf-8")):
            if item["case"].get("kind") == "penalty":
                out.append(pytest.param(item, id="contract: " + item["name"]))
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float | str) and isinstance(b, int | float | str) and not isinstance(a, bool):
        try:
            return Decimal(str(a)) == Decimal(str(b))
        except InvalidOperation:
            pass
    return bool(a == b)


def problems(expect: dict[str, Any], res: dict[str, Any]) -> list[str]:
    if expect.get("error"):
        return [] if isinstance(res.get("error"), dict) else [f"expected an error, got {res}"]
    if "error" in res:
        return [f"unexpected error: {res['error']}"]
    out = []
    if not res.get("citations"):
        out.append("no citations")
    if not res.get("explanation"):
        out.append("no explanation")
    for key, want in expect.items():
        got_p = res.get("penalties") or []
        if key == "penalties":
            out += [
                f"missing penalty {w} in {got_p}"
                for w in want
                if not any(all(k in g and _same(v, g[k]) for k, v in w.items()) for g in got_p)
            ]
        elif key == "penalty_types":
            types = sorted({g["type"] for g in got_p})
            if types != sorted(set(want)):
                out.append(f"penalty types {types}, want {sorted(set(want))}")
        elif key == "penalty_types_exclude":
            out += [f"penalty {t} must not be applied" for t in want if t in {g["type"] for g in got_p}]
        elif key == "measures":
            got_m = {m["type"] for m in res.get("measures") or []}
            out += [f"missing measure {t} in {sorted(got_m)}" for t in want if t not in got_m]
        elif key == "measures_exact":
            got_m = sorted(m["type"] for m in res.get("measures") or [])
            if got_m != sorted(want):
                out.append(f"measures {got_m}, want exactly {sorted(want)}")
        elif key == "points":
            got = res.get("points") or {}
            if "added" in want and not _same(want["added"], got.get("added")):
                out.append(f"points added {got.get('added')}, want {want['added']}")
            for window, total in (want.get("totals") or {}).items():
                g = (got.get("totals") or {}).get(str(window))
                if not _same(total, g):
                    out.append(f"points in {window} days {g}, want {total}")
        elif key == "missing_parameters_nonempty":
            if bool(res.get("missing_parameters")) != want:
                out.append(f"missing_parameters {res.get('missing_parameters')}")
        elif not _same(want, res.get(key)):
            out.append(f"{key} = {res.get(key)!r}, want {want!r}")
    return out


@pytest.mark.parametrize("item", _cases())
def test_penalty_case(item: dict[str, Any]) -> None:
    result = evaluate_case(item["case"])
    assert not problems(item["expect"], result), (problems(item["expect"], result), result.get("explanation"))


def test_every_pack_has_penalty_cases() -> None:
    for pack_id in available_packs():
        assert (PACKS_DIR / pack_id / "cases" / "penalty.yaml").exists(), pack_id
