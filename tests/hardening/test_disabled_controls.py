"""A disabled control looks disabled and says why (issue 24, defect 14): "Encerrar sessão" disabled
looked exactly like an active button, and the agency-value form's "Registrar" was disabled with no
reason at all. Every template's disabled control names, in aria-describedby, an element of the same
template that prints the reason; the style sheet gives disabled controls their own look."""

from __future__ import annotations

import re
from pathlib import Path

import tinycss2

SRC = Path(__file__).resolve().parents[2] / "src" / "lotacao"
TAG = re.compile(r"<(button|input|select|textarea)\b([^>]*)>", re.S)
DISABLED = re.compile(r"(?<![\w-])disabled(?![\w-])")
DESCRIBED = re.compile(r'aria-describedby="([^"]+)"')


def _templates() -> list[Path]:
    return sorted(SRC.rglob("templates/**/*.html"))


def test_every_disabled_control_in_a_template_says_why() -> None:
    offenders = []
    for path in _templates():
        text = path.read_text(encoding="utf-8")
        for match in TAG.finditer(text):
            attributes = re.sub(r"\{\{.*?\}\}", "", match.group(2))
            if not DISABLED.search(re.sub(r'"[^"]*"', '""', attributes)):
                continue
            described = DESCRIBED.search(match.group(2))
            ids = described.group(1).split() if described else []
            missing = [i for i in ids if f'id="{i}"' not in text]
            if not ids or missing:
                offenders.append(f"{path.relative_to(SRC)}: <{match.group(1)}{match.group(2)[:60]}…>")
    assert offenders == [], "disabled without a reason tied by aria-describedby:\n" + "\n".join(offenders)


def _rules(css: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type == "qualified-rule":
            for selector in tinycss2.serialize(rule.prelude).split(","):
                found[selector.strip()] = tinycss2.serialize(rule.content)
    return found


def test_a_disabled_button_does_not_look_like_an_active_one() -> None:
    rules = _rules((SRC / "web" / "static" / "lotacao" / "app.css").read_text(encoding="utf-8"))
    assert "button:disabled" in rules, "no style for a disabled button: it looks active"
    disabled = rules["button:disabled"]
    assert "background" in disabled and "var(--accent)" not in disabled
    assert "not-allowed" in disabled
    assert "button:disabled:hover" in rules  # hovering does not light it up as if it worked
