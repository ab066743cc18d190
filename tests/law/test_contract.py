"""The contract's examples through the installed command.

The repository's own copy (docs/contract/examples) runs on every clone with this suite's checker
(check_contract.py). Where the team's shared folder sits beside the clone (../shared/contracts),
its examples run too, through its own check.py: it may add cases, it is never required.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OWN_CHECK = ROOT / "tests" / "law" / "check_contract.py"
OWN_EXAMPLES = ROOT / "docs" / "contract" / "examples"
SHARED = ROOT.parent / "shared" / "contracts"
COMMAND = ROOT / ".venv" / "bin" / "lotacao"

RUNS = [pytest.param(OWN_CHECK, OWN_EXAMPLES, id="repo")]
if (SHARED / "check.py").exists():
    RUNS.append(pytest.param(SHARED / "check.py", SHARED / "examples", id="shared"))


def _evaluate(check: Path, examples: Path) -> subprocess.CompletedProcess[str]:
    command = (
        [str(COMMAND), "evaluate"] if COMMAND.exists() else [sys.executable, "-m", "lotacao", "evaluate"]
    )
    # this tree's engine, not an installed copy of another one
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
    }
    return subprocess.run(
        [sys.executable, str(check), str(examples), "--", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@pytest.mark.parametrize(("check", "examples"), RUNS)
def test_the_contract_examples_pass_through_lotacao_evaluate(check: Path, examples: Path) -> None:
    proc = _evaluate(check, examples)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 failed" in proc.stdout, proc.stdout


def test_the_repo_checker_fails_a_wrong_expectation(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.json"
    wrong.write_text(
        '{"name": "quota errada", "case": {"jurisdiction": "cabo", "kind": "quota", "date": "2025-01-01",'
        ' "population": 30000}, "expect": {"max_vehicles": 31}}',
        encoding="utf-8",
    )
    proc = _evaluate(OWN_CHECK, wrong)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAIL quota errada: max_vehicles = 30, want 31" in proc.stdout
    assert "0 passed, 1 failed" in proc.stdout
