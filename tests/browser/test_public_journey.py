"""A member of the public checks a plate (typed, as after scanning the QR code)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_a_passenger_checks_a_plate(phone: Any, live_server: Any, bworld: Any) -> None:
    person = bworld.objects["recife"]["registry.person"]
    phone.goto(f"{live_server.url}/publico/veiculos/")
    assert phone.title().startswith("Consulta de veículo")
    phone.fill("#placa", "aba-1c23")
    phone.click("button[type=submit]")
    phone.wait_for_url(f"{live_server.url}/publico/veiculos/ABA1C23/")
    text = phone.inner_text("main")
    assert "Placa ABA1C23" in text and "Recife" in text
    assert "Para reclamar" in text
    assert person.full_name not in text and person.cpf_display not in text and person.cpf not in text
    # content fits a phone screen: no horizontal scrolling
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_unknown_plate_is_reported_as_not_authorized(phone: Any, live_server: Any, bworld: Any) -> None:
    phone.goto(f"{live_server.url}/publico/veiculos/")
    phone.fill("#placa", "ZZZ9Z99")
    phone.click("button[type=submit]")
    assert "Não autorizado" in phone.inner_text("main")


def test_an_invalid_plate_gets_a_portuguese_message(phone: Any, live_server: Any, bworld: Any) -> None:
    phone.goto(f"{live_server.url}/publico/veiculos/?placa=12")
    assert "inválida" in phone.inner_text("[role=alert]")


def test_a_passenger_complains_about_a_plate_on_a_phone_and_follows_it(
    phone: Any, live_server: Any, bworld: Any
) -> None:
    """From the public home: check the plate, complain about it from its page, keep the protocol
    and the code, follow the manifestation — all on a 390 px screen, with no axe violation."""
    from tests.browser.a11y import axe_violations

    phone.goto(f"{live_server.url}/publico/")
    assert not axe_violations(phone)
    phone.fill("#placa", "aba-1c23")
    phone.click("form[action='/publico/veiculos/'] button[type=submit]")
    phone.wait_for_url(f"{live_server.url}/publico/veiculos/ABA1C23/")
    phone.click("text=fazer uma manifestação sobre este veículo")
    assert phone.input_value("#id_plate") == "ABA1C23"
    phone.check("#id_kind_0")
    phone.fill("#id_description", "O motorista não parou no ponto.")
    assert not axe_violations(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.click("main form button[type=submit]")
    protocol = phone.inner_text("#protocol")
    code = phone.inner_text("#access-code")
    assert len(protocol) == 12 and len(code) == 9
    phone.click("text=Acompanhar manifestação")
    phone.fill("#id_protocol", protocol)
    phone.fill("#id_code", code)
    phone.click("main form button[type=submit]")
    assert "aguardando análise" in phone.inner_text("#complaint-status")
    assert not axe_violations(phone)
