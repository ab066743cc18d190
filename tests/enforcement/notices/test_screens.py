"""The inspector's phone page: plate check, catalogue, required fields, idempotent submit; the
notice page (tenancy: tests/foundation/test_tenancy.py walks it)."""

from __future__ import annotations

from typing import Any

import pytest

from lotacao.enforcement.models import InfractionNotice

pytestmark = pytest.mark.django_db

URL = "/fiscalizacao/autos/novo/"


def form_data(world: Any, key: str = "k-1", **over: Any) -> dict[str, Any]:
    data = {
        "jurisdicao": "recife",
        "idempotency_key": key,
        "plate": world.objects["recife"]["registry.vehicle"].plate,
        "offender_kind": "permit_holder",
        "infraction_code": "G2-a",
        "drawn_up_at": "2025-06-16T10:00",
        "place": "Av. Norte, 100",
        "description": "Fora do itinerário",
    }
    data.update(over)
    return data


def created() -> Any:
    return InfractionNotice.unscoped.exclude(number__startswith="AI-T-")


def test_phone_page_renders_with_plate_status_and_catalogue(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    plate = world.objects["recife"]["registry.vehicle"].plate
    response = client.get(URL, {"placa": plate}, HTTP_USER_AGENT="Mozilla/5.0 (iPhone; 390x844)")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in html  # fits a 390px screen
    scripts = html.split("</head>")[1].split("<script")[1:]
    assert "enf-phone" in html and all(s.startswith(' src="/static/') for s in scripts)  # CSP: no inline
    assert ": autorizado" in html and "Pessoa 0 de Recife" in html  # staff see the holder's name
    assert "Anexo Único, Grupo 2, a — " in html  # the catalogue as the law prints it
    assert 'name="idempotency_key"' in html
    assert 'name="place" maxlength="300" required' in html and "Local *" in html  # art. 30, II
    assert "Exigido no auto (Lei Municipal 16.856/2003 (Recife), art. 30)" in html
    unknown = client.get(URL, {"placa": "ZZZ9Z99"}).content.decode()
    assert "sem cadastro nesta jurisdição" in unknown


def test_submit_twice_with_the_same_key_creates_one_notice(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    first = client.post(URL, form_data(world))
    assert first.status_code == 302, first.content.decode()[:2000]
    notice = created().get()
    assert notice.vehicle == world.objects["recife"]["registry.vehicle"]
    assert notice.inspector == world.users["fiscal.recife"]
    again = client.post(URL, form_data(world))
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert created().count() == 1
    page = client.get(first["Location"]).content.decode()
    assert "Multa de R$\xa0100,00" in page and "art. 36" in page


def test_missing_required_field_shows_the_article_and_a_fresh_key(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    response = client.post(URL, form_data(world, place=""))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Falta o local da infração" in html and "art. 30" in html
    assert 'value="k-1"' not in html  # the corrected form is a new request
    assert created().count() == 0


def test_only_enforcement_roles_reach_the_page(world: Any, client: Any) -> None:
    client.force_login(world.users["comissao.recife"])
    assert client.get(URL).status_code == 404
    client.force_login(world.users["holder0.recife"])
    assert client.get(URL).status_code == 404
    client.force_login(world.users["fiscal.esteio"])
    assert client.get(URL, {"jurisdicao": "recife"}).status_code == 404
    assert client.get(URL).status_code == 200  # their own jurisdiction's catalogue


def test_preview_shows_the_penalty_and_writes_nothing(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    response = client.post(URL, {**form_data(world), "preview": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Penalidade pela lei" in html and "Multa de R$\xa0100,00" in html and "art. 36" in html
    assert 'value="k-1"' in html  # the same key: confirming is the first real request
    assert created().count() == 0
    assert client.post(URL, form_data(world)).status_code == 302
    assert created().count() == 1


def test_the_holder_sees_the_notices_charged_to_them_and_no_others(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    url = client.post(URL, form_data(world))["Location"]
    client.force_login(world.users["holder0.recife"])
    assert client.get(url).status_code == 200
    listing = client.get("/fiscalizacao/autos/").content.decode()
    assert created().get().number in listing
    client.force_login(world.users["holder1.recife"])
    assert client.get(url).status_code == 404
    assert created().get().number not in client.get("/fiscalizacao/autos/").content.decode()
