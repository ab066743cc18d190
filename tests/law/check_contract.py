#!/usr/bin/env python3
"""Run `lotacao evaluate` over contract examples and compare each result with its `expect`.

Usage: check_contract.py PATH... -- COMMAND [ARG...]

PATH is a JSON file or a folder of them; each file holds one {"name", "case", "expect"} object or
a list of them (docs/contract/README.md, "Examples"). All cases go to COMMAND as one JSON array.
Prints a line per failure, then `N passed, M failed`; exits 0 only when every case passed and
there was at least one. The `expect` semantics are this suite's (law_expect.py), a superset of
the team's shared check.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from law_expect import problems


def load(paths: list[str]) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for p in map(Path, paths):
        for f in sorted(p.glob("*.json")) if p.is_dir() else [p]:
            data = json.loads(f.read_text(encoding="utf-8"))
            for i, item in enumerate(data if isinstance(data, list) else [data]):
                item.setdefault("name", f"{f.name}#{i}")
                cases.append(item)
    return cases


def main(argv: list[str]) -> int:
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    cut = argv.index("--")
    paths, command = argv[:cut], argv[cut + 1 :]
    cases = load(paths)
    proc = subprocess.run(
        command, input=json.dumps([c["case"] for c in cases]), capture_output=True, text=True, timeout=600
    )
    try:
        results = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print(f"no JSON on stdout (exit {proc.returncode}): {proc.stderr[-2000:]}")
        return 1
    if not isinstance(results, list) or len(results) != len(cases):
        print(f"expected a list of {len(cases)} results, got {type(results).__name__}")
        return 1
    failed = 0
    for case, result in zip(cases, results, strict=True):
        bad = problems(case.get("expect", {}), result)
        if bad:
            failed += 1
            print(f"FAIL {case['name']}: " + "; ".join(bad))
    passed = len(cases) - failed
    print(f"{passed} passed, {failed} failed")
    return 0 if cases and not failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
