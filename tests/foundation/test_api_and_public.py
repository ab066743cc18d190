from __future__ import annotations

import json
from typing import Any

import pytest

from lotacao.accounts.tokens import create_token


def _get(client: Any, url: str, token: str | None = None) -> Any:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.get(url, **headers)


def test_openapi_document_lists_the_resources(client: Any, db: Any) -> None:
    schema = client.get("/api/openapi.json").json()
    assert "/api/registry/vehicles" in schema["paths"]
    assert "/api/public/vehicles/{plate}" in schema["paths"]


def test_the_api_needs_a_token_or_a_session(world: Any, client: Any) -> None:
    assert _get(client, "/api/registry/vehicles").status_code == 401
    assert _get(client, "/api/registry/vehicles", token="ltc_nao-existe").status_code == 401
    client.force_login(world.users["atendente.recife"])
    assert _get(client, "/api/registry/vehicles").status_code == 200


def test_api_tenancy_is_the_same_as_the_screens(world: Any, client: Any) -> None:
    recife_vehicle = world.objects["recife"]["registry.vehicle"]
    token = create_token(actor=None, user=world.users["atendente.esteio"], label="teste")
    listed = _get(client, "/api/registry/vehicles", token).json()
    assert [v["jurisdiction"] for v in listed] == ["esteio"]
    for url in (
        f"/api/registry/vehicles/{recife_vehicle.pk}",
        f"/api/registry/persons/{world.objects['recife']['registry.person'].pk}",
        f"/api/registry/holders/{world.objects['recife']['registry.holder'].pk}",
    ):
        assert _get(client, url, token).status_code == 404
    own = create_token(actor=None, user=world.users["holder0.recife"], label="portal")
    assert _get(client, f"/api/registry/vehicles/{recife_vehicle.pk}", own).status_code == 200
    other = create_token(actor=None, user=world.users["holder1.recife"], label="portal")
    assert _get(client, f"/api/registry/vehicles/{recife_vehicle.pk}", other).status_code == 404


def test_a_revoked_token_is_refused(world: Any, client: Any) -> None:
    from django.utils import timezone

    from lotacao.accounts.models import ApiToken

    token = create_token(actor=None, user=world.users["gestor.recife"], label="x")
    ApiToken.objects.update(revoked_at=timezone.now())
    assert _get(client, "/api/registry/vehicles", token).status_code == 401


def test_public_plate_check_shows_no_personal_data(world: Any, client: Any) -> None:
    response = client.get("/api/public/vehicles/aba-1c23")
    assert response.status_code == 200
    body = response.json()
    assert body["plate"] == "ABA1C23" and body["records"][0]["jurisdiction"] == "recife"
    text = json.dumps(body)
    person = world.objects["recife"]["registry.person"]
    assert person.cpf not in text and person.full_name not in text and "cpf" not in text.lower()
    page = client.get("/publico/veiculos/ABA1C23/").content.decode()
    assert "Placa ABA1C23" in page and person.full_name not in page and person.cpf_display not in page


@pytest.mark.parametrize("plate", ["12", "AAAA000"])
def test_public_plate_check_refuses_invalid_plates_in_portuguese(client: Any, db: Any, plate: str) -> None:
    response = client.get(f"/api/public/vehicles/{plate}")
    assert response.status_code == 422 and "inválida" in response.json()["detail"]
    assert client.get(f"/publico/veiculos/{plate}/").status_code == 400


def test_an_unknown_plate_is_not_authorized(client: Any, db: Any) -> None:
    body = client.get("/api/public/vehicles/ZZZ9Z99").json()
    assert body["records"] == []
    assert "Não autorizado" in client.get("/publico/veiculos/ZZZ9Z99/").content.decode()


def test_public_status_joins_the_permit_and_the_seal(world: Any) -> None:
    import datetime as dt

    from lotacao.public.selectors import vehicle_status

    seal = world.objects["recife"]["inspections.seal"]
    permit = world.objects["recife"]["permits.permit"]
    permit.valid_until = seal.valid_until + dt.timedelta(days=100)
    permit.save()
    [today] = vehicle_status("ABA1C23")["records"]
    assert today["authorized"] is True and today["permit_number"] == permit.number
    after_seal = seal.valid_until + dt.timedelta(days=1)
    assert after_seal < permit.valid_until
    [later] = vehicle_status("ABA1C23", on=after_seal)["records"]
    assert later["authorized"] is False
    assert any("selo" in r.lower() for r in later["reasons"])
    permit.status = "suspended"
    permit.suspended_until = after_seal + dt.timedelta(days=10)
    permit.save()
    [both] = vehicle_status("ABA1C23", on=after_seal)["records"]
    assert any("suspensa" in r for r in both["reasons"]) and any("selo" in r.lower() for r in both["reasons"])
