"""The fare passes through the council where the law says so (councils.gates "fare.change"):
Recife, art. 3º, § 1º — the fare policy and its later changes are "submetidos à Aprovação do
CMTT/Recife"; Esteio, art. 34 — the fare is fixed "ouvido previamente o" CMTT. Without the
resolution the fare and the readjustment are refused and nothing changes; with it, the fare, the
readjustment and their audit records cite it. Maricá and Cabo name no council over the fare."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from lotacao.audit.services import history
from lotacao.billing.fares import services
from lotacao.billing.fares.models import FareAct, Readjustment
from lotacao.councils.testing import resolution_for
from lotacao.registry.models import Line

DAY = dt.date(2027, 1, 1)


def _fare(line: Any, **extra: Any) -> FareAct:
    return services.set_fare(
        actor=None,
        line=line,
        valid_from=DAY,
        amount="4.50",
        act="Decreto nº 7/2027",
        reason="tarifa",
        **extra,
    )


def test_recife_fare_needs_the_cmtt_approval(world: Any) -> None:
    line = world.objects["recife"]["registry.line"]
    with pytest.raises(ValidationError) as refused:
        _fare(line)
    text = " ".join(refused.value.messages)
    assert "depende da aprovação do CMTT/Recife (Lei Municipal 16.856/2003, art. 3º, § 1º)" in text
    assert "Informe a resolução" in text and f"A tarifa da linha {line.code} não foi registrada." in text
    against = resolution_for("recife", "fare.change", DAY, favorable=False)
    with pytest.raises(ValidationError, match="não foi favorável"):
        _fare(line, resolution=against.pk)
    later = resolution_for("recife", "fare.change", DAY + dt.timedelta(days=1))
    with pytest.raises(ValidationError, match="posterior à decisão"):
        _fare(line, resolution=later.pk)
    renewal = resolution_for("recife", "permit.renew", DAY)
    with pytest.raises(ValidationError, match="trata de a prorrogação da permissão"):
        _fare(line, resolution=renewal.pk)
    with pytest.raises(ValidationError, match="não foi encontrada"):
        _fare(line, resolution=999_999)
    assert not FareAct.objects.filter(line=line).exists()

    approval = resolution_for("recife", "fare.change", DAY)
    fare = _fare(line, resolution=approval.pk, council_opinion="aprovada por unanimidade")
    assert fare.council_opinion.startswith(approval.citation)
    assert "aprovada por unanimidade" in fare.council_opinion
    assert approval.citation in history(fare).get(action="fare.set").reason


def test_recife_readjustment_needs_the_cmtt_approval(world: Any) -> None:
    with pytest.raises(ValidationError, match="O reajuste não foi registrado"):
        services.record_readjustment(
            actor=None, jurisdiction=world.a, valid_from=DAY, percent="5", act="Decreto", reason="x"
        )
    assert not Readjustment.objects.exists()
    approval = resolution_for("recife", "fare.change", DAY)
    row = services.record_readjustment(
        actor=None,
        jurisdiction=world.a,
        valid_from=DAY,
        percent="5",
        act="Decreto",
        reason="x",
        resolution=approval.pk,
    )
    assert row.council_opinion == approval.citation
    assert approval.citation in history(row).get(action="readjustment.recorded").reason


def test_esteio_fare_needs_the_cmtt_heard_and_a_contrary_opinion_is_enough(world: Any) -> None:
    line = world.objects["esteio"]["registry.line"]
    with pytest.raises(
        ValidationError, match=r"depende da oitiva do CMTT \(Lei Municipal 3.839/2004, art. 34\)"
    ):
        _fare(line)
    other = resolution_for("recife", "fare.change", DAY)
    with pytest.raises(ValidationError, match="outra jurisdição"):
        _fare(line, resolution=other.pk)
    contrary = resolution_for("esteio", "fare.change", DAY, favorable=False)
    fare = _fare(line, resolution=contrary.pk)
    assert fare.council_opinion == contrary.citation


@pytest.mark.parametrize("code", ["marica", "cabo"])
def test_laws_without_a_council_over_the_fare_fix_it_by_the_act_alone(place: Any, code: str) -> None:
    line = Line.unscoped.create(jurisdiction=place(code), code="L1", name="Linha 1")
    fare = _fare(line)
    assert fare.council_opinion == "" and services.fare_council(code, DAY) == ("", [])


def test_the_fare_screen_offers_the_resolutions_and_refuses_without_one(world: Any, client: Any) -> None:
    line = world.objects["recife"]["registry.line"]
    approval = resolution_for("recife", "fare.change", DAY)
    client.force_login(world.users["gestor.recife"])
    url = reverse("billing:fares")
    page = client.get(url).content.decode()
    assert "Resolução do conselho" in page and approval.subject in page
    data = {
        "line": str(line.pk),
        "valid_from": DAY.isoformat(),
        "amount": "4.50",
        "act": "Decreto nº 7/2027",
        "reason": "tarifa",
    }
    refused = client.post(url, data).content.decode()
    assert "depende da aprovação do CMTT/Recife" in refused
    assert not FareAct.objects.filter(line=line).exists()
    response = client.post(url, {**data, "resolution": str(approval.pk)})
    assert response.status_code == 302
    assert FareAct.objects.get(line=line).council_opinion == approval.citation
