"""Accessibility checks with axe-core (vendored: assets/axe.min.js from the npm package `axe-core`,
MPL-2.0, licence beside it), run in the page through Playwright's evaluate (DevTools evaluation is
not subject to the page's Content-Security-Policy, which stays strict), and the screenshots the
journeys keep as artifacts (a git-ignored folder: var/screenshots, or LOTACAO_SCREENSHOTS)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

AXE = (Path(__file__).parent / "assets" / "axe.min.js").read_text(encoding="utf-8")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SHOTS = Path(
    os.environ.get("LOTACAO_SCREENSHOTS", Path(__file__).resolve().parents[2] / "var" / "screenshots")
)


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """The WCAG 2.1 A/AA violations of the page as it stands, of the given impacts, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    result = page.evaluate(
        "async (tags) => await axe.run(document,"
        " {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        TAGS,
    )
    found = []
    for violation in result["violations"]:
        if violation["impact"] in impacts:
            targets = ", ".join(str(node["target"]) for node in violation["nodes"][:5])
            found.append(
                f"{page.url}: {violation['id']} ({violation['impact']}): {violation['help']} — {targets}"
            )
    return found


def shot(page: Any, name: str, full_page: bool = True) -> Path:
    """Save a screenshot (by default of the whole page) under the artifacts folder."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / (re.sub(r"[^a-z0-9_.-]+", "-", name.lower()).strip("-") + ".png")
    page.screenshot(path=str(path), full_page=full_page, timeout=45_000)
    return path
