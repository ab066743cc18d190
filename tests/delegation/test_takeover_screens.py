"""The staff take-over (Esteio art. 49) through the screens and the API: the employees recorded on
the extinct contract's page with their CPF masked, the successor's contract recorded with its
predecessor and born signed, the start refused with 422 until the hires are recorded; the edital of
Esteio lists the winner's obligation (art. 8º, parágrafo único, IV)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from lotacao.core.sample_ids import sample_cpf
from lotacao.delegation import services
from lotacao.delegation.models import Contract, FormerEmployee
from lotacao.tenders.models import Call
from lotacao.tenders.selectors import winner_obligations
from tests.delegation.conftest import TODAY, all_clauses, company_permit

pytestmark = pytest.mark.django_db


def _extinct(contract: Any, gestor: Any) -> Contract:
    services.extinguish(
        actor=gestor,
        contract=contract,
        cause="rescisao",
        extinct_on=TODAY(),
        act="Sentença transitada em julgado",
        reasons="Rescisão judicial.",
    )
    return Contract.objects.get(pk=contract.pk)


def test_the_takeover_through_the_screens(world: Any, client: Any, gestor: Any, contract: Any) -> None:
    extinct = _extinct(contract, gestor)
    client.force_login(gestor)
    url = f"/delegacao/{extinct.pk}/"
    cpf = sample_cpf(400_000_001)
    bad = client.post(url, {"acao": "employee", "nome": "Ana", "cpf": "111", "admitido_em": "2020-01-01"})
    assert bad.status_code == 422 and "CPF 111 inválido" in bad.content.decode()
    assert not FormerEmployee.objects.exists()
    for n, day in ((1, "2020-01-01"), (2, "2021-01-01")):
        done = client.post(
            url,
            {
                "acao": "employee",
                "nome": f"Empregado {n}",
                "cpf": sample_cpf(400_000_000 + n),
                "admitido_em": day,
            },
        )
        assert done.status_code == 302, done.content.decode()[:2000]
    page = client.get(url).content.decode()
    assert "Empregado 1" in page and cpf not in page and "***." in page

    permit = company_permit(world)
    form = client.get("/delegacao/novo/").content.decode()
    assert "Contrato extinto que este substitui" in form
    data = {
        "permissao": permit.pk,
        "numero": "CT-S/2026",
        "assinado_em": TODAY().isoformat(),
        "anterior": extinct.pk,
    }
    data.update({f"clausula_{k}": v for k, v in all_clauses().items()})
    answer = client.post("/delegacao/novo/", data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    successor = Contract.objects.get(number="CT-S/2026")
    assert successor.status == Contract.Status.SIGNED
    page = client.get(f"/delegacao/{successor.pk}/").content.decode()
    assert "Obrigação pendente: faltam 2 contratações" in page and "Iniciar a operação" in page
    refused = client.post(f"/delegacao/{successor.pk}/", {"acao": "start"})
    assert refused.status_code == 422 and "A operação não pode começar" in refused.content.decode()
    assert Contract.objects.get(pk=successor.pk).status == Contract.Status.SIGNED
    first, second = FormerEmployee.objects.order_by("hired_on")
    assert (
        client.post(
            f"/delegacao/{successor.pk}/", {"acao": "hire", "empregado": first.pk, "em": TODAY().isoformat()}
        ).status_code
        == 302
    )
    empty = client.post(
        f"/delegacao/{successor.pk}/", {"acao": "decline", "empregado": second.pk, "em": TODAY().isoformat()}
    )
    assert empty.status_code == 422 and "Informe o registro da recusa" in empty.content.decode()
    declined = client.post(
        f"/delegacao/{successor.pk}/",
        {
            "acao": "decline",
            "empregado": second.pk,
            "em": TODAY().isoformat(),
            "registro": "Carta de recusa.",
        },
    )
    assert declined.status_code == 302
    assert client.post(f"/delegacao/{successor.pk}/", {"acao": "start"}).status_code == 302
    assert Contract.objects.get(pk=successor.pk).status == Contract.Status.IN_FORCE
    assert "Obrigação cumprida" in client.get(f"/delegacao/{successor.pk}/").content.decode()


def test_the_takeover_through_the_api(world: Any, client: Any, gestor: Any, contract: Any) -> None:
    extinct = _extinct(contract, gestor)
    client.force_login(gestor)
    post = lambda url, body: client.post(url, data=json.dumps(body), content_type="application/json")  # noqa: E731
    bad = post(
        f"/api/delegation/contracts/{extinct.pk}/employees",
        {"name": "A", "cpf": "1", "hired_on": "2020-01-01"},
    )
    assert bad.status_code == 422 and "CPF 1 inválido" in bad.json()["detail"]
    made = post(
        f"/api/delegation/contracts/{extinct.pk}/employees",
        {"name": "Ana", "cpf": sample_cpf(400_000_009), "hired_on": "2020-01-01"},
    )
    assert made.status_code == 201 and made.json()["entitled"] is True
    assert sample_cpf(400_000_009) not in made.content.decode()
    listed = client.get(f"/api/delegation/contracts/{extinct.pk}/employees").json()
    assert [e["name"] for e in listed] == ["Ana"]
    successor = services.record_contract(
        actor=gestor,
        permit=company_permit(world),
        number="CT-API/2026",
        signed_on=TODAY(),
        clauses=all_clauses(),
        predecessor=extinct,
        reason="Contrato da vencedora",
    )
    duty = client.get(f"/api/delegation/contracts/{successor.pk}/takeover").json()
    assert (duty["entitled"], duty["limit"], duty["required"], duty["fulfilled"]) == (1, 2, 1, False)
    refused = post(f"/api/delegation/contracts/{successor.pk}/start", {})
    assert refused.status_code == 422 and "faltam 1 contratação" in refused.json()["detail"]
    hired = post(
        f"/api/delegation/contracts/{successor.pk}/employees/{made.json()['id']}/hire",
        {"on": TODAY().isoformat()},
    )
    assert hired.status_code == 200 and hired.json()["fulfilled"] is True
    started = post(f"/api/delegation/contracts/{successor.pk}/start", {})
    assert started.status_code == 200 and started.json()["status"] == "in_force"
    assert started.json()["predecessor_id"] == extinct.pk
    client.force_login(world.users["fiscal.esteio"])
    assert (
        post(
            f"/api/delegation/contracts/{extinct.pk}/employees",
            {"name": "B", "cpf": sample_cpf(400_000_008), "hired_on": "2020-01-01"},
        ).status_code
        == 403
    )
    client.force_login(world.users["gestor.recife"])
    assert client.get(f"/api/delegation/contracts/{successor.pk}/takeover").status_code == 404


def test_esteio_s_edital_lists_the_winner_s_obligation(world: Any) -> None:
    esteio = winner_obligations(Call(jurisdiction_id="esteio", opens_on=dt.date(2026, 1, 1)))
    assert esteio == [
        "o vencedor que substituir operadora cuja concessão ou permissão foi extinta contratará os "
        "empregados da empresa anterior com mais de um ano de serviço, até 2 por veículo "
        "(Lei Municipal 3.839/2004 (Esteio), art. 49)"
    ]
    assert winner_obligations(Call(jurisdiction_id="recife", opens_on=dt.date(2026, 1, 1))) == []
