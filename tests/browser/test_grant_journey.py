"""A clerk registers a person and a vehicle, then grants a permit through the guided flow.

Between registering the person and applying, the documents the law requires (Recife art. 7)
are received and accepted through the documents services, as the counter would; the grant's
eligibility then checks the real file.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from lotacao.core.sample_ids import sample_cpf
from tests import clock

pytestmark = pytest.mark.browser


def _deliver_required_documents(cpf: str) -> None:
    """Upload and accept every document Recife requires of a holder (art. 7), valid for a year
    (the CNH's file included: its typed number and validity alone are not a valid document)."""
    from django.core.files.base import ContentFile

    from lotacao.demo.documents import pdf_bytes
    from lotacao.documents import services
    from lotacao.documents.rules import requirements
    from lotacao.registry.models import Person

    person = Person.objects.get(jurisdiction_id="recife", cpf=cpf)
    today = clock.today()
    for item in requirements("recife", "holder", today).items:
        # the CNH too: typed on the form, valid only with its file, reviewed (issue 24)
        document = services.upload_document(
            actor=None,
            person=person,
            code=item.code,
            file=ContentFile(pdf_bytes(item.label), name="doc.pdf"),
            issued_on=today - dt.timedelta(days=5),
            valid_until=today + dt.timedelta(days=365) if item.expires else None,
            reason="Entregue no balcão",
        )
        services.review_document(actor=None, document=document, accepted=True)


def test_clerk_registers_person_and_vehicle_and_grants_a_permit(
    page: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    from lotacao.permits.models import Permit

    url = live_server.url
    cpf = sample_cpf(777_000_001)
    sign_in(page, "atendente.recife")

    page.goto(f"{url}/cadastro/pessoas/nova/")
    page.fill("#id_cpf", cpf)
    page.fill("#id_full_name", "Severino Ramos da Silva")
    page.fill(
        "#id_birth_date",
        "1979-05-20" if page.get_attribute("#id_birth_date", "type") == "date" else "20/05/1979",
    )
    page.fill("#id_cnh_number", "12345678900")
    page.select_option("#id_cnh_category", "D")
    expiry = clock.today() + dt.timedelta(days=900)
    page.fill(
        "#id_cnh_expiry",
        expiry.isoformat()
        if page.get_attribute("#id_cnh_expiry", "type") == "date"
        else f"{expiry:%d/%m/%Y}",
    )
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert "Severino Ramos da Silva" in page.inner_text("main")

    _deliver_required_documents(cpf)

    page.goto(f"{url}/cadastro/veiculos/novo/")
    page.fill("#id_plate", "KLM4N56")
    page.fill("#id_manufacture_year", str(clock.today().year - 2))
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
