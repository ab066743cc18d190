"""Esteio (Lei 3.839/2004, arts. 43–45): the intervention in the delegated service, walked end to
end on the contract — the decree (art. 43, parágrafo único), the procedure within 30 days (art. 44)
and its conclusion within 180 or the intervention is invalid (art. 44, § 2º: marked on read), the
nullity that returns the service with the right to indemnity (§ 1º), the cessation after the
interventor's accounts or with the caducidade inquiry proposed (art. 45)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.delegation import intervention as closing
from lotacao.delegation.models import Inquiry
from lotacao.enforcement.models import Intervention
from lotacao.enforcement.sanctions import interventions
from tests.delegation.conftest import TODAY

pytestmark = pytest.mark.django_db
S = Intervention.Status


@pytest.fixture(autouse=True)
def _without_world_rows(world: Any) -> None:
    Intervention.objects.all().delete()


def _decree(permit: Any, days_ago: int = 10, **over: Any) -> Intervention:
    data: dict[str, Any] = {
        "actor": None,
        "permit": permit,
        "decree": "Decreto nº 77/2026",
        "decreed_on": TODAY() - dt.timedelta(days=days_ago),
        "interventor": "Fulano Interventor",
        "term_until": TODAY() + dt.timedelta(days=150),
        "goals": "Restabelecer a operação regular da linha",
        "limits": "Gestão da frota e do pessoal de operação",
        "reason": "Serviço inadequado (art. 43)",
    }
    data.update(over)
    return interventions.decree_intervention(**data)


def _open(row: Intervention) -> Intervention:
    return interventions.open_intervention_procedure(
        actor=None, intervention=row, opened_on=TODAY(), reason="Portaria SMOVT nº 5/2026"
    )


def test_the_decree_needs_its_contents_and_the_deadlines_come_from_the_pack(
    contract: Any, permit: Any
) -> None:
    with pytest.raises(ValidationError, match="o interventor, o prazo da intervenção"):
        _decree(permit, interventor="", term_until=None)
    row = _decree(permit)
    assert row.procedure_due == TODAY() - dt.timedelta(days=10) + dt.timedelta(days=30) or row.procedure_due
    assert "instaurar o procedimento até" in closing.deadline_words(row)
    row = _open(row)
    assert row.conclusion_due is not None and row.conclusion_due >= TODAY() + dt.timedelta(days=180)
    assert "sob pena de invalidade (art. 44, § 2º)" in closing.deadline_words(row)


def test_an_intervention_past_its_deadline_reads_invalid(contract: Any, permit: Any) -> None:
    row = _decree(permit, days_ago=40)  # the 30 days to open the procedure ran out
    assert Intervention.objects.get(pk=row.pk).status == S.DECREED
    [read] = closing.of_contract(contract)
    assert read.status == S.VOID and "art. 44" in read.outcome_note
    with pytest.raises(ValidationError, match="a intervenção é inválida"):
        closing.cease(actor=None, contract=contract, intervention=read, on=TODAY(), accounts="Contas")


def test_nullity_returns_the_service_with_the_right_to_indemnity(
    contract: Any, permit: Any, gestor: Any
) -> None:
    row = _decree(permit)
    with pytest.raises(ValidationError, match="o procedimento administrativo ainda não foi instaurado"):
        closing.nullify(actor=gestor, contract=contract, intervention=row, on=TODAY(), reasons="Sem causa")
    row = _open(row)
    with pytest.raises(ValidationError, match="Informe as razões"):
        closing.nullify(actor=gestor, contract=contract, intervention=row, on=TODAY(), reasons=" ")
    done = closing.nullify(
        actor=gestor,
        contract=contract,
        intervention=row,
        on=TODAY(),
        reasons="Não houve deficiência comprovada.",
    )
    assert done.status == S.ANNULLED
    assert (
        "sem prejuízo do seu direito à indenização" in done.outcome_note
        and "art. 44, § 1º" in done.outcome_note
    )
    with pytest.raises(ValidationError, match="já foi declarada nula"):
        closing.cease(actor=gestor, contract=contract, intervention=done, on=TODAY(), accounts="x")


def test_cessation_returns_the_service_after_the_accounts(contract: Any, permit: Any, gestor: Any) -> None:
    row = _open(_decree(permit))
    with pytest.raises(ValidationError, match="prestação de contas do interventor"):
        closing.cease(actor=gestor, contract=contract, intervention=row, on=TODAY())
    assert (
        closing.cease(
            actor=gestor,
            contract=contract,
            intervention=row,
            on=TODAY(),
            accounts="Relatório de gestão aprovado",
        )
        is None
    )
    row.refresh_from_db()
    assert row.status == S.CONCLUDED and "administração do serviço devolvida" in row.outcome_note


def test_cessation_with_the_inquiry_proposed_leads_to_the_caducidade(
    world: Any, client: Any, contract: Any, permit: Any, gestor: Any
) -> None:
    """The Esteio scenario end to end, through the screen and the API."""
    row = _open(_decree(permit))
    client.force_login(gestor)
    page = client.get(f"/delegacao/{contract.pk}/").content.decode()
    assert "Intervenção" in page and "Decreto nº 77/2026" in page and "Cessar a intervenção" in page
    listed = client.get(f"/api/delegation/contracts/{contract.pk}/interventions").json()
    assert [i["status"] for i in listed] == ["procedure_open"] and "art. 44, § 2º" in listed[0]["deadline"]
    refused = client.post(
        f"/api/delegation/interventions/{row.pk}/cessation",
        data=json.dumps({"on": TODAY().isoformat()}),
        content_type="application/json",
    )
    assert refused.status_code == 422 and "prestação de contas" in refused.json()["detail"]
    answer = client.post(
        f"/delegacao/{contract.pk}/",
        {
            "acao": "cease_intervention",
            "intervencao": row.pk,
            "em": TODAY().isoformat(),
            "contas": "Contas prestadas em 01/12",
            "numero": "INQ-INT-1",
            "ato": "Portaria SMOVT nº 9/2026",
            "fatos": "Faltas graves apuradas na intervenção.",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    inquiry = Inquiry.objects.get(number="INQ-INT-1")
    assert answer["Location"] == f"/delegacao/inqueritos/{inquiry.pk}/"
    row.refresh_from_db()
    assert row.status == S.CONCLUDED and "o serviço não é devolvido" in row.outcome_note
    client.force_login(world.users["gestor.recife"])
    assert client.get(f"/api/delegation/contracts/{contract.pk}/interventions").status_code == 404
