"""A slip issued before an appeal (issue 11): its link stays on the notice and its address says why
there is no slip now — not a bare 404 beside a page that says the appeal does not block clearance."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from lotacao.enforcement.models import Fine
from lotacao.enforcement.sanctions import fine_payment, fines
from tests.enforcement.sanctions.fine_helpers import _esteio_fine, _filing, _ufrm

pytestmark = pytest.mark.django_db


def test_the_slip_address_explains_a_fine_on_hold_after_an_appeal(world: Any, client: Any) -> None:
    _ufrm(world)
    fine = _esteio_fine(world, dt.date(2025, 6, 10), served=dt.date(2025, 5, 7))
    fine_payment.issue_slip(actor=None, fine=fine, reason="guia", today=dt.date(2025, 5, 8))
    _filing(fine.notice, "appeal", "2025-05-20")
    fine = fines.sync_fine(actor=None, notice=fine.notice, on=dt.date(2025, 6, 11))
    assert fine is not None and fine.status == Fine.Status.SUSPENDED and fine.slip_count > 0
    client.force_login(world.users["holder0.esteio"])
    page = client.get(reverse("enforcement:notice", kwargs={"pk": fine.notice_id})).content.decode()
    slip = reverse("enforcement:fine_slip", kwargs={"pk": fine.pk})
    assert f'href="{slip}"' in page and "a guia fica suspensa até a decisão" in page
    response = client.get(slip)
    body = response.content.decode()
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert "Não há guia de pagamento para esta multa agora" in body
    assert reverse("enforcement:notice", kwargs={"pk": fine.notice_id}) in body
    client.force_login(world.users["holder0.recife"])  # another holder still meets a 404
    assert client.get(slip).status_code == 404
