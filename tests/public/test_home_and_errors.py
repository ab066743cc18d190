"""The public home (/publico/ and per jurisdiction) reaches every public page; the line index; the
register's rows are links; real Portuguese 404 and 500 pages, even with DEBUG on (the demo)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import path

from lotacao.public.urls import urlpatterns as public_patterns
from tests.chartering.conftest import pe  # noqa: F401 - the Pernambuco fixture


def _links(html: str) -> set[str]:
    return {link.replace("&amp;", "&") for link in re.findall(r'href="(/[^"]*)"', html)}


def test_the_home_reaches_every_public_page(world: Any, client: Client) -> None:
    from lotacao.core.models import Jurisdiction

    assert "/publico/fretamento/" not in _links(client.get("/publico/").content.decode())  # no chartering law
    Jurisdiction.objects.create(code="pernambuco", name="Pernambuco", official_name="EPTI", state="PE")
    home = client.get("/publico/")
    assert home.status_code == 200
    links = _links(home.content.decode())
    for wanted in (
        "/publico/linhas/",
        "/publico/manifestacao/",
        "/publico/manifestacao/acompanhar/",
        "/publico/recife/",
        "/publico/esteio/",
        "/publico/fretamento/",
    ):
        assert wanted in links, wanted
    assert 'action="/publico/veiculos/"' in home.content.decode()
    from lotacao.public.home import open_data_url

    assert ("/dados/" in links) == bool(open_data_url())  # linked once lotacao.opendata serves it
    place = client.get("/publico/recife/")
    assert place.status_code == 200
    place_links = _links(place.content.decode())
    for wanted in (
        "/publico/linhas/recife/",
        "/publico/manifestacao/?jurisdicao=recife",
        "/publico/ouvidoria/recife/",
        "/api/public/gtfs/recife",
    ):
        assert wanted in place_links, wanted
    # every named public page (without an id of its own) is linked from the home or a jurisdiction's
    reached = links | place_links | _links(client.get("/publico/esteio/").content.decode())
    for pattern in public_patterns:
        route = str(pattern.pattern)
        if "<" in route or route in ("", "bench/json/"):
            continue
        assert any(link.split("?")[0] == f"/publico/{route}" for link in reached), route


def test_an_unknown_jurisdiction_is_a_404(world: Any, client: Client) -> None:
    assert client.get("/publico/atlantida/").status_code == 404
    assert client.get("/publico/ouvidoria/atlantida/").status_code == 404


def test_the_line_index_lists_and_searches(world: Any, client: Client, monkeypatch: Any) -> None:
    from lotacao.lines import selectors

    def fake(code: str, on: Any) -> list[dict[str, str]]:
        return [
            {
                "code": f"{code[:1].upper()}-1",
                "name": f"Centro de {code}",
                "origin": "Centro",
                "destination": "Praia",
            }
        ]

    monkeypatch.setattr(selectors, "public_lines", fake)
    page = client.get("/publico/linhas/")
    assert page.status_code == 200
    assert "/publico/linhas/recife/R-1/" in page.content.decode()
    found = client.get("/publico/linhas/", {"q": "centro de esteio"}).content.decode()
    assert "/publico/linhas/esteio/E-1/" in found and "/publico/linhas/recife/R-1/" not in found
    assert client.get("/publico/linhas/", {"q": "x" * 61}).status_code == 200


def test_the_chartering_register_rows_are_links(pe: Any, client: Client) -> None:  # noqa: F811
    from django.utils import timezone

    from lotacao.chartering.models import Crc
    from lotacao.chartering.selectors import public_companies

    pe.company(["eventual"], name="Viação Agreste")
    pe.company(["own"], name="Usina Tracunhaém")
    page = client.get("/publico/fretamento/").content.decode()
    rows = public_companies(timezone.localdate(), None)
    assert rows
    for row in rows:
        crc = Crc.unscoped.get(jurisdiction_id=row["jurisdiction"], number=row["crc_number"])
        assert f'<a href="/publico/fretamento/crc/{crc.token}/">{row["name"]}</a>' in page
        assert client.get(f"/publico/fretamento/crc/{crc.token}/").status_code == 200


def _boom(request: Any) -> Any:
    raise RuntimeError("falha de teste")


urlpatterns = [
    path("quebra/", _boom),
    *__import__("lotacao.config.urls", fromlist=["urlpatterns"]).urlpatterns,
]
handler404 = "lotacao.core.middleware.not_found"


@pytest.mark.parametrize("debug", [False, True])
def test_portuguese_404_and_500_pages_even_with_debug(world: Any, settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    for url in ("/nao-existe/", "/publico/nao/existe/", "/publico/linhas/recife/NADA/"):
        page = client.get(url)
        assert page.status_code == 404
        text = page.content.decode()
        assert "Página não encontrada" in text and "NOARCHIVE" not in text and "URLconf" not in text
    api = client.get("/api/nao-existe")
    assert api.status_code == 404 and api["Content-Type"] == "application/problem+json"
    failed = client.get("/quebra/")
    assert failed.status_code == 500
    assert "Erro no sistema" in failed.content.decode() and "Traceback" not in failed.content.decode()


def test_developers_may_keep_the_technical_pages(world: Any, settings: Any) -> None:
    settings.DEBUG = True
    settings.LOTACAO_DEBUG_ERROR_PAGES = True
    page = Client().get("/nao-existe/")
    assert page.status_code == 404 and "NOARCHIVE" in page.content.decode()
