"""A clerk records a failed inspection (irregularity notice with faults and a re-presentation date),
then the vehicle's re-presentation, which passes."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests import clock

pytestmark = pytest.mark.browser


def _schedule(page: Any, url: str, vehicle_pk: int, kind: str, day: dt.date) -> None:
    page.goto(f"{url}/cadastro/veiculos/{vehicle_pk}/ficha/")
    page.click("text=Agendar vistoria")
    page.select_option("#id_kind", kind)
    page.fill("#id_scheduled_for", day.isoformat())
    page.fill("#id_place", "Pátio da CTTU")
    page.click("main button[type=submit]")
    page.wait_for_selector("#result-form")


def test_clerk_records_a_failed_then_a_passed_inspection(
    page: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    from lotacao.inspections.models import Inspection, IrregularityNotice

    vehicle = bworld.objects["recife"]["registry.vehicle"]
    today = clock.today()
    sign_in(page, "atendente.recife")

    _schedule(page, live_server.url, vehicle.pk, "annual", today)
    boxes = page.query_selector_all("#result-form input[type=checkbox]")
    assert len(boxes) >= 5  # the checklist comes from the pack (Recife art. 16 and 17)
    for box in boxes[1:]:
        box.check()  # the first item is left unchecked: a fault
    page.fill("#id_faults", "Farol dianteiro queimado")
    page.fill("#id_performed_on", today.isoformat())
    page.click("#result-form button[type=submit]")
    # Recife's law fixes no re-presentation deadline: the screen asks for the date
    assert "informe a data de reapresentação" in page.inner_text("[role=alert]")
    page.fill("#id_representation_due", (today + dt.timedelta(days=10)).isoformat())
    for box in page.query_selector_all("#result-form input[type=checkbox]")[1:]:
        box.check()
    page.fill("#id_faults", "Farol dianteiro queimado")
    with page.expect_navigation():
        page.click("#result-form button[type=submit]")
    assert "Reprovada" in page.inner_text("#inspection-status")
    body = page.inner_text("main")
    assert "Farol dianteiro queimado" in body and "Notificação de irregularidade" in body
    notice = (
        IrregularityNotice.objects.filter(vehicle=vehicle, resolved_on__isnull=True).order_by("-pk").first()
    )
    assert notice is not None and "Farol dianteiro queimado" in notice.faults

    _schedule(page, live_server.url, vehicle.pk, "representation", today)
    for box in page.query_selector_all("#result-form input[type=checkbox]"):
        box.check()
    page.fill("#id_performed_on", today.isoformat())
    with page.expect_navigation():
        page.click("#result-form button[type=submit]")
    assert "Aprovada" in page.inner_text("#inspection-status"), page.inner_text("main")
    notice.refresh_from_db()
    assert notice.resolved_on == today
    assert Inspection.objects.filter(vehicle=vehicle, kind="representation", status="passed").exists()
