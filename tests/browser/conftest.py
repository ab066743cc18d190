"""Browser tests: real headless Chromium (Debian's, installed by .ci/run) driven by Playwright.

Fixtures: `browser` (one Chromium per session), `page` (desktop), `phone` (a phone-sized page),
`bworld` (the shared test world, committed so the live server sees it) and `sign_in`.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.conftest import World, _make_world

# Playwright's sync API runs an event loop in this thread; the ORM calls the fixtures make
# (outside any request) are safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("LOTACAO_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
PASSWORD = "senha-de-teste-123"

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(items: list[Any]) -> None:
    if os.path.exists(CHROMIUM):
        return
    skip = pytest.mark.skip(
        reason=f"Chromium não encontrado em {CHROMIUM} (o .ci/run instala o pacote chromium)"
    )
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="pt-BR",
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def bworld(transactional_db: Any) -> World:
    return _make_world()


@pytest.fixture
def sign_in(live_server: Any) -> Callable[[Any, str], None]:
    def _sign_in(page: Any, username: str) -> None:
        page.goto(f"{live_server.url}/conta/entrar/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        # staff land on the home page; a holder's home is their portal (issue 21)
        page.wait_for_url(re.compile(rf"^{re.escape(live_server.url)}/(portal/)?$"))

    return _sign_in
