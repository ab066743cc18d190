"""Esteio's intervention (arts. 43–45, sanctions/interventions.py) and the effects screens."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from lotacao.enforcement.models import (
    Intervention,
    RevocationProcess,
    SuspensionFollowUp,
)
from lotacao.enforcement.sanctions import effects, interventions
from lotacao.permits.models import Permit
from lotacao.workqueue.models import WorkItem
from tests.clock import today
from tests.enforcement.sanctions.effect_helpers import (
    REVOCATION,
    _decision,
    _place,
    _status,
    on,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _without_world_rows(world: Any) -> None:
    """The shared world has one row of each effect model (for the URL walk): start without them."""
    SuspensionFollowUp.objects.all().delete()
    RevocationProcess.objects.all().delete()
    Intervention.objects.all().delete()


def _decree(place: dict[str, Any], **over: Any) -> Intervention:
    data: dict[str, Any] = {
        "actor": None,
        "permit": place["permit"],
        "decree": "Decreto nº 77/2025",
        "decreed_on": today() - dt.timedelta(days=40),
        "interventor": "Fulano Interventor",
        "term_until": today() + dt.timedelta(days=150),
        "goals": "Restabelecer a operação",
        "limits": "Gestão da frota da permissão",
        "reason": "Deficiência grave (art. 43)",
    }
    data.update(over)
    return interventions.decree_intervention(**data)


def test_esteio_intervention_deadlines_from_the_engine(world: Any) -> None:
    place = _place(world, "esteio")
    decreed = today() - dt.timedelta(days=20)
    item = _decree(place, decreed_on=decreed)
    assert item.procedure_due is not None and item.procedure_due >= decreed + dt.timedelta(days=30)
    assert "Lei Municipal 3.839/2004 (Esteio), art. 44" in item.citations
    item = interventions.open_intervention_procedure(
        actor=None, intervention=item, opened_on=today(), reason="Portaria 5"
    )
    assert item.conclusion_due is not None and item.conclusion_due >= today() + dt.timedelta(days=180)
    assert "Lei Municipal 3.839/2004 (Esteio), art. 44, § 2º" in item.citations
    assert interventions.check_interventions(today=today()) == 0
    item = interventions.conclude_intervention(
        actor=None,
        intervention=item,
        concluded_on=today(),
        outcome_note="Contas prestadas; devolvido",
        reason="ok",
    )
    assert item.status == Intervention.Status.CONCLUDED


def test_intervention_is_void_when_the_procedure_is_not_opened_in_time(world: Any) -> None:
    place = _place(world, "esteio")
    item = _decree(place)
    assert item.procedure_due is not None and item.procedure_due < today()
    with pytest.raises(ValidationError, match="prazo para instaurar o procedimento venceu"):
        interventions.open_intervention_procedure(
            actor=None, intervention=item, opened_on=today(), reason="tarde"
        )
    call_command("end_suspensions", "--data", today().isoformat())
    item.refresh_from_db()
    assert item.status == Intervention.Status.VOID and "art. 44" in item.outcome_note
    work = WorkItem.objects.get(kind=interventions.INTERVENTION_VOID_KIND)
    assert work.url == f"/fiscalizacao/efeitos/intervencoes/{item.pk}/"
    assert interventions.check_interventions(today=today()) == 0
    assert WorkItem.objects.filter(kind=interventions.INTERVENTION_VOID_KIND).count() == 1


def test_intervention_is_void_when_the_procedure_is_not_concluded_in_time(world: Any) -> None:
    place = _place(world, "esteio")
    item = _decree(
        place, decreed_on=today() - dt.timedelta(days=250), term_until=today() + dt.timedelta(days=10)
    )
    item = interventions.open_intervention_procedure(
        actor=None, intervention=item, opened_on=today() - dt.timedelta(days=240), reason="Portaria"
    )
    assert item.conclusion_due is not None and item.conclusion_due < today()
    with pytest.raises(ValidationError, match="prazo para concluir"):
        interventions.conclude_intervention(
            actor=None, intervention=item, concluded_on=today(), outcome_note="x", reason="x"
        )
    assert interventions.check_interventions(today=today()) == 1
    item.refresh_from_db()
    assert item.status == Intervention.Status.VOID


def test_intervention_refusals(world: Any) -> None:
    with pytest.raises(ValidationError, match="A lei de Recife não prevê intervenção"):
        _decree(_place(world, "recife"))
    place = _place(world, "esteio")
    for field, message in (
        ("decree", "o número do decreto"),
        ("interventor", "o interventor"),
        ("term_until", "o prazo da intervenção"),
        ("goals", "os objetivos"),
        ("limits", "os limites da medida"),
    ):
        with pytest.raises(ValidationError, match=message):
            _decree(place, **{field: None if field == "term_until" else " "})
    with pytest.raises(ValidationError, match=r"art\. 43, parágrafo único"):
        _decree(place, goals="")
    with pytest.raises(ValidationError, match="posterior à data do decreto"):
        _decree(place, term_until=today() - dt.timedelta(days=40))
    with pytest.raises(ValidationError, match="não pode ser futura"):
        _decree(place, decreed_on=today() + dt.timedelta(days=1))
    with pytest.raises(ValidationError, match="Informe o motivo"):
        _decree(place, reason="")
    assert not Intervention.objects.exists()
    item = _decree(place, decreed_on=today())
    with pytest.raises(ValidationError, match="Já há uma intervenção em curso"):
        _decree(place, decreed_on=today())
    with pytest.raises(ValidationError, match="a intervenção está decretada"):
        interventions.conclude_intervention(
            actor=None, intervention=item, concluded_on=today(), outcome_note="x", reason="x"
        )
    with pytest.raises(ValidationError, match="entre o decreto e hoje"):
        interventions.open_intervention_procedure(
            actor=None, intervention=item, opened_on=today() - dt.timedelta(days=1), reason="x"
        )
    item = interventions.open_intervention_procedure(
        actor=None, intervention=item, opened_on=today(), reason="x"
    )
    with pytest.raises(ValidationError, match="Descreva o resultado"):
        interventions.conclude_intervention(
            actor=None, intervention=item, concluded_on=today(), outcome_note="", reason="x"
        )
    annulled = interventions.conclude_intervention(
        actor=None,
        intervention=item,
        concluded_on=today(),
        outcome_note="Sem pressupostos",
        reason="x",
        nullity=True,
    )
    assert annulled.status == Intervention.Status.ANNULLED
    Permit.objects.filter(pk=place["permit"].pk).update(status=Permit.Status.REVOKED)
    with pytest.raises(ValidationError, match="a permissão está cassada"):
        _decree(place, decreed_on=today())


def test_screens_list_and_record_the_mayors_act(world: Any, client: Any) -> None:
    place = _place(world, "esteio")
    effects.apply_final_decision(actor=None, decision=_decision(place, REVOCATION), on=on())
    process = RevocationProcess.objects.get(notice__isnull=False, cause__startswith="Cassação")
    client.force_login(world.users["gestor.esteio"])
    home = client.get("/fiscalizacao/efeitos/").content.decode()
    assert f"/fiscalizacao/efeitos/cassacoes/{process.pk}/" in home and "Decretar intervenção" in home
    url = f"/fiscalizacao/efeitos/cassacoes/{process.pk}/"
    bad = client.post(url, {"acao": "ato", "ato-act": "", "ato-on": today().isoformat(), "ato-reason": "x"})
    assert bad.status_code == 422 and "Informe o ato" in bad.content.decode()
    ok = client.post(
        url,
        {
            "acao": "ato",
            "ato-act": "Decreto 9/2025",
            "ato-on": today().isoformat(),
            "ato-reason": "Publicado",
        },
    )
    assert ok.status_code == 302 and _status(place["permit"]) == Permit.Status.REVOKED

    client.force_login(world.users["atendente.esteio"])
    assert client.get(url).status_code == 200
    assert client.post(url, {"acao": "arquivar"}).status_code == 403
    client.force_login(world.users["holder0.esteio"])
    assert client.get(url).status_code == 403


def test_screens_decree_only_where_the_law_provides_for_it(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    assert "Decretar intervenção" not in client.get("/fiscalizacao/efeitos/").content.decode()
    assert client.get("/fiscalizacao/efeitos/intervencoes/nova/").status_code == 404
    client.force_login(world.users["gestor.esteio"])
    permit = world.objects["esteio"]["permits.permit"]
    data = {
        "permit": permit.pk,
        "decree": "Decreto 10/2025",
        "decreed_on": today().isoformat(),
        "interventor": "Fulano",
        "term_until": (today() + dt.timedelta(days=60)).isoformat(),
        "goals": "Regularizar",
        "limits": "",
        "reason": "Deficiência grave",
    }
    refused = client.post("/fiscalizacao/efeitos/intervencoes/nova/", data)
    assert refused.status_code == 422 and "os limites da medida" in refused.content.decode()
    done = client.post("/fiscalizacao/efeitos/intervencoes/nova/", {**data, "limits": "Frota"})
    item = Intervention.objects.get(permit=permit)
    assert done.status_code == 302 and done["Location"].endswith(f"/intervencoes/{item.pk}/")
    page = client.post(
        done["Location"],
        {"acao": "instaurar", "instaurar-opened_on": today().isoformat(), "instaurar-reason": "P 1"},
    )
    item.refresh_from_db()
    assert page.status_code == 302 and item.status == Intervention.Status.PROCEDURE_OPEN
