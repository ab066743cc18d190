"""`lotacao evaluate`: JSON in, JSON out, errors as JSON objects, exit status 2 on invalid input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = {"jurisdiction": "esteio", "kind": "deadline", "deadline": "defense", "date": "2025-03-10"}
FEE = {"jurisdiction": "pernambuco", "kind": "fee", "fee": "fusp_f", "date": "2025-03-01", "vehicles": 3}


def run(*args: str, stdin: str | bytes = "") -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "lotacao", *args],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def out(proc: subprocess.CompletedProcess[bytes]) -> Any:
    return json.loads(proc.stdout)


def test_it_answers_one_case_with_one_object() -> None:
    proc = run("evaluate", stdin=json.dumps(DEADLINE))
    assert proc.returncode == 0, proc.stderr
    result = out(proc)
    assert result["due"] == "2025-03-31" and result["citations"] and result["missing_parameters"] == []


def test_it_answers_an_array_in_order() -> None:
    cases = [FEE, DEADLINE, {**DEADLINE, "date": "2025-03-11"}]
    proc = run("evaluate", "-", stdin=json.dumps(cases))
    assert proc.returncode == 0
    results = out(proc)
    assert [r["kind"] for r in results] == ["fee", "deadline", "deadline"]
    assert results[0]["amount"] == "121.35" and results[2]["start"] == "2025-03-11"


def test_it_reads_a_file(tmp_path: Path) -> None:
    file = tmp_path / "cases.json"
    file.write_text(json.dumps([DEADLINE]), encoding="utf-8")
    proc = run("evaluate", str(file))
    assert proc.returncode == 0 and out(proc)[0]["due"] == "2025-03-31"


def test_invalid_json_is_an_error_object_with_exit_2() -> None:
    proc = run("evaluate", stdin="{not json")
    assert proc.returncode == 2
    error = out(proc)["error"]
    assert error["code"] == "invalid_json" and "JSON inválido" in error["message"]


def test_an_invalid_case_keeps_its_slot_and_the_exit_status_is_2() -> None:
    bad = {**DEADLINE, "date": "2025-02-30"}
    proc = run("evaluate", stdin=json.dumps([DEADLINE, bad, FEE]))
    assert proc.returncode == 2
    results = out(proc)
    assert len(results) == 3 and results[0]["due"] == "2025-03-31" and results[2]["amount"] == "121.35"
    assert results[1]["error"] == {
        "code": "invalid_date",
        "message": "Data inválida em date: '2025-02-30'. Use o formato AAAA-MM-DD.",
        "field": "date",
    }


def test_errors_name_the_dotted_field_path() -> None:
    case = {
        "jurisdiction": "recife",
        "kind": "vehicle",
        "action": "keep",
        "date": "2025-06-16",
        "vehicle": {"category": "van", "manufacture_year": "2020", "seats": 16, "doors": 4},
    }
    proc = run("evaluate", stdin=json.dumps(case))
    assert proc.returncode == 2
    error = out(proc)["error"]
    assert error["field"] == "vehicle.manufacture_year" and "inteiro" in error["message"]
    holidays = {**DEADLINE, "extra_holidays": ["2025-03-19", "19/03/2025"]}
    error = out(run("evaluate", stdin=json.dumps(holidays)))["error"]
    assert error["field"] == "extra_holidays.1"


def test_unknown_jurisdiction_and_kind_are_errors_in_portuguese() -> None:
    proc = run(
        "evaluate", stdin=json.dumps([{**DEADLINE, "jurisdiction": "olinda"}, {**DEADLINE, "kind": "tax"}])
    )
    assert proc.returncode == 2
    first, second = out(proc)
    assert first["error"]["code"] == "unknown_jurisdiction" and first["error"]["field"] == "jurisdiction"
    assert "Jurisdição desconhecida" in first["error"]["message"]
    assert second["error"]["code"] == "unknown_kind" and second["error"]["field"] == "kind"


def test_jsonl_streams_one_line_per_case_and_reports_bad_lines() -> None:
    lines = [json.dumps(DEADLINE), "", "{oops", json.dumps(FEE), json.dumps({**FEE, "vehicles": -1})]
    proc = run("evaluate", "--jsonl", stdin="\n".join(lines))  # no final newline
    assert proc.returncode == 2
    results = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(results) == 4
    assert results[0]["due"] == "2025-03-31"
    assert results[1]["error"]["code"] == "invalid_json" and "linha 2" in results[1]["error"]["message"]
    assert results[2]["amount"] == "121.35"
    assert results[3]["error"]["field"] == "vehicles"


def test_jsonl_answers_before_the_input_ends() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "lotacao", "evaluate", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(DEADLINE).encode() + b"\n")
    proc.stdin.flush()
    first = json.loads(proc.stdout.readline())  # would hang if the command waited for EOF
    assert first["due"] == "2025-03-31"
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0


def test_stdout_holds_nothing_but_json() -> None:
    proc = run("evaluate", stdin=json.dumps([DEADLINE, {"kind": "deadline"}, 42]))
    results = out(proc)  # parses: nothing else on stdout
    assert results[1]["error"]["field"] == "jurisdiction"
    assert results[2]["error"]["code"] == "invalid_case"


def test_the_command_does_not_import_django() -> None:
    code = (
        "import sys, io, json; sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps("
        + repr(DEADLINE)
        + ").encode()));"
        "from lotacao.cli import main; rc = main(['evaluate']); "
        "assert 'django' not in sys.modules, 'django imported'; raise SystemExit(rc)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_overrides_supply_a_value_the_law_leaves_undefined(tmp_path: Path) -> None:
    overrides = tmp_path / "overrides.json"
    overrides.write_text(
        json.dumps(
            {
                "fee.rst": [
                    {
                        "from": "2010-01-01",
                        "value": {"rate": "3", "of": "demand_revenue"},
                        "by": "SESP",
                        "cite": "Decreto Municipal 1/2010 (hipotético)",
                    }
                ]
            }
        ),
        encoding="utf-8",
    )
    case = {
        "jurisdiction": "cabo",
        "kind": "fee",
        "fee": "rst",
        "date": "2010-06-01",
        "demand_revenue": "1000",
    }
    proc = run("evaluate", "--overrides", str(overrides), stdin=json.dumps(case))
    assert proc.returncode == 0, proc.stdout
    result = out(proc)
    assert result["amount"] == "30.00" and "Decreto Municipal 1/2010 (hipotético)" in result["citations"]
