"""The notice's fine and the holder's charges tell one story (issue 24, defect 7: Recife's
AI-2026-000002 showed "Guias emitidas 0" and no due date while /cobranca/ listed its slip).

The Charge a fine creates is the first slip the holder sees, so it is counted; a defense that
postpones the due date with no new one (Recife art. 36, § 2º) cancels that open slip instead of
leaving it on the charges page with the old date; the decision's date gets a new slip."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.urls import reverse

from lotacao.billing.models import Charge
from lotacao.enforcement.sanctions import fine_payment, fines
from tests.enforcement.sanctions.fine_helpers import BRL, _decision, _filing, _notice, _serve

pytestmark = pytest.mark.django_db


def _field(page: str, label: str) -> str:
    found = re.search(rf"<dt>{label}</dt><dd>(.*?)</dd>", page, re.S)
    assert found, f"{label} not on the page"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def _open_charges(holder: Any) -> list[Charge]:
    return list(Charge.unscoped.filter(holder=holder, cancelled=False, paid_on__isnull=True, kind="fine"))


def test_the_fine_counts_the_charge_it_created_as_its_first_slip(
    world: Any, client: Any, recife: dict[str, Any]
) -> None:
    notice = _serve(_notice(recife["j"], BRL, holder=recife["holder"]), dt.date(2025, 5, 9))
    fine = fines.issue_fine(actor=None, notice=notice, reason="lançamento", today=dt.date(2025, 5, 9))
    assert fine is not None and fine.charge_id is not None
    assert fine.slip_count == 1  # the slip the holder already sees in their charges
    client.force_login(world.users["atendente.recife"])
    page = client.get(reverse("enforcement:notice", kwargs={"pk": notice.pk})).content.decode()
    assert _field(page, "Guias emitidas") == "1"
    assert _field(page, "Vencimento") == fine.due_on.strftime("%d/%m/%Y")  # type: ignore[union-attr]
    # printing the same slip again is not a second slip
    fine_payment.issue_slip(actor=None, fine=fine, reason="segunda via", today=dt.date(2025, 5, 12))
    fine.refresh_from_db()
    assert fine.slip_count == 1 and len(_open_charges(recife["holder"])) == 1


def test_a_postponed_due_date_leaves_no_open_slip_with_the_old_date(
    world: Any, client: Any, recife: dict[str, Any]
) -> None:
    holder = recife["holder"]
    notice = _serve(_notice(recife["j"], BRL, holder=holder), dt.date(2025, 5, 9))
    fine = fines.issue_fine(actor=None, notice=notice, reason="lançamento", today=dt.date(2025, 5, 9))
    assert fine is not None
    first = Charge.unscoped.get(pk=fine.charge_id)
    filing = _filing(notice, "defense", "2025-05-20")
    fine = fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 5, 20))
    assert fine is not None and fine.due_on is None
    first.refresh_from_db()
    assert first.cancelled and fine.charge_id is None and _open_charges(holder) == []
    client.force_login(world.users["atendente.recife"])
    page = client.get(reverse("enforcement:notice", kwargs={"pk": notice.pk})).content.decode()
    assert _field(page, "Vencimento") == "ainda não definido"
    assert _field(page, "Guias emitidas") == "1"

    served = dt.date(2025, 6, 16)
    decision = _decision(notice, "defense", "2025-06-10", "upheld", filing=filing, served_on=served)
    assert decision.served_on == dt.date(2025, 6, 16)
    fine = fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 6, 16))
    assert fine is not None and fine.due_on == dt.date(2025, 6, 16)
    (second,) = _open_charges(holder)
    assert second.pk != first.pk and second.due_on == fine.due_on and fine.slip_count == 2
    page = client.get(reverse("enforcement:notice", kwargs={"pk": notice.pk})).content.decode()
    assert _field(page, "Guias emitidas") == "2" and _field(page, "Vencimento") == "16/06/2025"
