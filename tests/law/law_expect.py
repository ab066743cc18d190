"""The `expect` semantics of ../shared/contracts/check.py, for the YAML cases beside each pack."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any


def plain(value: Any) -> Any:
    """YAML dates become ISO strings, as they would arrive in JSON."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float | str) and isinstance(b, int | float | str) and not isinstance(a, bool):
        try:
            return Decimal(str(a)) == Decimal(str(b))
        except InvalidOperation:
            pass
    return bool(a == b)


def _match_item(want: dict[str, Any], got: dict[str, Any]) -> bool:
    return all(k in got and same(v, got[k]) for k, v in want.items())


def _names(citation: str, provision: str) -> bool:
    """Whether `citation` names `provision` ("art. 34") or a part of it ("art. 34, II"), alone or in
    a compound citation ("art. 33, II; art. 34, II a IV")."""
    return re.search(rf"(?:, |; ){re.escape(provision)}(?:$|,|;| e )", citation) is not None


def problems(expect: dict[str, Any], res: Any) -> list[str]:
    if not isinstance(res, dict):
        return ["result is not an object"]
    if expect.get("error"):
        return [] if isinstance(res.get("error"), dict) else ["expected an error object"]
    if "error" in res:
        return [f"unexpected error: {res['error']}"]
    out: list[str] = []
    if not res.get("citations"):
        out.append("no citations")
    for key, want in expect.items():
        if key == "penalties":
            got = res.get("penalties") or []
            out += [f"missing penalty {w}" for w in want if not any(_match_item(w, g) for g in got)]
        elif key == "penalty_types":
            types = sorted({g.get("type") for g in res.get("penalties") or []})
            if types != sorted(set(want)):
                out.append(f"penalty types {types}, want exactly {sorted(set(want))}")
        elif key == "penalty_types_exclude":
            present = {g.get("type") for g in res.get("penalties") or []}
            out += [f"penalty {t} must not be applied" for t in want if t in present]
        elif key == "measures":
            present = {m.get("type") for m in res.get("measures") or []}
            out += [f"missing measure {t}" for t in want if t not in present]
        elif key == "measures_exact":  # an extension of check.py: exactly these measure types
            types = sorted({m.get("type") for m in res.get("measures") or []})
            if types != sorted(set(want)):
                out.append(f"measures {types}, want exactly {sorted(set(want))}")
        elif key == "measure_items":  # extension: exactly these measure items (type, days, choice)
            if res.get("measures") != want:
                out.append(f"measures {res.get('measures')}, want {want}")
        elif key == "release_ids":  # extension: {measure: [condition ids]} of release_conditions
            got_release = res.get("release_conditions") or {}
            for measure, ids in want.items():
                got_ids = [c.get("id") for c in got_release.get(measure) or []]
                if got_ids != list(ids):
                    out.append(f"release of {measure} {got_ids}, want {list(ids)}")
        elif key == "charge_types":  # extension: exactly these charges (amounts owed besides penalties)
            types = sorted({c.get("type") for c in res.get("charges") or []})
            if types != sorted(set(want)):
                out.append(f"charges {types}, want exactly {sorted(set(want))}")
        elif key == "interpretation_parameters":  # extension: exactly these interpretations' parameters
            names = [i.get("parameter") for i in res.get("interpretations") or []]
            if sorted(names) != sorted(want):
                out.append(f"interpretations {names}, want {want}")
        elif key == "citations_include":  # extension: these provisions are cited (exactly, as the last part)
            cites = res.get("citations") or []
            out += [f"missing citation {w!r}" for w in want if not any(c.endswith(", " + w) for c in cites)]
        elif key == "citations_exclude":  # extension: no citation names these provisions, or a part of them
            cites = res.get("citations") or []
            out += [f"cites {c!r}" for w in want for c in cites if _names(c, w)]
        elif key == "points":
            got_points = res.get("points") or {}
            if "added" in want and not same(want["added"], got_points.get("added")):
                out.append(f"points added {got_points.get('added')}, want {want['added']}")
            for window, total in (want.get("totals") or {}).items():
                g = (got_points.get("totals") or {}).get(str(window))
                if not same(total, g):
                    out.append(f"points in {window} days {g}, want {total}")
        elif key in ("violations", "violations_exact"):
            rules = sorted({v.get("rule") for v in res.get("violations") or []})
            if key == "violations":
                out += [f"missing violation {r}" for r in want if r not in rules]
            elif rules != sorted(set(want)):
                out.append(f"violations {rules}, want exactly {sorted(set(want))}")
        elif key == "missing_parameters_nonempty":
            if bool(res.get("missing_parameters")) != want:
                out.append(f"missing_parameters {res.get('missing_parameters')}")
        elif not same(want, res.get(key)):
            out.append(f"{key} = {res.get(key)!r}, want {want!r}")
    return out
