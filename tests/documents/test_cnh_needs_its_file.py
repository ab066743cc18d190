"""Typing a CNH's number and validity does not make it valid (issue 24, defect 10): the person's
page said "Válido" with no file uploaded and no review. Now it waits for the file, then for the
review; and eligibility (the grant's documents check) reads the same."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from lotacao.documents.models import Document
from lotacao.permits.eligibility import check_eligibility
from tests.clock import days_from_today, today
from tests.documents.test_check import _doc


def _cnh_state(client: Client, person: Any) -> str:
    html = client.get(f"/cadastro/pessoas/{person.pk}/").content.decode()
    row = re.search(r'<tr class="doc-[a-z_]+">\s*<td>Carteira Nacional de Habilitação.*?</tr>', html, re.S)
    assert row, html[:3000]
    return re.findall(r"<td>(.*?)</td>", row.group(0), re.S)[1].strip()


def _cnh_blocks(holder: Any) -> list[str]:
    found = check_eligibility(holder=holder, on=today())
    return [r.code for r in found.reasons if r.document == "cnh"]


def test_a_typed_cnh_waits_for_its_file_then_for_review(world: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    holder = world.objects["recife"]["registry.holder"]
    person.cnh_number, person.cnh_category, person.cnh_expiry = "12345678900", "D", days_from_today(400)
    person.save()
    client = Client()
    client.force_login(world.users["atendente.recife"])

    assert _cnh_state(client, person) == "Aguardando arquivo"
    assert _cnh_blocks(holder) == ["document_missing"]

    doc = _doc(person, "cnh", status="pendente")
    assert _cnh_state(client, person) == "Aguardando análise"
    assert _cnh_blocks(holder) == ["document_pending"]

    Document.objects.filter(pk=doc.pk).update(status="recusado")
    assert _cnh_state(client, person) == "Recusado"
    assert _cnh_blocks(holder) == ["document_missing"]

    Document.objects.filter(pk=doc.pk).update(status="aceito")
    assert _cnh_state(client, person) == "Válido"
    assert _cnh_blocks(holder) == []

    person.cnh_expiry = days_from_today(-1)  # an accepted file does not outlive the CNH's validity
    person.save()
    assert _cnh_state(client, person) == "Vencido"
    assert _cnh_blocks(holder) == ["document_expired"]


def test_the_upload_form_offers_the_cnh(world: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    client = Client()
    client.force_login(world.users["atendente.recife"])
    page = client.get(f"/documentos/pessoa/{person.pk}/novo/?tipo=cnh")
    assert page.status_code == 200
    assert 'value="cnh"' in page.content.decode()
