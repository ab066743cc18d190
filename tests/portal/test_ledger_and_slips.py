"""Issue 21, Maricá: one ledger (the fine in UFIMA is listed wherever debts are), no slip without a
real amount and a working PIX BR Code, no month slip of R$ 0,00, and the appeal's requirement
(art. 70, parágrafo único) said before any typing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from lotacao.billing.models import Charge
from lotacao.billing.payments import pix
from lotacao.enforcement.models import Filing
from lotacao.enforcement.sanctions.fines_pdf import slip_html
from tests.portal.conftest import make_marica

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    main = html[html.find("<main") : html.find("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def test_a_fine_in_ufima_without_its_value_is_in_my_charges_with_no_slip(marica: Any, client: Any) -> None:
    assert marica.fine is not None and marica.fine.charge_id is None  # no value in R$: no Charge
    client.force_login(marica.user)
    page = _text(client.get(reverse("billing:ledger", args=[marica.holder.pk])).content.decode())
    assert "Nenhuma cobrança" not in page
    assert "Multa do auto de infração AI-2026-000003 (2 UFIMA)" in page
    assert "ainda não publicou o valor da UFIMA" in page and "art. 51" in page
    assert "Guia com PIX" not in page and "Guia do mês" not in page


def test_the_fine_offers_no_slip_while_the_ufima_value_is_unpublished(marica: Any, client: Any) -> None:
    client.force_login(marica.user)
    notice_page = client.get(reverse("enforcement:notice", args=[marica.notice.pk])).content.decode()
    assert "Baixar guia" not in notice_page
    assert "ainda não publicou o valor da UFIMA" in notice_page
    response = client.get(reverse("enforcement:fine_slip", kwargs={"pk": marica.fine.pk}))
    assert response["Content-Type"].startswith("text/html")  # a page saying why, never a PDF
    assert "ainda não publicou o valor da UFIMA" in response.content.decode()


def test_the_fine_slip_carries_a_pix_br_code_and_its_value_in_reais(db: Any, client: Any) -> None:
    marica = make_marica(ufima=True, pix=True)
    charge = Charge.unscoped.get(pk=marica.fine.charge_id)
    assert charge.amount == 300  # 2 UFIMA × R$ 150,00
    html = slip_html(marica.fine, on=marica.today)
    assert "nº 0" not in html and f"nº {charge.slip_code}" in html
    assert "R$\xa0300,00" in html
    code = re.search(r'<p class="pix"[^>]*>([^<]+)</p>', html)  # the code's own line
    assert code is not None and pix.is_valid(code.group(1))
    assert pix.txid(code.group(1)) == charge.slip_code and "5406300.00" in code.group(1)
    client.force_login(marica.user)
    page = client.get(reverse("enforcement:notice", args=[marica.notice.pk])).content.decode()
    assert "Baixar guia de pagamento" in page
    response = client.get(reverse("enforcement:fine_slip", kwargs={"pk": marica.fine.pk}))
    assert response["Content-Type"] == "application/pdf"


def test_no_slip_is_offered_without_the_agency_pix_key(db: Any, client: Any) -> None:
    marica = make_marica(ufima=True, pix=False)
    client.force_login(marica.user)
    page = client.get(reverse("enforcement:notice", args=[marica.notice.pk])).content.decode()
    assert "Baixar guia" not in page and "chave PIX" in page
    ledger = _text(client.get(reverse("billing:ledger", args=[marica.holder.pk])).content.decode())
    assert "Guia com PIX" not in ledger and "chave PIX" in ledger


def test_no_month_slip_of_zero_reais(marica: Any, client: Any) -> None:
    client.force_login(marica.user)
    response = client.get(reverse("billing:month_slip", args=[marica.holder.pk]))
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "Nenhuma cobrança em aberto" in body and "R$\xa00,00" not in body


def test_the_appeal_form_says_first_that_the_fine_must_be_paid_for_judgment(marica: Any, client: Any) -> None:
    # Maricá art. 70, p.ú., read with art. 75: the appeal is filed in time and judged once the fine
    # is paid within 30 days (deserted otherwise) — said before the holder types anything.
    client.force_login(marica.user)
    url = reverse("enforcement:filing_create", args=[marica.notice.pk])
    notice_page = client.get(reverse("enforcement:notice", args=[marica.notice.pk])).content.decode()
    assert "Condição para o julgamento" in notice_page and f'href="{url}"' in notice_page
    page = client.get(url).content.decode()
    condition = _text(page)[_text(page).find("Condição para o julgamento") :]
    condition = condition[: condition.find("Protocolar")]
    assert "só será julgado se a multa for paga até" in condition and "deserção" in condition
    assert condition.count("art. 70, parágrafo único") == 1, condition
    assert "<textarea" in page and "Protocolar</button>" in page
    client.post(url, {"text": "Razões do recurso"})
    filing = Filing.objects.get(notice=marica.notice)
    assert "deserção" in filing.due_explanation
