"""The contract's own examples (../shared/contracts/examples) through the installed command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
CHECK = SHARED / "contracts" / "check.py"
EXAMPLES = SHARED / "contracts" / "examples"
COMMAND = ROOT / ".venv" / "bin" / "lotacao"


@pytest.mark.skipif(not CHECK.exists(), reason=f"the shared contract folder is absent ({SHARED})")
def test_the_contract_examples_pass_through_lotacao_evaluate() -> None:
    command = (
        [str(COMMAND), "evaluate"] if COMMAND.exists() else [sys.executable, "-m", "lotacao", "evaluate"]
    )
    # this tree's engine, not an installed copy of another one
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
    }
    proc = subprocess.run(
        [sys.executable, str(CHECK), str(EXAMPLES), "--", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 failed" in proc.stdout, proc.stdout
