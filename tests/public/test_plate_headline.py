"""The plate check's headline says what the records below it say (issue 24, defect 6): a vehicle
with a suspended permit read "não há veículo autorizado com esta placa" above its own permit."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.test import Client

from lotacao.core.vehicle_verdict import headline
from lotacao.permits.models import Permit
from tests.clock import today

NO_VEHICLE = "não há veículo autorizado com esta placa"


def _verdict(client: Client, plate: str) -> str:
    html = client.get(f"/publico/veiculos/{plate}/").content.decode()
    found = re.search(r'id="verdict"[^>]*>\s*(?:<strong>|<h2>)?(.*?)<', html, re.S)
    assert found, html[:2000]
    return found.group(1).strip()


STATES = [
    (Permit.Status.SUSPENDED, "Não autorizado: veículo com permissão suspensa"),
    (Permit.Status.REVOKED, "Não autorizado: veículo com permissão cassada"),
    (Permit.Status.WITHDRAWN, "Não autorizado: veículo com permissão extinta por desistência"),
    (Permit.Status.EXPIRED, "Não autorizado: veículo com permissão vencida"),
    (Permit.Status.TRANSFERRED, "Não autorizado: veículo com permissão transferida"),
]


def test_the_headline_names_each_permit_state(world: Any, client: Client) -> None:
    """One world for every state (building it is the slow part): active, then each state the
    permit can reach after the grant, then a live permit past its term, then none at all."""
    permit = world.objects["recife"]["permits.permit"]
    plate = permit.vehicle.plate
    assert _verdict(client, plate) == "Veículo autorizado"
    for status, expected in STATES:
        until = today() + dt.timedelta(days=20) if status == Permit.Status.SUSPENDED else None
        Permit.objects.filter(pk=permit.pk).update(status=status, suspended_until=until)
        permit.vehicle.save()  # the public answer is recomputed (the read model follows saves)
        verdict = _verdict(client, plate)
        assert verdict == expected, status
        assert NO_VEHICLE not in verdict
        assert permit.number in client.get(f"/publico/veiculos/{plate}/").content.decode()
    Permit.objects.filter(pk=permit.pk).update(
        status=Permit.Status.ACTIVE, valid_until=today() - dt.timedelta(days=1)
    )
    permit.vehicle.save()
    assert _verdict(client, plate) == "Não autorizado: veículo com permissão vencida"
    Permit.objects.filter(pk=permit.pk).update(vehicle=None)
    permit.vehicle.save()
    assert _verdict(client, plate) == "Não autorizado: veículo sem permissão"
    assert _verdict(client, "ZZZ9Z99") == "Não autorizado: " + NO_VEHICLE


def test_the_headline_of_several_records() -> None:
    recife = {"jurisdiction_name": "Recife", "authorized": False, "permit_status": "Suspensa"}
    marica = {"jurisdiction_name": "Maricá", "authorized": True, "permit_status": "Ativa"}
    esteio = {
        "jurisdiction_name": "Esteio",
        "authorized": False,
        "reasons": ["Veículo sem permissão vigente."],
    }
    assert headline([recife, marica]) == "Veículo autorizado em Maricá"
    assert headline([recife, esteio]) == (
        "Não autorizado — Recife, veículo com permissão suspensa; Esteio, veículo sem permissão"
    )
    baixado = {**recife, "permit_status": "Ativa", "reasons": ["Veículo baixado do serviço."]}
    assert headline([baixado]) == "Não autorizado: veículo baixado do serviço"
    barred = {"jurisdiction_name": "Recife", "authorized": False, "permit_status": "Ativa"}
    assert headline([barred]) == "Não autorizado: veículo com permissão ativa, mas impedido de operar"
    crc = {
        "jurisdiction_name": "Pernambuco",
        "authorized": False,
        "company_name": "X",
        "crc_status": "suspended",
    }
    assert headline([crc]) == "Não autorizado: empresa com CRC suspenso"
