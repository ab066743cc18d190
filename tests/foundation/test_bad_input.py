"""Bad input is a Portuguese 400/422 that changes nothing, never a 500 (issue 15, item 4)."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from lotacao.accounts.models import User
from lotacao.inspections.models import IrregularityNotice
from lotacao.registry.models import Person

pytestmark = pytest.mark.django_db

NUL_WORDS = "caractere nulo"


def _problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    return body


def test_the_pdf_of_a_notice_whose_inspection_has_no_inspector(world: Any, client: Any) -> None:
    notice = world.objects["recife"]["inspections.irregularitynotice"]
    assert notice.inspection.inspector is None
    client.force_login(world.users["gestor.recife"])
    response = client.get(f"/vistorias/notificacoes/{notice.pk}/?formato=pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_the_pdf_of_every_demo_irregularity_notice(db: Any, client: Any) -> None:
    call_command("load_demo", "--quiet-logins", stdout=StringIO())
    notices = list(IrregularityNotice.unscoped.all())
    assert notices, "the demo has irregularity notices"
    client.force_login(User.objects.create_superuser("operador.pdf", password="senha-de-teste-123"))
    for notice in notices:
        response = client.get(f"/vistorias/notificacoes/{notice.pk}/?formato=pdf")
        assert response.status_code == 200, (notice.number, response.status_code)
        assert response.content.startswith(b"%PDF")


@pytest.mark.parametrize("path", ["/api/permits/", "/api/registry/persons", "/api/registry/vehicles"])
@pytest.mark.parametrize("limit", ["-1", "0", "501", "muitos"])
def test_a_limit_out_of_range_is_a_portuguese_422(world: Any, client: Any, path: str, limit: str) -> None:
    client.force_login(world.users["gestor.recife"])
    body = _problem(client.get(path, {"limit": limit}), 422)
    assert body["errors"] and all(e.startswith("query.limit:") for e in body["errors"])
    assert "deve ser" in body["detail"]


def test_a_limit_in_range_bounds_the_list(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.get("/api/registry/persons", {"limit": "1"})
    assert response.status_code == 200
    assert len(response.json()) == 1
    assert len(client.get("/api/registry/persons", {"limit": "500"}).json()) == 2


@pytest.mark.parametrize(
    "url",
    [
        "/api/registry/persons?q=%00",
        "/api/registry/vehicles?plate=%00",
        "/api/permits/?q=abc%00def",
        "/api/public/vehicles/ABC%001234",
        "/api/registry/persons?%00=1",
    ],
)
def test_a_nul_byte_on_the_api_is_a_portuguese_400(world: Any, client: Any, url: str) -> None:
    client.force_login(world.users["gestor.recife"])
    assert NUL_WORDS in _problem(client.get(url), 400)["detail"]


@pytest.mark.parametrize(
    "url",
    [
        "/cadastro/pessoas/?q=%00",
        "/cadastro/veiculos/?q=%00",
        "/cadastro/permissionarios/?q=%00",
        "/permissoes/?q=%00",
        "/publico/veiculos/?placa=%00", "/publico/veiculos/ABC%001234/",
        "/cadastro/pessoas/%00/",
    ],
)
def test_a_nul_byte_on_a_screen_is_a_portuguese_400(world: Any, client: Any, url: str) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.get(url)
    assert response.status_code == 400
    assert NUL_WORDS in response.content.decode()


def test_a_nul_in_a_form_or_a_json_body_is_refused_and_changes_nothing(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    person = world.objects["recife"]["registry.person"]
    before = Person.objects.count()
    response = client.post(f"/cadastro/pessoas/{person.pk}/editar/", {"full_name": "Jo\x00ão"})
    assert response.status_code == 400 and NUL_WORDS in response.content.decode()
    response = client.post(
        "/api/infraction-notices/preview",
        json.dumps({"jurisdiction": "recife", "place": "Av.\u0000 Norte"}),
        content_type="application/json",
    )
    assert NUL_WORDS in _problem(response, 400)["detail"]
    person.refresh_from_db()
    assert "\x00" not in person.full_name and Person.objects.count() == before


def test_an_escaped_backslash_before_u0000_is_not_a_nul(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.post(
        "/api/infraction-notices/preview",
        json.dumps({"jurisdiction": "recife", "place": "C:\\u0000"}),
        content_type="application/json",
    )
    assert response.status_code != 400 or NUL_WORDS not in response.content.decode()


@pytest.mark.parametrize(
    "url", ["/api/registry/persons/99999999999999999999999", "/cadastro/veiculos/99999999999999999999999/"]
)
def test_an_id_too_large_for_the_database_is_a_400(world: Any, client: Any, url: str) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.get(url)
    assert response.status_code in (400, 404, 422), response.status_code
    if response.status_code == 400:
        assert "fora do intervalo" in response.content.decode()
    if response.status_code == 422:  # the API bounds every integer parameter (lotacao.api.bounds)
        assert "deve ser menor ou igual a 9223372036854775807" in response.content.decode()
