"""The manager's dashboard (issue 24, defect 8): axe-core finds no serious or critical violation and
leaves no colour-contrast item "to review" (incomplete) — the charts' texts sit on a background axe
can measure — and no table header breaks inside a word."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.a11y import AXE, TAGS, axe_violations

pytestmark = pytest.mark.browser


def _contrast_to_review(page: Any) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    result = page.evaluate(
        "async (tags) => await axe.run(document,"
        " {runOnly: {type: 'tag', values: tags}, resultTypes: ['incomplete']})",
        TAGS,
    )
    return [
        f"{node['target']}: {node.get('any', [{}])[0].get('message', '')}"
        for item in result["incomplete"]
        if item["id"] == "color-contrast"
        for node in item["nodes"]
    ]


# Every word of every table header: one line box each (a word split across two lines is a break
# inside it — "Arrecadad o").
SPLIT_WORDS = """() => {
  const split = [];
  for (const th of document.querySelectorAll('th')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /\\S+/g;
      let m;
      while ((m = re.exec(node.data)) !== null) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


WIDER_THAN_SCREEN = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


def test_the_dashboard_has_no_contrast_left_to_review(
    page: Any, phone: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    for device in (page, phone):
        device.set_default_timeout(45_000)
        sign_in(device, "gestor.recife")
        assert device.locator("figure.chart").count() == 6
        review = _contrast_to_review(device)
        assert review == [], "\n".join(review)
        assert axe_violations(device) == []
        assert device.evaluate(SPLIT_WORDS) == []
    for device in (page, phone):
        device.goto(f"{live_server.url}/cobranca/fundos/")
        assert device.evaluate(SPLIT_WORDS) == []
        assert axe_violations(device) == []
    # The six columns scroll in their own box on a phone; the page itself stays within the screen.
    wide = phone.evaluate(WIDER_THAN_SCREEN)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, wide
