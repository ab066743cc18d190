"""Explanations a clerk can read aloud: no internal word in any explanation the engine gives.

Runs every YAML case of every pack (`src/lotacao/packs/*/cases/*.yaml`, with its agency values
when the case has `overrides`) and the contract's examples (docs/contract/examples, and
../shared/contracts/examples when present), in this process, and checks each explanation with the rules of
../shared/contracts/plain_language.py — no snake_case token, no dotted parameter id, no English
word — and with the rest of "How an explanation reads" (contract README): no "(ões)"-style plural,
no nested brackets, dates as dd/mm/aaaa, money as R$ 1.234,56, no code the law does not print.
The ids go to the structured fields: each interpretation is {"parameter", "text"}.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from law_expect import plain

from lotacao.law.evaluate import evaluate_case
from lotacao.law.packs import PACKS_DIR, available_packs, get_pack

_ROOT = Path(__file__).resolve().parents[2]
# The repository's own examples always; the team's shared folder's too when it sits beside the clone.
EXAMPLES_DIRS = [_ROOT / "docs" / "contract" / "examples", _ROOT.parent / "shared" / "contracts" / "examples"]

# The three rules of plain_language.py, as it writes them.
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # appeal_minor, permit_holder
DOTTED = re.compile(r"\b[a-z_]+\.[a-z_]+(?:\.[a-z_]+)*\b")  # penalty.recidivism_window
ENGLISH = re.compile(
    r"\b(tourism|uphold|annul|fine|warning|revocation|suspension|permit|holder|deadline|business days"
    r"|calendar days|retention|seizure|true|false|null|None)\b"
)
# The rest of "How an explanation reads".
PLURAL = re.compile(r"\w\((?:s|es|ões|ãos|ns|is|m|a|as)\)")  # infração(ões), veículo(s), pode(m)
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
BAD_MONEY = re.compile(r"R\$\s*(?:\d+\.\d{2}\b|\d{4,}(?:,\d{2})?\b)")  # R$ 150.00, R$ 1234,56
OUR_CODE = re.compile(r"\bart\d+-[IVXL]+|\bG\d-[a-z]\b|\bunlicensed\b")  # art42-XV-d, G2-k


def nested(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
            if depth > 1:
                return True
        elif ch == ")":
            depth = max(0, depth - 1)
    return False


def internal_words(text: str) -> list[str]:
    found = set(SNAKE.findall(text)) | set(DOTTED.findall(text)) | set(ENGLISH.findall(text))
    found = {t for t in found if not re.fullmatch(r"[a-z]\.[a-z]", t)}
    for name, rx in (("plural", PLURAL), ("iso date", ISO_DATE), ("money", BAD_MONEY), ("code", OUR_CODE)):
        found |= {f"{name}: {m.group(0)}" for m in rx.finditer(text)}
    if nested(text):
        found.add("nested brackets")
    return sorted(found)


def _pack_cases() -> list[tuple[str, dict[str, Any], Any]]:
    out = []
    for pack_id in available_packs():
        for file in sorted((PACKS_DIR / pack_id / "cases").glob("*.yaml")):
            for item in yaml.safe_load(file.read_text(encoding="utf-8")) or []:
                out.append((f"{pack_id}: {item['name']}", plain(item["case"]), plain(item.get("overrides"))))
    return out


def _examples() -> list[tuple[str, dict[str, Any], Any]]:
    out = []
    files = [(d, f) for d in EXAMPLES_DIRS if d.is_dir() for f in sorted(d.glob("*.json"))]
    for folder, file in files:
        data = json.loads(file.read_text(encoding="utf-8"))
        where = "docs" if folder.is_relative_to(_ROOT) else "shared"
        for i, item in enumerate(data if isinstance(data, list) else [data]):
            out.append((f"contrato ({where}) {file.name}: {item.get('name', i)}", item["case"], None))
    return out


CASES = _pack_cases() + _examples()


def _results() -> list[tuple[str, dict[str, Any]]]:
    return [(name, evaluate_case(case, overrides=overrides)) for name, case, overrides in CASES]


def test_no_explanation_shows_internal_words() -> None:
    bad = {}
    explained = 0
    for name, result in _results():
        text = result.get("explanation")
        if text is None:
            continue
        explained += 1
        words = internal_words(text)
        if words:
            bad[name] = (words, text[:300])
    assert explained > 250
    assert not bad, "\n".join(f"{n}: {w}\n    {t}" for n, (w, t) in bad.items())


def test_interpretations_name_the_parameter_and_say_it_in_words() -> None:
    for name, result in _results():
        if "error" in result:
            continue
        assert isinstance(result.get("interpretations"), list), name
        pack = get_pack(result["jurisdiction"])
        for item in result["interpretations"]:
            assert set(item) == {"parameter", "text"}, (name, item)
            assert item["parameter"] in pack.parameters, (name, item)
            assert not internal_words(item["text"]), (name, item)
            assert item["text"] in result["explanation"], (name, item)
        for missing in result["missing_parameters"]:
            assert missing not in result["explanation"], (name, missing)


def test_the_checks_catch_what_they_should() -> None:
    for text in (
        "Valor indefinido (penalty.recidivism_window).",
        "Recurso appeal_minor.",
        "1 infração(ões) anterior(es).",
        "Lei (Recife (PE)), art. 1.",
        "Vence em 2025-06-16.",
        "Multa de R$ 150.00.",
        "Infração art42-XV-d.",
        "Modalidade tourism.",
    ):
        assert internal_words(text), text
    assert not internal_words("Infração do art. 42, XV, d (Grupo C), multa de R$ 1.234,56 em 16/06/2025.")


@pytest.mark.parametrize("pack_id", available_packs())
def test_every_interpretation_an_answer_can_rely_on_has_its_sentence(pack_id: str) -> None:
    """Parameters the evaluate kinds read (not the penalty rule lists, whose rules carry their own
    reading) state their interpretation in one sentence: the `summary` the explanation says."""
    kinds = ("penalty.", "deadline.", "calendar.", "fee.", "quota.", "fleet.", "vehicle.", "measure.")
    for name, param in get_pack(pack_id).parameters.items():
        if param.interpretation is None or not name.startswith(kinds):
            continue
        if name.startswith("penalty.rules.") or name == "penalty.measures":
            continue
        summary = param.interpretation.summary
        assert summary, f"{pack_id}: {name} has no summary"
        assert not internal_words(summary), (pack_id, name, summary)
