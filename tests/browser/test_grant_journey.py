"""A clerk registers a person and a vehicle, then grants a permit through the guided flow.

The holder's document file is H5's journey; here it is taken as complete (document_check faked)
so that this journey exercises registration, eligibility, quotas and the grant itself.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from lotacao.core.demo import _cpf

pytestmark = pytest.mark.browser


class _Complete:
    complete = True
    missing: list[str] = []
    expired: list[str] = []
    pending: list[str] = []
    citations: list[str] = []
    labels: dict[str, str] = {}
    explanation: list[str] = []
    missing_parameters: list[str] = []


def test_clerk_registers_person_and_vehicle_and_grants_a_permit(
    page: Any, live_server: Any, bworld: Any, sign_in: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lotacao.permits.models import Permit

    monkeypatch.setattr("lotacao.documents.selectors.document_check", lambda **kw: _Complete())
    url = live_server.url
    cpf = _cpf(777_000_001)
    sign_in(page, "atendente.recife")

    page.goto(f"{url}/cadastro/pessoas/nova/")
    page.fill("#id_cpf", cpf)
    page.fill("#id_full_name", "Severino Ramos da Silva")
    page.fill(
        "#id_birth_date",
        "1979-05-20" if page.get_attribute("#id_birth_date", "type") == "date" else "20/05/1979",
    )
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert "Severino Ramos da Silva" in page.inner_text("main")

    page.goto(f"{url}/cadastro/veiculos/novo/")
    page.fill("#id_plate", "KLM4N56")
    page.fill("#id_manufacture_year", str(dt.date.today().year - 2))
    page.select_option("#id_category", "van")
    page.fill("#id_seats", "16")
    page.fill("#id_doors", "4")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert "KLM" in page.inner_text("main")

    page.goto(f"{url}/permissoes/nova/")
    page.fill("#id_cpf", cpf)
    page.fill("#id_reason", "Requerimento no balcão")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    body = page.inner_text("main")
    assert "Requerente apto" in body, body
    page.select_option("#id_line", label=bworld.objects["recife"]["registry.line"].__str__())
    page.fill("#id_plate", "KLM-4N56")
    page.fill("#id_reason", "Outorga após verificação dos requisitos")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    body = page.inner_text("main")
    permit = Permit.objects.get(holder__person__cpf=cpf)
    assert permit.status == "active" and permit.vehicle is not None and permit.vehicle.plate == "KLM4N56"
    assert f"Permissão nº {permit.number} outorgada" in body and "Ativa" in body
    assert page.get_attribute("text=Termo de permissão (PDF)", "href") == f"/permissoes/{permit.pk}/termo.pdf"
