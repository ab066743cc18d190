"""The /autorizacoes-de-servico/ screens and the /api/service-authorizations API: Esteio's staff request and
grant through the screens; the setting off says so and creates nothing; staff of another
jurisdiction do not see Esteio's rows."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lotacao.authorizations.models import Authorization
from tests.authorizations.conftest import TODAY, turn_on, vehicle

pytestmark = pytest.mark.django_db


def test_the_setting_off_says_so_and_creates_nothing(
    world: Any, client: Any, gestor: Any, person: Any
) -> None:
    client.force_login(gestor)
    page = client.get("/autorizacoes-de-servico/").content.decode()
    assert "não ativou o cadastro de autorizações" in page
    assert "Registrar pedido de autorização" not in page
    assert client.get("/autorizacoes-de-servico/nova/").status_code == 403
    api = client.get("/api/service-authorizations")
    assert api.status_code == 404 and "não ativou" in api.json()["detail"]
    car = vehicle("TAX2A01")
    answer = client.post(
        "/api/service-authorizations",
        json.dumps({"kind": "taxi_common", "vehicle_id": car.pk, "person_id": person.pk}),
        content_type="application/json",
    )
    assert answer.status_code == 409 and "não ativou" in answer.json()["detail"]
    assert not Authorization.objects.filter(vehicle=car).exists()


def test_recife_reads_that_its_law_has_no_such_register(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    assert "não prevê autorização de táxi" in client.get("/autorizacoes-de-servico/").content.decode()


def test_esteio_requests_and_grants_through_the_screens(
    world: Any, client: Any, esteio: None, gestor: Any, person: Any
) -> None:
    client.force_login(gestor)
    assert "Autorizações de táxi, escolar e fretado" in client.get("/").content.decode()
    car = vehicle("ESC2A02", category="van")
    form = client.get("/autorizacoes-de-servico/nova/").content.decode()
    assert "Transporte escolar" in form and 'type="date"' in form
    data = {
        "kind": "school",
        "holder": f"p{person.pk}",
        "vehicle": car.pk,
        "requested_on": TODAY().isoformat(),
    }
    answer = client.post("/autorizacoes-de-servico/nova/", data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    row = Authorization.objects.get(vehicle=car)
    again = client.post("/autorizacoes-de-servico/nova/", {**data, "kind": "chartered"})
    assert again.status_code == 422 and "um veículo serve a uma só autorização" in again.content.decode()
    url = f"/autorizacoes-de-servico/{row.pk}/"
    empty = client.post(url, {"acao": "grant", "number": "", "act": "", "starts_on": ""})
    assert empty.status_code == 422
    granted = client.post(
        url,
        {
            "acao": "grant",
            "number": "ESC-1/2026",
            "act": "Portaria SMOVT nº 2/2026",
            "starts_on": TODAY().isoformat(),
        },
    )
    assert granted.status_code == 302
    page = client.get(url).content.decode()
    assert "Autorizada" in page and "vedada a cobrança de tarifa no embarque" in page
    assert "Portaria SMOVT nº 2/2026" in page
    suspended = client.post(url, {"acao": "suspend", "act": "Portaria 3", "reasons": "Vistoria vencida."})
    assert suspended.status_code == 302
    row.refresh_from_db()
    assert row.status == Authorization.Status.SUSPENDED
    clerk = world.users["atendente.esteio"]
    client.force_login(clerk)
    assert client.post(url, {"acao": "revoke", "act": "x", "reasons": "y"}).status_code == 403
    row.refresh_from_db()
    assert row.status == Authorization.Status.SUSPENDED


def test_staff_of_another_jurisdiction_cannot_see(world: Any, client: Any, esteio: None) -> None:
    row = world.objects["esteio"]["authorizations.authorization"]
    client.force_login(world.users["gestor.recife"])
    assert client.get(f"/autorizacoes-de-servico/{row.pk}/").status_code == 404
    assert client.get(f"/api/service-authorizations/{row.pk}").status_code == 404
    turn_on("recife")  # even turned on, Recife's law has no such register
    assert row.number not in client.get("/autorizacoes-de-servico/").content.decode()


def test_the_api_walks_request_grant_and_revocation(
    world: Any, client: Any, esteio: None, gestor: Any, person: Any
) -> None:
    client.force_login(gestor)
    car = vehicle("TAX2A03")
    answer = client.post(
        "/api/service-authorizations",
        json.dumps({"kind": "taxi_special", "vehicle_id": car.pk, "person_id": person.pk}),
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    pk = answer.json()["id"]
    granted = client.post(
        f"/api/service-authorizations/{pk}/grant",
        json.dumps({"number": "TXE-1/2026", "act": "Portaria 9", "starts_on": TODAY().isoformat()}),
        content_type="application/json",
    )
    body = granted.json()
    assert granted.status_code == 200 and body["status"] == "granted"
    assert any("Tarifa do táxi" in c for c in body["conditions"])
    wrong = client.post(
        f"/api/service-authorizations/{pk}/decision",
        json.dumps({"decision": "reinstate", "reasons": "x"}),
        content_type="application/json",
    )
    assert wrong.status_code == 422 and "Não é possível encerrar a suspensão" in wrong.json()["detail"]
    revoked = client.post(
        f"/api/service-authorizations/{pk}/decision",
        json.dumps({"decision": "revoke", "act": "Portaria 10", "reasons": "Cobrança fora do taxímetro."}),
        content_type="application/json",
    )
    assert revoked.status_code == 200 and revoked.json()["status_label"] == "Cassada"
    listed = client.get("/api/service-authorizations").json()
    assert pk in [r["id"] for r in listed]
