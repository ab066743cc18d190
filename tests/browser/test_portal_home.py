"""The holder's home on a 390 px phone (issue 21): Maricá's holder signs in and lands on the
portal, reads the appeal deadline and the fine in UFIMA that has no value in R$ yet (so no slip),
with nothing wider than the screen and no serious accessibility violation (axe-core)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.a11y import axe_violations, shot
from tests.portal.conftest import make_marica

pytestmark = pytest.mark.browser


def test_the_holder_home_reads_on_a_phone(bworld: Any, live_server: Any, phone: Any, sign_in: Any) -> None:
    from playwright.sync_api import expect

    marica = make_marica()
    sign_in(phone, marica.user.username)
    assert phone.url == f"{live_server.url}/portal/"
    expect(phone.locator("#prazos")).to_contain_text("Recurso contra o auto AI-2026-000003")
    expect(phone.locator("#prazos")).to_contain_text("art. 70, parágrafo único")
    expect(phone.locator("#debitos")).to_contain_text("valor em reais ainda não publicado")
    assert phone.locator("#debitos a.button").count() == 0  # no slip without a value in R$
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"a página tem {width} px de largura num telefone de 390 px"
    shot(phone, "portal-home-390")
    assert not axe_violations(phone), axe_violations(phone)
    with phone.expect_navigation():
        phone.click("#prazos >> text=Recurso contra o auto AI-2026-000003")
    expect(phone.locator("#condicao")).to_contain_text("Condição para o julgamento")
