"""Penalty cases: every pack has its `cases/penalty.yaml`.

The cases themselves run in tests/law/test_cases.py (every `cases/*.yaml` of every pack, with the
expectations of ../shared/contracts/check.py, in tests/law/law_expect.py), and the contract's
examples run through the command in tests/law/test_contract.py.
"""

from __future__ import annotations

from lotacao.law.packs import PACKS_DIR, available_packs


def test_every_pack_has_penalty_cases() -> None:
    for pack_id in available_packs():
        assert (PACKS_DIR / pack_id / "cases" / "penalty.yaml").exists(), pack_id
