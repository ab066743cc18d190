"""Art. 36, III and art. 18 at the plate checks: a vehicle with an authorization in force is shown
as authorized for its kind (the public check and the inspector's); one whose authorization is not
in force is not, and the inspector reads the retention (art. 36, III) and the sanctions of art. 18
with the pack's fine."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from lotacao.authorizations import services
from lotacao.authorizations.selectors import unauthorized_suggestion
from tests.authorizations.conftest import TODAY, set_value, turn_on, vehicle

pytestmark = pytest.mark.django_db


def _sealed(vehicle: Any) -> None:
    """A passed inspection and its seal (the inspections' own verdict asks for it)."""
    import datetime as dt

    from lotacao.inspections.models import Inspection, Seal

    day = TODAY()
    passed = Inspection.objects.create(
        jurisdiction_id=vehicle.jurisdiction_id,
        vehicle=vehicle,
        scheduled_for=day,
        performed_on=day,
        status=Inspection.Status.PASSED,
    )
    Seal.objects.create(
        jurisdiction_id=vehicle.jurisdiction_id,
        vehicle=vehicle,
        inspection=passed,
        number=f"S-{vehicle.plate}",
        issued_on=day,
        valid_until=day + dt.timedelta(days=364),
    )


def _granted(world: Any) -> Any:
    """A taxi authorization in force for a vehicle of its own, with its seal."""
    row = services.grant(
        actor=None,
        authorization=services.request_authorization(
            actor=None,
            jurisdiction_code="esteio",
            kind="taxi_common",
            vehicle=vehicle("TAX3A01"),
            person=world.objects["esteio"]["registry.person"],
        ),
        number="TX-30/2026",
        act="Portaria SMOVT nº 30/2026",
        starts_on=TODAY(),
    )
    _sealed(row.vehicle)
    return row


def _verdict(client: Client, plate: str) -> str:
    html = client.get(f"/publico/veiculos/{plate}/").content.decode()
    found = re.search(r'id="verdict"[^>]*>\s*(?:<strong>|<h2>)?(.*?)<', html, re.S)
    assert found, html[:2000]
    return found.group(1).strip()


def test_the_public_check_shows_the_authorized_kind(world: Any, client: Client, esteio: None) -> None:
    row = _granted(world)
    plate = row.vehicle.plate
    row.vehicle.save()  # the read model follows the settings turned on by update()
    assert _verdict(client, plate) == "Veículo autorizado", client.get(
        f"/publico/veiculos/{plate}/"
    ).content.decode()
    page = client.get(f"/publico/veiculos/{plate}/").content.decode()
    assert "Táxi comum" in page and row.number in page and "CPF" not in page
    assert "Tarifa do táxi" not in page  # the agency has not informed it yet
    set_value("esteio", "authorization.taxi_fare", {"flag_fall": "5.20", "per_km": "3.10"})
    row.vehicle.save()
    page = client.get(f"/publico/veiculos/{plate}/").content.decode().replace("\xa0", " ")
    assert "Bandeirada inicial de R$ 5,20 e R$ 3,10 por quilômetro rodado" in page
    services.suspend(actor=None, authorization=row, act="Portaria 5", reasons="Taxímetro sem aferição.")
    assert _verdict(client, plate).startswith("Não autorizado: veículo com autorização de táxi comum")
    turn_on(on=False)
    row.vehicle.save()
    assert _verdict(client, plate) == "Não autorizado: veículo sem permissão"


def test_the_inspector_reads_the_kind_and_the_suggestion(world: Any, client: Client, esteio: None) -> None:
    row = _granted(world)
    client.force_login(world.users["fiscal.esteio"])
    page = client.get(f"/fiscalizacao/autos/novo/?placa={row.vehicle.plate}").content.decode()
    assert "autorizado" in page and "Táxi comum" in page and "Sugestão" not in page
    services.revoke(actor=None, authorization=row, act="Portaria 6", reasons="Cobrança abusiva.")
    page = client.get(f"/fiscalizacao/autos/novo/?placa={row.vehicle.plate}").content.decode()
    assert "não autorizado" in page and "art. 36, III" in page and "2000 UFRM" in page
    unknown = client.get("/fiscalizacao/autos/novo/?placa=QQQ9Q99").content.decode()
    assert "possível transporte clandestino" in unknown and "Sugestão" in unknown


def test_the_suggestion_cites_art_18_and_only_where_the_law_has_authorizations(world: Any) -> None:
    words = unauthorized_suggestion("esteio", TODAY())
    assert "retenção do veículo" in words and "apreensão do veículo, multa de 2000 UFRM" in words
    assert "em dobro" in words
    assert unauthorized_suggestion("recife", TODAY()) == ""
