"""Benchmark of the rules engine through its command (a script, not a timed test).

    .venv/bin/python bench/bench_evaluate.py [--cases 100000] [--runs 20]

(a) One case through `.venv/bin/lotacao evaluate`: median wall time of --runs runs (target < 0.3 s).
(b) --cases penalty cases (Recife, Esteio and Maricá mixed, 20 history entries each) written as JSON
    Lines to bench/out/, run through `lotacao evaluate --jsonl`; prints cases per second and the ratio
    of that wall time to a plain json.loads + json.dumps round trip of the same file, measured in the
    same run (target <= 4).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
COMMAND = [str(ROOT / ".venv" / "bin" / "lotacao"), "evaluate"]
ONE_CASE = {
    "jurisdiction": "recife",
    "kind": "penalty",
    "date": "2025-06-16",
    "offender": "permit_holder",
    "infraction": {"code": "G2-k"},
    "history": [{"date": "2025-04-10", "code": "G2-k", "status": "final"}],
}


def catalogue() -> dict[str, list[tuple[str, str | None]]]:
    sys.path.insert(0, str(ROOT / "src"))
    from lotacao.law.packs import get_pack

    out: dict[str, list[tuple[str, str | None]]] = {}
    for pack_id in ("recife", "esteio", "marica"):
        pack = get_pack(pack_id)
        groups = sorted(pack.groups)
        out[pack_id] = [
            (code, row.group if row.group is not None else random.choice(groups))
            for code, row in sorted(pack.infractions.items())
        ]
    return out


def make_cases(path: Path, n: int, seed: int = 2025) -> None:
    random.seed(seed)
    codes = catalogue()
    today = dt.date(2025, 6, 16)
    statuses = ["final"] * 6 + ["pending", "annulled"]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            pack_id = ("recife", "esteio", "marica")[i % 3]
            rows = codes[pack_id]
            day = today - dt.timedelta(days=random.randint(0, 400))
            code, group = random.choice(rows)
            infraction: dict[str, str] = {"code": code}
            if pack_id == "marica":
                infraction["group"] = str(group)
            history = []
            for _ in range(20):
                h_code, h_group = random.choice(rows)
                entry = {
                    "date": (day - dt.timedelta(days=random.randint(1, 720))).isoformat(),
                    "code": h_code,
                    "status": random.choice(statuses),
                }
                if pack_id == "marica":
                    entry["group"] = str(h_group)
                history.append(entry)
            case = {
                "jurisdiction": pack_id,
                "kind": "penalty",
                "date": day.isoformat(),
                "offender": "permit_holder",
                "infraction": infraction,
                "history": history,
            }
            fh.write(json.dumps(case, ensure_ascii=False) + "\n")


def one_case(runs: int) -> float:
    payload = json.dumps(ONE_CASE).encode()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(COMMAND, input=payload, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"lotacao evaluate failed: {proc.stdout[:300]!r} {proc.stderr[-500:]!r}")
    return statistics.median(times)


def roundtrip(path: Path, out: Path) -> float:
    start = time.perf_counter()
    with path.open(encoding="utf-8") as src, out.open("w", encoding="utf-8") as dst:
        for line in src:
            dst.write(json.dumps(json.loads(line)) + "\n")
    return time.perf_counter() - start


def batch(path: Path, out: Path) -> tuple[float, int, int]:
    start = time.perf_counter()
    with out.open("wb") as dst:
        proc = subprocess.run(
            [*COMMAND, "--jsonl", str(path)], stdout=dst, stderr=subprocess.PIPE, check=False
        )
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 2):
        raise SystemExit(f"lotacao evaluate --jsonl failed ({proc.returncode}): {proc.stderr[-800:]!r}")
    lines = errors = 0
    with out.open("rb") as fh:
        for line in fh:
            lines += 1
            if line.startswith(b'{"error"'):
                errors += 1
    return wall, lines, errors


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)

    median = one_case(args.runs)
    print(
        f"(a) one case through `lotacao evaluate`: median {median:.3f} s over {args.runs} runs "
        "(target < 0.3 s)"
    )

    cases = OUT / f"penalty-{args.cases}.jsonl"
    if not cases.exists():
        make_cases(cases, args.cases)
    size = cases.stat().st_size / 1e6
    base = roundtrip(cases, OUT / "roundtrip.jsonl")
    wall, lines, errors = batch(cases, OUT / "results.jsonl")
    print(f"(b) {args.cases} penalty cases, 20 history entries each ({size:.0f} MB of JSON Lines)")
    print(
        f"    lotacao evaluate --jsonl: {wall:.2f} s, {args.cases / wall:,.0f} cases/s "
        f"({lines} results, {errors} errors)"
    )
    print(f"    json.loads + json.dumps round trip of the same file: {base:.2f} s")
    print(f"    ratio: {wall / base:.2f} (target <= 4)")
    return 0 if lines == args.cases else 1


if __name__ == "__main__":
    raise SystemExit(main())
