"""Helpers for the training tests: a jurisdiction of each law (Recife and Esteio from the shared
world; Cabo and Maricá made here) with a holder, a person of no role and the manager."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from lotacao.core.sample_ids import sample_cpf

SEEDS = {"recife": 1, "esteio": 2, "cabo": 3, "marica": 4}
NAMES = {
    "cabo": ("Cabo de Santo Agostinho", "Secretaria Executiva de Serviços Públicos", "PE", "America/Recife"),
    "marica": ("Maricá", "EPT", "RJ", "America/Sao_Paulo"),
}


def set_value(code: str, parameter: str, value: Any, since: dt.date = dt.date(2020, 1, 1)) -> None:
    from lotacao.core import law
    from lotacao.core.models import Jurisdiction
    from lotacao.web.agency_values import set_agency_value

    set_agency_value(
        actor=None,
        jurisdiction=Jurisdiction.objects.get(pk=code),
        parameter=parameter,
        valid_from=since,
        value=value,
        cite="Portaria nº 7/2020 (teste)",
        reason="teste",
    )
    law.forget(code)


@pytest.fixture
def place(world: Any) -> Any:
    from lotacao.accounts.models import Role, StaffMembership, User
    from lotacao.core.models import Jurisdiction
    from lotacao.registry import services

    def make(code: str) -> dict[str, Any]:
        if code in ("recife", "esteio"):
            j = Jurisdiction.objects.get(pk=code)
            holder = world.objects[code]["registry.holder"]
            gestor = world.users[f"gestor.{code}"]
        else:
            name, official, state, tz = NAMES[code]
            j = Jurisdiction.objects.create(
                code=code, name=name, official_name=official, state=state, timezone=tz
            )
            person = services.create_person(
                actor=None,
                jurisdiction=j,
                cpf=sample_cpf(400_000_000 + SEEDS[code]),
                full_name=f"Permissionária de {name}",
                birth_date=dt.date(1980, 1, 1),
                reason="teste",
            )
            holder = services.register_holder(actor=None, person=person, reason="teste")
            gestor = User.objects.create_user(f"gestor.{code}", password="senha-de-teste-123")
            StaffMembership.objects.create(user=gestor, jurisdiction=j, role=Role.MANAGER.value)
        stranger = services.create_person(
            actor=None,
            jurisdiction=j,
            cpf=sample_cpf(500_000_000 + SEEDS[code]),
            full_name=f"Pessoa sem função de {j.name}",
            birth_date=dt.date(1990, 5, 5),
            reason="teste",
        )
        return {"j": j, "holder": holder, "person": holder.person, "gestor": gestor, "stranger": stranger}

    return make


def notice_for(j: Any, holder: Any) -> Any:
    from lotacao.enforcement.models import InfractionNotice

    return InfractionNotice.objects.create(
        jurisdiction=j,
        number=f"AI-C-{j.code}",
        drawn_up_at=timezone.now(),
        place="Teste",
        infraction_code="teste",
        offender_kind="permit_holder",
        holder=holder,
        plate="ABC1D23",
    )
