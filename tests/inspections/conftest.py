"""Fixtures of the inspections tests: Maricá and Pernambuco beside the shared world (Recife, Esteio)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.core.sample_ids import sample_cnpj, sample_cpf
from tests.clock import today


def make_jurisdiction(code: str) -> Any:
    from lotacao.core.models import Jurisdiction
    from lotacao.law.packs import get_pack

    pack = get_pack(code)
    return Jurisdiction.objects.create(
        code=code,
        name=pack.name,
        official_name=f"Órgão de {pack.name}",
        state=pack.state,
        timezone=pack.timezone,
    )


@pytest.fixture
def marica(world: Any) -> dict[str, Any]:
    from lotacao.accounts.models import Role, StaffMembership, User
    from lotacao.registry import services

    j = make_jurisdiction("marica")
    person = services.create_person(
        actor=None, jurisdiction=j, cpf=sample_cpf(300_000_001), full_name="Pessoa de Maricá", reason="teste"
    )
    holder = services.register_holder(actor=None, person=person, reason="teste")
    vehicle = services.create_vehicle(
        actor=None,
        jurisdiction=j,
        plate="RMA1B23",
        manufacture_year=today().year - 3,
        category="van",
        seats=16,
        doors=4,
        holder=holder,
        reason="teste",
    )
    users = {}
    for role in Role:
        user = User.objects.create_user(f"{role.value}.marica", password="senha-de-teste-123")
        StaffMembership.objects.create(user=user, jurisdiction=j, role=role.value)
        users[role.value] = user
    return {"jurisdiction": j, "holder": holder, "vehicle": vehicle, "users": users}


@pytest.fixture
def pernambuco(world: Any) -> dict[str, Any]:
    from lotacao.registry import services

    j = make_jurisdiction("pernambuco")
    company = services.create_company(
        actor=None,
        jurisdiction=j,
        cnpj=sample_cnpj(77_000_001),
        legal_name="Fretamentos Ltda.",
        reason="teste",
    )
    holder = services.register_holder(actor=None, company=company, reason="teste")
    vehicle = services.create_vehicle(
        actor=None,
        jurisdiction=j,
        plate="PEF1A10",
        manufacture_year=today().year - 2,
        category="bus",
        seats=46,
        doors=2,
        holder=holder,
        reason="teste",
    )
    return {"jurisdiction": j, "holder": holder, "vehicle": vehicle}


# ---------------------------------------------------------------- helpers shared by the test modules


def refused(call: Any, *needles: str) -> str:
    """Call, expect a refusal, and check that its Portuguese message says each needle."""
    with pytest.raises(ValidationError) as info:
        call()
    text = " ".join(info.value.messages)
    for needle in needles:
        assert needle in text, text
    return text


def fresh_vehicle(world: Any, code: str) -> Any:
    """A vehicle of the world's holder with no inspection yet (the shared world has some)."""
    from lotacao.registry import services as registry

    j = world.a if code == world.a.code else world.b
    return registry.create_vehicle(
        actor=None,
        jurisdiction=j,
        plate="FRE5H00",
        manufacture_year=today().year - 2,
        category="van",
        seats=16,
        doors=4,
        holder=world.objects[code]["registry.holder"],
        reason="teste",
    )
