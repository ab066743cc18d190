"""The demo holder's journey on a 390 px phone (issue 21, "Done when"), in Recife and Maricá: sign
in with the demo password, land on the portal, read what to do and what is owed (in R$), file a
request and find its protocol on the home, report an incident (protocol, deadline, article), and
open a slip whose PIX "copia e cola" is a valid BR Code (CRC16-CCITT, amount of field 54 equal to
the total shown). Every page fits the screen and has no serious or critical axe violation."""

from __future__ import annotations

import datetime as dt
import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from lotacao.demo.documents import pdf_bytes
from tests.browser.a11y import axe_violations, shot
from tests.portal.brcode import check_pix, reais

pytestmark = pytest.mark.browser

DEMO_PASSWORD = "lotacao-demo"
WIDTH = 390
# The elements that stick out of the screen (tag#id.class right edge), to name them on failure.
WIDER_ELEMENTS = """(width) => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > width + 1).slice(0, 8)
  .map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""


@pytest.fixture
def demo_world(transactional_db: Any) -> None:
    call_command("load_demo", "--quiet-logins", stdout=StringIO())


def check_page(phone: Any, name: str) -> None:
    width = phone.evaluate("document.documentElement.scrollWidth")
    wide = phone.evaluate(WIDER_ELEMENTS, WIDTH) if width > WIDTH else []
    assert width <= WIDTH, f"{phone.url}: {width} px num telefone de {WIDTH} px, {wide}"
    assert not axe_violations(phone), axe_violations(phone)
    shot(phone, name)


@pytest.mark.parametrize("code", ["recife", "marica"])
def test_the_demo_holder_does_everything_on_a_phone(
    demo_world: None, live_server: Any, phone: Any, code: str
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    # 1. sign in: the holder's home is their portal
    phone.goto(f"{base}/conta/entrar/")
    check_page(phone, f"jornada-{code}-entrar")
    phone.fill("#id_username", f"permissionario.{code}")
    phone.fill("#id_password", DEMO_PASSWORD)
    with phone.expect_navigation():
        phone.click("button[type=submit]")
    assert phone.url == f"{base}/portal/"

    # 2. what to do and until when, and what is owed in R$
    expect(phone.locator("#prazos-titulo")).to_have_text("O que fazer e até quando")
    assert phone.locator("#prazos li").count() > 0
    expect(phone.locator("#debitos-titulo")).to_have_text("O que devo")
    expect(phone.locator("#debitos .portal-total")).to_contain_text("R$")
    expect(phone.locator("#debitos .portal-amount").first).to_contain_text("R$")
    check_page(phone, f"jornada-{code}-inicio")

    # 3. a request: a document sent for review (an inspection waits for the debts to be paid)
    phone.click("#pedidos >> text=Fazer um pedido")
    phone.wait_for_url(f"{base}/requerimentos/")
    check_page(phone, f"jornada-{code}-requerimentos")
    phone.goto(f"{base}/requerimentos/novo/documento/")
    expect(phone.locator("h1")).to_have_text("Enviar documento para análise")
    phone.select_option("#id_code", index=0)
    phone.set_input_files(
        "#id_file",
        files=[{"name": "certidao.pdf", "mimeType": "application/pdf", "buffer": pdf_bytes("Certidão")}],
    )
    today = dt.date.fromisoformat(phone.evaluate("new Date().toLocaleDateString('sv-SE')"))
    phone.fill("#id_issued_on", (today - dt.timedelta(days=2)).isoformat())
    phone.fill("#id_valid_until", (today + dt.timedelta(days=90)).isoformat())
    check_page(phone, f"jornada-{code}-documento")
    with phone.expect_navigation():
        phone.click("button[type=submit] >> text=Protocolar o pedido")
    message = phone.locator("text=/Pedido protocolado sob o nº/")
    expect(message).to_be_visible()
    protocol = re.search(r"nº (\S+?)\.", message.inner_text())
    assert protocol, message.inner_text()
    check_page(phone, f"jornada-{code}-pedido")
    phone.goto(f"{base}/portal/")
    expect(phone.locator("#pedidos")).to_contain_text(protocol.group(1))

    # 4. an incident report: its protocol, deadline and article
    phone.click("#pedidos >> text=Comunicar um acidente ou uma ocorrência")
    phone.wait_for_url(f"{base}/deveres/ocorrencias/nova/")
    check_page(phone, f"jornada-{code}-ocorrencia-form")
    phone.check("input[name=natureza][value=incident]")
    phone.fill("#data", today.isoformat())
    phone.fill("#hora", "00:01")
    phone.fill("#local", "Avenida principal, em frente ao terminal")
    phone.fill("#descricao", "Pneu furado; os passageiros seguiram no veículo seguinte da linha.")
    with phone.expect_navigation():
        phone.click("button[type=submit] >> text=Registrar comunicação")
    expect(phone.locator("h1")).to_contain_text("Comunicação ")
    heading = phone.locator("h1").inner_text()
    incident = heading.removeprefix("Comunicação ").strip()
    assert incident, heading
    expect(phone.locator("text=/Comunicação registrada: protocolo/")).to_contain_text(incident)
    fields = phone.locator("dl.fields")
    expect(fields).to_contain_text("Prazo da comunicação")
    assert re.search(r"\d{2}/\d{2}/\d{4}", fields.inner_text()), fields.inner_text()
    expect(fields).to_contain_text("art.")
    check_page(phone, f"jornada-{code}-ocorrencia")

    # 5. a slip: PIX "copia e cola", a valid BR Code for the total shown
    phone.goto(f"{base}/portal/")
    pay = phone.locator("#debitos a.button", has_text="Pagar com PIX").first
    expect(pay).to_be_visible()
    with phone.expect_navigation():
        pay.click()
    pix = phone.locator("#pix")
    expect(pix).to_be_visible()
    payload = pix.inner_text().strip()
    total = reais(phone.locator("text=/Total:/").inner_text())
    check_page(phone, f"jornada-{code}-guia")
    check_pix(payload, total)
