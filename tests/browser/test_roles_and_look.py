"""Each role on a phone (390×844) and a desktop: the gov.br frame, the menu shaped by role (collapsed
behind a button on the phone), every menu link opening, the manager's charts, and WCAG 2.1 AA
checked by axe-core on the main pages of each role and the public pages (issue 11, items 5, 8, 9
and 10). Screenshots are kept under var/screenshots (see tests/browser/a11y.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.a11y import axe_violations, shot

pytestmark = pytest.mark.browser

PHONE_WIDTH = 390


@pytest.fixture(autouse=True)
def patient(request: Any) -> None:
    """These tests open many pages in a row; on a loaded machine a page may take longer than the
    shared fixtures' 15 s."""
    for name in ("page", "phone"):
        if name in request.fixturenames:
            request.getfixturevalue(name).set_default_timeout(45_000)


def _pages(world: Any) -> dict[str, list[str]]:
    """The main pages of each role in the test world (Recife): home, a list, a detail, a form."""
    o = world.objects["recife"]
    return {
        "gestor.recife": [
            "/",
            "/permissoes/",
            f"/permissoes/{o['permits.permit'].pk}/",
            "/cadastro/pessoas/nova/",
            "/lei/",
            "/cobranca/fundos/",
        ],
        "atendente.recife": [
            "/",
            "/fila/",
            f"/cadastro/pessoas/{o['registry.person'].pk}/",
            f"/fiscalizacao/autos/{o['enforcement.infractionnotice'].pk}/defesa/",
        ],
        "fiscal.recife": [
            "/",
            "/fiscalizacao/autos/",
            f"/fiscalizacao/autos/{o['enforcement.infractionnotice'].pk}/",
            "/fiscalizacao/autos/novo/",
        ],
        "comissao.recife": [
            "/",
            "/fiscalizacao/julgamento/",
            f"/fiscalizacao/defesas/{o['enforcement.filing'].pk}/",
            f"/fiscalizacao/julgamento/sessoes/{o['enforcement.session'].pk}/",
        ],
        "permissionario0.recife": [
            "/",
            "/fiscalizacao/autos/",
            f"/cobranca/permissionario/{o['registry.holder'].pk}/",
        ],
        "permissionario1.recife": ["/", "/permissoes/"],
        "ouvidor.recife": [
            "/",
            "/ouvidoria/fila/",
            f"/ouvidoria/{o['ombudsman.complaint'].pk}/",
            "/ouvidoria/nova/",
        ],
    }


def _menu_hrefs(page: Any) -> list[str]:
    hrefs = page.eval_on_selector_all("#menu-principal a", "links => links.map(a => a.getAttribute('href'))")
    return [str(href) for href in hrefs]


def test_main_pages_of_each_role_have_no_serious_accessibility_violation(
    page: Any, phone: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    found: list[str] = []
    # The public plate check, a vehicle's answer, the lines page and the login page, signed out.
    plate = bworld.objects["recife"]["registry.vehicle"].plate
    for path in (
        "/publico/veiculos/",
        f"/publico/veiculos/{plate}/",
        "/publico/linhas/recife/",
        "/publico/",
        "/publico/recife/",
        "/publico/linhas/",
        "/publico/manifestacao/",
        "/publico/manifestacao/acompanhar/",
        "/publico/ouvidoria/recife/",
        "/dados/",
        "/conta/entrar/",
    ):
        for device in (page, phone):
            response = device.goto(f"{live_server.url}{path}")
            assert response is not None and response.status == 200, path
            found += axe_violations(device)
    for username, paths in _pages(bworld).items():
        sign_in(page, username)
        for path in paths:
            response = page.goto(f"{live_server.url}{path}")
            assert response is not None and response.status == 200, (username, path)
            found += axe_violations(page)
        page.context.clear_cookies()
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "username",
    [
        "gestor.recife",
        "atendente.recife",
        "fiscal.recife",
        "comissao.recife",
        "ouvidor.recife",
        "permissionario1.recife",
        "permissionario0.recife",
    ],
)
def test_each_role_walks_its_menu_on_a_phone_and_a_desktop(
    browser: Any, page: Any, phone: Any, live_server: Any, bworld: Any, sign_in: Any, username: str
) -> None:
    # Desktop: the menu is open, and every link of it opens (no refusal, no missing page).
    sign_in(page, username)
    assert page.is_visible("#menu-principal") and not page.is_visible(".menu-toggle")
    shot(page, f"{username}-desktop-home")
    hrefs = _menu_hrefs(page)
    assert hrefs
    for href in hrefs:
        response = page.goto(f"{live_server.url}{href}")
        assert response is not None and response.status == 200, (username, href)
        shot(page, f"{username}-desktop-{href}", full_page=False)
    # Phone: the menu is collapsed behind a button that says whether it is open.
    sign_in(phone, username)
    toggle = phone.locator(".menu-toggle")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert not phone.is_visible("#menu-principal")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    shot(phone, f"{username}-phone-home")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true" and phone.is_visible("#menu-principal")
    shot(phone, f"{username}-phone-menu")
    assert _menu_hrefs(phone) == hrefs
    # The last item, reached through the open menu.
    phone.locator("#menu-principal a").last.click()
    phone.wait_for_load_state()
    assert phone.url.endswith(hrefs[-1])
    assert phone.locator(".menu-toggle").get_attribute("aria-expanded") == "false"
    phone.keyboard.press("Tab")  # the skip link comes first
    assert phone.evaluate("document.activeElement.textContent") == "Ir para o conteúdo"
    shot(phone, f"{username}-phone-{hrefs[-1]}")


def test_the_inspector_sees_only_the_inspectors_menu(
    phone: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    sign_in(phone, "fiscal.recife")
    phone.click(".menu-toggle")
    words = phone.inner_text("#menu-principal")
    assert "Lavrar auto de infração" in words and "Vistorias" in words
    for absent in ("Fila de trabalho", "Julgamento", "Pessoas jurídicas", "Linhas", "Cobranças"):
        assert absent not in words, absent
    assert phone.is_visible("text=Lavrar auto de infração")


def test_the_manager_dashboard_shows_charts_with_their_tables(
    page: Any, phone: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    sign_in(page, "gestor.recife")
    charts = page.locator("figure.chart")
    assert charts.count() == 6
    for index in range(charts.count()):
        chart = charts.nth(index)
        # Each chart's drawing is hidden from screen readers and its numbers are in a table (or
        # it says there is nothing to draw).
        assert chart.locator("table.chart-table").count() + chart.locator(".chart-empty").count() == 1
    assert (
        page.locator(".chart-drawing[aria-hidden=true]").count() == page.locator("table.chart-table").count()
    )
    shot(page, "gestor-dashboard-desktop")
    sign_in(phone, "gestor.recife")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    shot(phone, "gestor-dashboard-phone")


def test_login_page_leads_to_the_public_plate_check(phone: Any, live_server: Any, bworld: Any) -> None:
    phone.goto(f"{live_server.url}/conta/entrar/")
    phone.click("text=consultar se um veículo está autorizado")
    phone.wait_for_url(f"{live_server.url}/publico/veiculos/")
    footer = phone.inner_text("footer")
    assert "ouvidoria dos órgãos gestores" in footer and "Consulta pública de veículos" in footer
    # Each agency's channels fold under its name on the public pages; opened, they show the ombudsman.
    phone.click("footer summary >> text=Recife")
    assert "ouvidoria@" not in footer and "Ouvidoria" in phone.inner_text("footer")
    shot(phone, "public-plate-check-phone")
