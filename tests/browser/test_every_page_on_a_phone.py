"""Every page of every role on a 390 px phone (issue 24, defect 2): none is wider than the screen
and none has a serious or critical axe violation, the line pages with maps included, with and
without the agency's tile server.

Which pages: the language crawl's discovery (tests/language/crawl.py: every page reachable by
links from a login's home, GET only, one of each URL shape) run with the test client for the
public and for each role of every demo jurisdiction (Recife, Cabo, Esteio, Maricá, Pernambuco:
each has pages of its own — Esteio's delegation, Pernambuco's chartering); LOTACAO_PHONE_CODES
takes a comma-separated subset. Each URL shape is then opened once in one Chromium at 390×844, by
the first role that reaches it (the manager first: the manager sees the most, the measures form on
a notice among it). LOTACAO_PHONE_EVERY_ROLE=1 opens each (role, URL shape) pair instead, several
times slower.
The same session cookie the test client signed in with is given to the browser, so nobody types a
password. One browser context, reused."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import Client

from lotacao.accounts.models import User
from tests.browser.a11y import axe_violations
from tests.language.crawl import crawl, pattern
from tests.language.test_language import CODES, PUBLIC, ROLES

pytestmark = pytest.mark.browser

WIDTH = 390
# The elements that stick out of the screen (tag#id.class right edge), to name them on failure.
WIDER_ELEMENTS = """(width) => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > width + 1).slice(0, 6)
  .map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""
MAP_LINE = "/publico/linhas/recife/L-101/"
PHONE_CODES = os.environ.get("LOTACAO_PHONE_CODES", ",".join(CODES)).split(",")
EVERY_ROLE = os.environ.get("LOTACAO_PHONE_EVERY_ROLE") == "1"
REPORT = os.environ.get("LOTACAO_PHONE_REPORT")  # a file each problem is written to as it is found


class _Recorder:
    """A test client that remembers the pages (HTML, 200) the crawl opened through it."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.pages: list[str] = []

    def get(self, url: str) -> Any:
        response = self.client.get(url)
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            self.pages.append(url)
        return response


@pytest.fixture
def demo(transactional_db: Any, settings: Any) -> None:
    settings.LOTACAO_MAP_TILES = ""
    call_command("load_demo", "--quiet-logins", stdout=StringIO())


@pytest.fixture
def small_phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": WIDTH, "height": 844},
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        locale="pt-BR",
    )
    page = context.new_page()
    page.set_default_timeout(45_000)
    yield page
    context.close()


def _plan() -> list[tuple[str, Client, list[str]]]:
    """Per login, the pages of shapes (or (role, shape) pairs) not yet planned, found by the crawl."""
    logins: list[tuple[str, Client]] = [("público", Client())]
    for role in ROLES:
        for code in [c for c in CODES if c in PHONE_CODES]:
            client = Client()
            client.force_login(User.objects.get(username=f"{role}.{code}"))
            logins.append((f"{role}.{code}", client))
    planned: set[tuple[str, str]] = set()
    plan = []
    for name, client in logins:
        recorder = _Recorder(client)
        crawl(recorder, PUBLIC if name == "público" else ["/"])
        role = name.split(".")[0] if EVERY_ROLE else ""
        urls = []
        for url in recorder.pages:
            if (role, pattern(url)) not in planned:
                planned.add((role, pattern(url)))
                urls.append(url)
        plan.append((name, client, urls))
    return plan


def _check(page: Any, url: str, who: str) -> list[str]:
    problems = []
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    if width > inner:
        problems.append(
            f"{who} {url}: {width} px num telefone de {inner} px — {page.evaluate(WIDER_ELEMENTS, inner)}"
        )
    problems += [f"{who} {p}" for p in axe_violations(page)]
    return problems


def test_no_page_of_any_role_is_wider_than_a_phone_or_fails_axe(
    demo: None, live_server: Any, small_phone: Any, settings: Any
) -> None:
    started = time.monotonic()
    plan = _plan()
    found_at = time.monotonic()
    context = small_phone.context
    problems: list[str] = []
    opened = 0
    for name, client, urls in plan:
        context.clear_cookies()
        session = client.cookies.get(django_settings.SESSION_COOKIE_NAME)
        if session is not None:
            context.add_cookies(
                [
                    {
                        "name": django_settings.SESSION_COOKIE_NAME,
                        "value": session.value,
                        "url": live_server.url,
                    }
                ]
            )
        for url in urls:
            response = small_phone.goto(f"{live_server.url}{url}")
            assert response is not None and response.status == 200, (name, url)
            opened += 1
            found = _check(small_phone, url, name)
            if REPORT and found:
                with open(REPORT, "a", encoding="utf-8") as handle:
                    handle.write("\n".join(found) + "\n")
            problems += found
    # The line page with its map: drawn here without tiles (above, if the crawl reached it, and
    # again here), and with the agency's own tile server through Leaflet.
    context.clear_cookies()
    small_phone.goto(f"{live_server.url}{MAP_LINE}")
    small_phone.wait_for_selector("svg.line-svg")
    problems += _check(small_phone, MAP_LINE, "público, sem servidor de mapas")
    settings.LOTACAO_MAP_TILES = "/static/tiles-do-orgao/{z}/{x}/{y}.png"
    small_phone.goto(f"{live_server.url}{MAP_LINE}")
    small_phone.wait_for_selector("#line-map.leaflet-container .leaflet-control-zoom")
    problems += _check(small_phone, MAP_LINE, "público, com servidor de mapas")
    summary = (
        f"{opened} páginas abertas de {len(plan)} acessos (descoberta {found_at - started:.0f} s, "
        f"navegador {time.monotonic() - found_at:.0f} s), {len(problems)} problemas"
    )
    print(summary)
    assert opened > 100, summary
    assert not problems, summary + "\n" + "\n".join(problems[:80])


# The contrast ratio (WCAG 2.1) of an element's text colour on its own background colour.
CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b]
    .map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const style = getComputedStyle(el);
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("username", ["gestor.recife", "permissionario1.recife"])
def test_the_open_menu_button_is_readable_on_a_phone(
    phone: Any, live_server: Any, bworld: Any, sign_in: Any, username: str
) -> None:
    """Tapped open, the menu button stays under the finger (hovered): it was dark blue on dark
    blue (issue 24, defect 2)."""
    sign_in(phone, username)
    toggle = phone.locator(".menu-toggle")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    ratio = toggle.evaluate(CONTRAST)
    assert ratio >= 4.5, f"botão do menu aberto com contraste {ratio:.2f}:1"
    assert axe_violations(phone) == []
    phone.mouse.move(0, 0)
    assert toggle.evaluate(CONTRAST) >= 4.5


def test_the_notice_page_with_its_measures_form_fits_a_phone(
    phone: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    """The manager's notice page, with the "Aplicar medida" form, was 544 px wide on a 390 px
    phone: the select of measures overflowed and each "Motivo" sat beside the wrong box (issue 24,
    defect 2)."""
    notice = bworld.objects["recife"]["enforcement.infractionnotice"]
    sign_in(phone, "gestor.recife")
    phone.goto(f"{live_server.url}/fiscalizacao/autos/{notice.pk}/")
    assert phone.locator("form.enf-measure-apply select[name=kind]").count() == 1
    problems = _check(phone, phone.url, "gestor.recife")
    assert not problems, problems
    # Each field of the form stands under its own label text, within the screen.
    boxes = phone.eval_on_selector_all(
        "form.enf-measure-apply label",
        "labels => labels.map(l => { const r = l.getBoundingClientRect(); return [r.left, r.right]; })",
    )
    assert boxes and all(right <= WIDTH for _, right in boxes), boxes
    assert len({round(left) for left, _ in boxes}) == 1, boxes  # one column, not side by side
