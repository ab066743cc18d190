"""Esteio's operating consortia (Lei 3.839/2004, art. 19, § 5º): rules of common accord, approved
beforehand by the granting authority; through the service and the screen."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.delegation import services
from lotacao.delegation.models import Consortium
from lotacao.permits.models import Permit
from tests.delegation.conftest import TODAY, all_clauses

pytestmark = pytest.mark.django_db


@pytest.fixture
def second(world: Any, gestor: Any, permit: Any) -> Any:
    other = Permit.objects.create(
        jurisdiction=permit.jurisdiction,
        number="EST-0002/2026",
        holder=permit.holder,
        line=permit.line,
        status=Permit.Status.ACTIVE,
        applied_on=TODAY() - dt.timedelta(days=30),
        granted_on=TODAY() - dt.timedelta(days=30),
        valid_until=TODAY() + dt.timedelta(days=365),
        term_citation="teste",
    )
    return services.record_contract(
        actor=gestor,
        permit=other,
        number="CT-02/2026",
        signed_on=TODAY() - dt.timedelta(days=20),
        clauses=all_clauses(),
        reason="teste",
    )


def test_a_consortium_needs_rules_two_contracts_and_the_prior_approval(
    contract: Any, second: Any, gestor: Any
) -> None:
    with pytest.raises(ValidationError, match="pelo menos dois contratos"):
        services.propose_consortium(actor=gestor, contracts=[contract], name="Norte", rules_text="Regras")
    with pytest.raises(ValidationError, match="comum acordo"):
        services.propose_consortium(actor=gestor, contracts=[contract, second], name="Norte", rules_text=" ")
    row = services.propose_consortium(
        actor=gestor, contracts=[contract, second], name="Norte", rules_text="Escala e receita comuns."
    )
    assert row.status == Consortium.Status.PROPOSED and row.contracts.count() == 2
    with pytest.raises(ValidationError, match="ato da decisão"):
        services.decide_consortium(actor=gestor, consortium=row, approve=True, act="", reasons="Ok")
    services.decide_consortium(
        actor=gestor, consortium=row, approve=True, act="Portaria 9/2026", reasons="Ok"
    )
    row.refresh_from_db()
    assert row.status == Consortium.Status.APPROVED
    with pytest.raises(ValidationError, match="o consórcio já foi aprovado"):
        services.decide_consortium(actor=gestor, consortium=row, approve=False, act="P", reasons="R")


def test_the_consortia_screen(world: Any, client: Any, contract: Any, second: Any, gestor: Any) -> None:
    client.force_login(gestor)
    page = client.get("/delegacao/consorcios/").content.decode()
    assert "art. 19, § 5º" in page and "CT-02/2026" in page
    refused = client.post(
        "/delegacao/consorcios/", {"acao": "propose", "nome": "Sul", "contratos": [contract.pk]}
    )
    assert refused.status_code == 422 and "pelo menos dois contratos" in refused.content.decode()
    answer = client.post(
        "/delegacao/consorcios/",
        {"acao": "propose", "nome": "Sul", "contratos": [contract.pk, second.pk], "regras": "Regras comuns."},
    )
    assert answer.status_code == 302
    row = Consortium.objects.get()
    answer = client.post(
        "/delegacao/consorcios/",
        {"acao": "refuse", "consorcio": row.pk, "ato": "Portaria 10/2026", "razoes": "Regras incompletas."},
    )
    assert answer.status_code == 302
    row.refresh_from_db()
    assert row.status == Consortium.Status.REFUSED
    client.force_login(world.users["gestor.recife"])
    assert "não se aplicam a esta jurisdição" in client.get("/delegacao/consorcios/").content.decode()
    assert (
        client.post(
            "/delegacao/consorcios/", {"acao": "approve", "consorcio": row.pk, "ato": "P", "razoes": "R"}
        ).status_code
        == 404
    )
