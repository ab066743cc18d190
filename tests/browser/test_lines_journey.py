"""A clerk draws a line and its stops, writes a service order, sees the law's refusal with its
article and fixes it; a passenger opens the van's line from the plate check on a phone."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from lotacao.councils.testing import resolution_for
from tests import clock
from tests.browser.a11y import axe_violations

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def no_tiles(settings: Any) -> None:
    settings.LOTACAO_MAP_TILES = ""  # no tile server in the tests: the map draws on a blank ground


def _click_map(page: Any, points: list[tuple[int, int]]) -> None:
    for x, y in points:
        page.click("#line-map", position={"x": x, "y": y})


def test_clerk_draws_a_line_and_writes_an_order_refused_then_fixed(
    page: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    from lotacao.lines import services
    from lotacao.lines.models import LineVersion

    sign_in(page, "atendente.recife")
    page.goto(f"{live_server.url}/linhas/nova/")
    page.fill("#id_code", "N-22")
    page.fill("#id_name", "Noturna Ibura — Derby")
    page.select_option("#id_shape", "radial")
    page.check("input[name=grounds][value=geographic]")
    page.fill("#id_origin", "Ibura")
    page.fill("#id_destination", "Derby")
    page.fill("#id_study", "Estudo de viabilidade nº 9/2025")
    page.fill("#id_reason", "Criação da linha noturna")
    page.click("[data-map-mode=path]")
    _click_map(page, [(120, 300), (300, 220), (520, 140)])
    page.click("[data-map-mode=stops]")
    _click_map(page, [(120, 300), (520, 140)])
    page.fill("#stop-list li:nth-child(2) .stop-name", "Terminal do Derby")
    assert "3 pontos no itinerário, 2 paradas" in page.inner_text("#map-counts")
    page.click("#version-form button[type=submit]")
    alert = page.inner_text("[role=alert]")
    assert "Linha radial vedada" in alert and "art. 4º, parágrafo único" in alert
    # the drawing survived the refusal; a night line on temporal grounds is allowed
    assert "2 paradas" in page.inner_text("#map-counts")
    page.uncheck("input[name=grounds][value=geographic]")
    page.check("input[name=grounds][value=temporal]")
    page.fill("#id_reason", "Criação da linha noturna")
    with page.expect_navigation():
        page.click("#version-form button[type=submit]")
    assert "Sem versão aprovada" in page.inner_text("#line-status")
    version = LineVersion.objects.get(line__code="N-22")
    assert [s.name for s in version.stops.order_by("sequence")] == ["Ponto 1", "Terminal do Derby"]
    today = clock.today()
    services.approve_version(  # the manager records the CMTT's resolution
        actor=None,
        version=version,
        act="Resolução CMTT nº 4/2025",
        approved_on=today,
        valid_from=today,
        reason="Aprovação",
        resolution=resolution_for("recife", "line.create", today),
    )
    fleet = resolution_for("recife", "fleet.change", today)

    page.goto(f"{live_server.url}/linhas/{version.line_id}/ordem/")
    page.select_option("#id_p0_day", "weekday")
    page.fill("#id_p0_first", "21:30")
    page.fill("#id_p0_last", "04:00")
    page.fill("#id_p0_headway", "20")
    # checked as the clerk types, before any submit
    page.locator("#order-checks li.error", has_text="art. 1º, § 3º").wait_for()
    assert "21:30–04:00 (dia seguinte) fora do período de 22:00 às 04:00" in page.inner_text("#order-checks")
    page.fill("#id_act", "OSO nº 1/2025")
    page.fill("#id_reason", "Primeira OSO")
    page.click("#order-form button[type=submit]")
    assert "art. 1º, § 3º" in page.inner_text("[role=alert]")
    page.fill("#id_p0_first", "22:00")
    page.wait_for_selector("#order-checks li.ok")
    page.fill("#id_reason", "Primeira OSO")
    page.select_option("#id_resolution", str(fleet.pk))
    with page.expect_navigation():
        page.click("#order-form button[type=submit]")
    body = page.inner_text("main")
    assert (
        "Ordem de Serviço de Operação (OSO) em vigor" in body
        and "a cada 20 minutos, até 04:00 (dia seguinte)" in body
    )


def test_a_passenger_opens_the_line_from_the_plate_check(
    phone: Any, live_server: Any, bworld: Any, settings: Any
) -> None:
    from lotacao.lines import places, services
    from lotacao.permits.models import Permit
    from tests.lines.conftest import version_kwargs

    line = bworld.objects["recife"]["registry.line"]
    vehicle = bworld.objects["recife"]["registry.vehicle"]
    start = clock.today() - dt.timedelta(days=10)
    version = services.draft_version(actor=None, line=line, on=start, **version_kwargs("recife"))
    services.approve_version(
        actor=None,
        version=version,
        act="Resolução CMTT nº 1",
        approved_on=start,
        valid_from=start,
        reason="t",
        resolution=resolution_for("recife", "line.create", start),
    )
    services.issue_service_order(
        actor=None,
        line=line,
        valid_from=start,
        fleet=1,
        trip_minutes=30,
        act="OSO 1",
        reason="t",
        periods=[{"day_type": "weekday", "first": 360, "last": 1200, "headway": 15}],
        resolution=resolution_for("recife", "fleet.change", start),
    )
    permit = Permit.objects.filter(vehicle=vehicle, status__in=Permit.LIVE).first()
    if permit is None:
        permit = Permit.objects.create(
            jurisdiction=bworld.a,
            holder=vehicle.holder,
            vehicle=vehicle,
            status="active",
            number="0001/2025",
            applied_on=start,
            granted_on=start,
            valid_until=start + dt.timedelta(days=2000),
        )
    Permit.objects.filter(pk=permit.pk).update(line=line)
    permit.refresh_from_db()
    places.assign_place(actor=None, permit=permit, line=line, starts_on=start, reason="t")

    phone.goto(f"{live_server.url}/publico/veiculos/ABA1C23/")
    with phone.expect_navigation():
        phone.click(f"text={line.code} — {line.name}")
    assert phone.url.endswith(f"/publico/linhas/recife/{line.code}/")
    phone.wait_for_selector("svg.line-svg")  # no tile server: drawn here, no third party asked
    assert axe_violations(phone) == []
    text = phone.inner_text("main")
    assert "Terminal Bairro" in text and "a cada 15 minutos" in text
    person = bworld.objects["recife"]["registry.person"]
    assert person.full_name not in text and person.cpf not in text
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # With the agency's own tile server the page loads Leaflet, and still no nested interactive
    # controls (the zoom buttons once sat inside a role="img").
    settings.LOTACAO_MAP_TILES = "/static/tiles-do-orgao/{z}/{x}/{y}.png"
    phone.goto(f"{live_server.url}/publico/linhas/recife/{line.code}/")
    phone.wait_for_selector("#line-map.leaflet-container .leaflet-control-zoom")
    assert phone.locator("svg.line-svg").count() == 0
    assert axe_violations(phone) == []
