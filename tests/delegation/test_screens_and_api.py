"""The /delegacao/ screens and the /api/delegation API: Esteio's caducidade walked through the
screens (notification, defense, decision, permit ended), the refusals as Portuguese errors that
change nothing, and, for a law without such procedure (Recife), a screen saying so."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from lotacao.delegation.models import Contract, Inquiry
from lotacao.permits.models import Permit
from tests.delegation.conftest import TODAY, all_clauses, cmtt_resolution

pytestmark = pytest.mark.django_db


def _iso(days_ago: int) -> str:
    return (TODAY() - dt.timedelta(days=days_ago)).isoformat()


def test_other_jurisdictions_read_that_the_procedure_does_not_apply(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    page = client.get("/delegacao/").content.decode()
    assert "não se aplicam a esta jurisdição" in page
    assert "Lei Municipal 16.856/2003" in page or "Recife" in page
    assert "Registrar contrato de delegação" not in page
    assert client.get("/delegacao/novo/").status_code == 403


def test_esteio_caducidade_through_the_screens(
    world: Any, client: Any, gestor: Any, permit: Any, defense_days: None
) -> None:
    client.force_login(gestor)
    page = client.get("/delegacao/").content.decode()
    assert "não se aplicam" not in page and "Registrar contrato de delegação" in page
    form = client.get("/delegacao/novo/").content.decode()
    assert "Alínea n: padronização da frota" in form
    data = {"permissao": permit.pk, "numero": "CT-7/2026", "assinado_em": _iso(40)}
    data.update({f"clausula_{k}": v for k, v in all_clauses().items()})
    del data["clausula_h"]
    refused = client.post("/delegacao/novo/", data)
    assert refused.status_code == 422 and "h) penalidades contratuais" in refused.content.decode()
    assert not Contract.objects.exists()
    data["clausula_h"] = "Penalidades do Anexo I."
    answer = client.post("/delegacao/novo/", data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    contract = Contract.objects.get()
    detail = client.get(answer["Location"]).content.decode()
    assert "Todas as cláusulas essenciais constam do contrato." in detail
    answer = client.post(
        f"/delegacao/{contract.pk}/",
        {
            "acao": "open_inquiry",
            "numero": "INQ-9",
            "ato": "Portaria SMOVT nº 3/2026",
            "fatos": "Faltas graves.",
        },
    )
    assert answer.status_code == 302
    inquiry = Inquiry.objects.get()
    resolution = cmtt_resolution(TODAY())
    url = f"/delegacao/inqueritos/{inquiry.pk}/"
    assert (
        client.post(url, {"acao": "notify", "notificado_em": _iso(0), "meio": "pessoal"}).status_code == 302
    )
    inquiry.refresh_from_db()
    early = client.post(
        url,
        {
            "acao": "declare",
            "razoes": "Faltas.",
            "recomendacao": resolution.pk,
            "decreto": "9",
            "decreto_em": _iso(0),
        },
    )
    assert (
        early.status_code == 422
        and "a decisão só pode ser tomada depois desse prazo" in early.content.decode()
    )
    assert (
        client.post(
            url, {"acao": "defend", "apresentada_em": _iso(0), "defesa": "Nego os fatos."}
        ).status_code
        == 302
    )
    done = client.post(
        url,
        {
            "acao": "declare",
            "razoes": "Faltas comprovadas.",
            "recomendacao": resolution.pk,
            "decreto": "9",
            "decreto_em": _iso(0),
        },
    )
    assert done.status_code == 302
    page = client.get(url).content.decode()
    assert "Caducidade declarada" in page and "Resolução nº 3/" in page
    assert Permit.objects.get(pk=permit.pk).status == Permit.Status.REVOKED
    contract_page = client.get(f"/delegacao/{contract.pk}/").content.decode()
    assert "Extinção" in contract_page and "prazo até" in contract_page
    assert "até 2 para o veículo deste contrato" in contract_page  # art. 49


def test_roles_and_scope(world: Any, client: Any, gestor: Any, contract: Any) -> None:
    client.force_login(world.users["fiscal.esteio"])
    assert client.get(f"/delegacao/{contract.pk}/").status_code == 200
    forbidden = client.post(
        f"/delegacao/{contract.pk}/", {"acao": "open_inquiry", "numero": "X", "ato": "P", "fatos": "F"}
    )
    assert forbidden.status_code == 403
    client.force_login(world.users["gestor.recife"])
    assert client.get(f"/delegacao/{contract.pk}/").status_code == 404


def test_the_api_walks_the_inquiry(
    world: Any, client: Any, gestor: Any, contract: Any, defense_days: None
) -> None:
    client.force_login(gestor)
    listed = client.get("/api/delegation/contracts").json()
    assert [c["number"] for c in listed] == ["CT-01/2026"] and listed[0]["missing_clauses"] == []
    opened = client.post(
        f"/api/delegation/contracts/{contract.pk}/inquiries",
        data=json.dumps({"number": "INQ-A", "opening_act": "Portaria 2", "facts": "Faltas."}),
        content_type="application/json",
    )
    assert opened.status_code == 201
    inquiry_id = opened.json()["id"]
    refused = client.post(
        f"/api/delegation/inquiries/{inquiry_id}/defense",
        data=json.dumps({"filed_on": _iso(0), "text": "Defesa"}),
        content_type="application/json",
    )
    assert refused.status_code == 422 and "Não é possível registrar a defesa" in refused.json()["detail"]
    notified = client.post(
        f"/api/delegation/inquiries/{inquiry_id}/notification",
        data=json.dumps({"notified_on": _iso(0), "means": "pessoal"}),
        content_type="application/json",
    )
    assert notified.status_code == 200 and notified.json()["defense_due"]
    archived = client.post(
        f"/api/delegation/inquiries/{inquiry_id}/decision",
        data=json.dumps({"decision": "archive", "reasons": "Não comprovado."}),
        content_type="application/json",
    )
    assert archived.status_code == 200 and archived.json()["status"] == "archived"
    client.force_login(world.users["gestor.recife"])
    assert client.get(f"/api/delegation/contracts/{contract.pk}").status_code == 404


def test_the_menu_offers_the_delegation_only_where_the_law_has_it(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.esteio"])
    assert 'href="/delegacao/"' in client.get("/").content.decode()
    client.force_login(world.users["gestor.recife"])
    assert 'href="/delegacao/"' not in client.get("/").content.decode()


def test_the_api_records_an_encampacao_only_with_its_law_and_prior_indemnity(
    world: Any, client: Any, gestor: Any, contract: Any, permit: Any
) -> None:
    client.force_login(gestor)
    body = {
        "cause": "encampacao",
        "extinct_on": _iso(1),
        "act": "Decreto 50/2026",
        "reasons": "Interesse público.",
        "indemnity_amount": "1000.00",
        "indemnity_paid_on": _iso(2),
    }
    url = f"/api/delegation/contracts/{contract.pk}/extinction"
    refused = client.post(url, data=json.dumps(body), content_type="application/json")
    assert refused.status_code == 422 and "lei autorizativa" in refused.json()["detail"]
    body["authorizing_law"] = "Lei Municipal 9.000/2026"
    done = client.post(url, data=json.dumps(body), content_type="application/json")
    assert done.status_code == 201 and done.json()["indemnity"].startswith("paga em")
    assert Permit.objects.get(pk=permit.pk).status == Permit.Status.EXTINCT
