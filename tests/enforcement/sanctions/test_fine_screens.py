"""The fine on the notice page, its screens and its API."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from lotacao.enforcement.models import Fine
from lotacao.enforcement.sanctions import fines
from lotacao.web.agency_values import set_agency_value
from tests.enforcement.sanctions.fine_helpers import (
    BRL,
    _notice,
    _serve,
)

pytestmark = pytest.mark.django_db


def test_notice_page_shows_the_fine_and_the_holder_downloads_the_slip(world: Any, client: Any) -> None:
    fine = world.objects["recife"]["enforcement.fine"]
    client.force_login(world.users["atendente.recife"])
    page = client.get(reverse("enforcement:notice", kwargs={"pk": fine.notice_id})).content.decode()
    assert 'id="multa"' in page and "Registrar pagamento" in page and "Emitir guia" in page
    client.force_login(world.users["holder0.recife"])
    page = client.get(reverse("enforcement:fine", kwargs={"pk": fine.pk})).content.decode()
    # no slip without its charge and the agency's PIX key (issue 21): a slip must be payable
    assert "Baixar guia de pagamento" not in page and "Sem guia de pagamento por enquanto" in page
    set_agency_value(
        actor=None,
        jurisdiction=world.a,
        parameter="billing.pix",
        valid_from=dt.date(2020, 1, 1),
        value={"key": "pix@cttu.recife.pe.gov.br", "beneficiary": "CTTU", "city": "Recife"},
        cite="Ato da CTTU (teste)",
        reason="teste",
    )
    fines.sync_charge(None, fine, contested=False, on=timezone.localdate(), reason="teste")
    fine.refresh_from_db()
    page = client.get(reverse("enforcement:fine", kwargs={"pk": fine.pk})).content.decode()
    assert "Baixar guia de pagamento" in page and "Registrar pagamento" not in page
    response = client.get(reverse("enforcement:fine_slip", kwargs={"pk": fine.pk}))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert response["Content-Type"] == "application/pdf"
    assert (
        client.post(reverse("enforcement:fine", kwargs={"pk": fine.pk}), {"action": "payment"}).status_code
        == 403
    )
    for outsider in ("holder1.recife", "atendente.esteio", "holder0.esteio"):
        client.force_login(world.users[outsider])
        assert client.get(reverse("enforcement:fine_slip", kwargs={"pk": fine.pk})).status_code == 404
        assert client.get(f"/api/fines/{fine.pk}").status_code == 404


def test_screens_issue_a_fine_and_record_a_payment(world: Any, client: Any, recife: dict[str, Any]) -> None:
    notice = _serve(_notice(world.a, BRL, holder=recife["holder"]), dt.date(2025, 5, 9))
    client.force_login(world.users["atendente.recife"])
    page = client.get(reverse("enforcement:notice", kwargs={"pk": notice.pk})).content.decode()
    assert "Lançar multa" in page
    response = client.post(reverse("enforcement:fine_issue", kwargs={"pk": notice.pk}), {"reason": "lançar"})
    assert response.status_code == 302
    fine = Fine.unscoped.get(notice=notice)
    url = reverse("enforcement:fine", kwargs={"pk": fine.pk})
    refused = client.post(
        url, {"action": "payment", "paid_on": "2999-01-01", "payment_reference": "B", "reason": "x"}
    )
    assert refused.status_code == 422 and "não pode ser futura" in refused.content.decode()
    done = client.post(
        url, {"action": "payment", "paid_on": "2025-05-20", "payment_reference": "B", "reason": "x"}
    )
    assert done.status_code == 302
    fine.refresh_from_db()
    assert fine.status == Fine.Status.PAID
    offset = client.post(
        url, {"action": "offset", "on": "2025-08-01", "credit_reference": "C", "reason": "x"}
    )
    assert offset.status_code == 403  # a manager's act


def test_api_reads_and_records_a_payment(world: Any, client: Any) -> None:
    fine = world.objects["recife"]["enforcement.fine"]
    client.force_login(world.users["holder0.recife"])
    assert client.get(f"/api/fines/{fine.pk}").json()["amount"] == "100.00"
    body = {"paid_on": "2000-01-01", "payment_reference": "B"}
    assert (
        client.post(f"/api/fines/{fine.pk}/payment", body, content_type="application/json").status_code == 403
    )
    client.force_login(world.users["atendente.recife"])
    refused = client.post(f"/api/fines/{fine.pk}/payment", body, content_type="application/json")
    assert refused.status_code == 422 and "anterior à infração" in refused.json()["errors"][0]
    from lotacao.enforcement.reading import local_day

    # the infraction's day where it happened (near midnight UTC it is still the day before there)
    body["paid_on"] = local_day(fine.notice.jurisdiction, fine.notice.drawn_up_at).isoformat()
    done = client.post(f"/api/fines/{fine.pk}/payment", body, content_type="application/json")
    assert done.status_code == 200 and done.json()["status"] == "paid"
    client.force_login(world.users["atendente.esteio"])
    assert (
        client.post(f"/api/fines/{fine.pk}/payment", body, content_type="application/json").status_code == 404
    )
