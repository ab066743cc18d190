"""docs/rules.md is generated from the packs and must be current."""

from __future__ import annotations

from pathlib import Path

from lotacao.law.packs import available_packs, get_pack
from lotacao.law.rulesdoc import render

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_the_committed_rules_md_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), "run: python -m lotacao.law.rulesdoc > docs/rules.md"


def test_it_lists_every_interpretation_and_every_undefined_value() -> None:
    text = render()
    for pack_id in available_packs():
        pack = get_pack(pack_id)
        assert f"## {pack.name} — {pack.law}" in text
        for param in pack.parameters.values():
            if param.interpretation is not None or any(e.status == "undefined" for e in param.entries):
                assert f"`{param.name}`" in text, f"{pack_id}:{param.name}"
