"""Every YAML case beside every pack (`src/lotacao/packs/*/cases/*.yaml`), one test each.

A case is `{name, case, expect}` and, where the case needs an agency's values, `overrides` (the
engine's override shape: {"<parameter>": [{"from", "value", "by", "cite"}]}); `expect` means
what it means to ../shared/contracts/check.py, with this suite's extensions (law_expect.py).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from law_expect import plain, problems

from lotacao.law.evaluate import evaluate_case
from lotacao.law.packs import PACKS_DIR, available_packs, get_pack

KINDS = ("deadline", "fee", "quota", "fleet", "vehicle", "workday")


def _load() -> list[Any]:
    out = []
    for pack_id in available_packs():
        for file in sorted((PACKS_DIR / pack_id / "cases").glob("*.yaml")):
            items = yaml.safe_load(file.read_text(encoding="utf-8")) or []
            for i, item in enumerate(items):
                name = item.get("name") or f"{pack_id}/{file.name}#{i}"
                out.append(pytest.param(plain(item), id=f"{pack_id}/{file.stem}: {name}"))
    return out


CASES = _load()


@pytest.mark.parametrize("item", CASES)
def test_case(item: dict[str, Any]) -> None:
    assert set(item) <= {"name", "case", "expect", "overrides"}, (
        "a case has only name, case, expect, overrides"
    )
    result = evaluate_case(item["case"], overrides=item.get("overrides"))
    bad = problems(item.get("expect") or {}, result)
    assert not bad, f"{item['name']}: {'; '.join(bad)}\nresult: {result}"


def test_every_pack_has_cases_for_the_kinds_it_defines() -> None:
    for pack_id in available_packs():
        folder = PACKS_DIR / pack_id / "cases"
        pack = get_pack(pack_id)
        prefixes = {name.split(".")[0] for name in pack.parameters}
        for kind in KINDS:
            if kind in prefixes:
                assert (folder / f"{kind}.yaml").is_file(), (
                    f"{pack_id}: parameters/{kind}/ has no cases/{kind}.yaml"
                )


def test_cases_are_named_uniquely() -> None:
    names = [p.values[0]["name"] for p in CASES]
    dupes = {n for n in names if names.count(n) > 1}
    assert not dupes, dupes
