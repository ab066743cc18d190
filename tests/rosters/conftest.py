"""Helpers for the rosters tests: for any jurisdiction, a line with two permits (holders with a
van each), an auxiliary driver of the first permit, the line's representatives and a gestor."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from lotacao.core.sample_ids import sample_cpf

NAMES = {
    "recife": "Recife",
    "esteio": "Esteio",
    "cabo": "Cabo de Santo Agostinho",
    "marica": "Maricá",
    "pernambuco": "Pernambuco",
}
_seq = [0]


@dataclass
class Setup:
    j: Any
    line: Any
    holders: list[Any]
    vehicles: list[Any]
    permits: list[Any]
    auxiliary: Any  # the first permit's auxiliary driver (a Person)
    outsider: Any  # a person registered for no permit
    representatives: dict[str, Any]
    gestor: Any
    atendente: Any
    fiscal: Any


def _person(j: Any, name: str) -> Any:
    from lotacao.registry import services

    _seq[0] += 1
    return services.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(400_000_000 + _seq[0]),
        full_name=name,
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )


def make_setup(code: str) -> Setup:
    from lotacao.accounts.models import HolderAccount, Role, StaffMembership, User
    from lotacao.core.models import Jurisdiction
    from lotacao.permits.models import Permit, PermitAgent
    from lotacao.registry import services
    from lotacao.registry.models import LineRepresentative

    j, _ = Jurisdiction.objects.get_or_create(
        code=code, defaults={"name": NAMES[code], "official_name": "Órgão", "state": "PE"}
    )
    today = timezone.localdate()
    n = _seq[0] = _seq[0] + 1
    line = services.create_line(actor=None, jurisdiction=j, code=f"R{n}", name=f"Linha {n}", reason="teste")
    holders, vehicles, permits = [], [], []
    for i in range(2):
        person = _person(j, f"Permissionário {i} da linha {n}")
        holder = services.register_holder(actor=None, person=person, reason="teste")
        user = User.objects.create_user(f"perm{n}-{i}.{code}", password="senha-de-teste-123")
        HolderAccount.objects.create(user=user, holder=holder)
        vehicle = services.create_vehicle(
            actor=None,
            jurisdiction=j,
            plate=f"RS{chr(65 + n % 26)}{i}A{n % 100:02d}",
            manufacture_year=2021,
            category="van",
            seats=16,
            doors=4,
            holder=holder,
            reason="teste",
        )
        permit = Permit.objects.create(
            jurisdiction=j,
            number=f"P-{n}-{i}",
            holder=holder,
            line=line,
            vehicle=vehicle,
            status=Permit.Status.ACTIVE,
            applied_on=today - dt.timedelta(days=400),
            granted_on=today - dt.timedelta(days=400),
            valid_until=today + dt.timedelta(days=365),
            term_citation="teste",
        )
        holders.append(holder)
        vehicles.append(vehicle)
        permits.append(permit)
    auxiliary = _person(j, f"Condutor auxiliar da linha {n}")
    PermitAgent.objects.create(
        jurisdiction=j,
        permit=permits[0],
        person=auxiliary,
        role=PermitAgent.Role.AUXILIARY_DRIVER,
        starts_on=today - dt.timedelta(days=300),
    )
    outsider = _person(j, f"Pessoa sem cadastro {n}")
    reps = {}
    for position in ("representative", "coordinator", "auxiliary"):
        reps[position] = LineRepresentative.objects.create(
            jurisdiction=j,
            line=line,
            person=_person(j, f"{position} {n}"),
            position=position,
            term_start=today - dt.timedelta(days=100),
            term_end=today + dt.timedelta(days=200),
        )
    staff = {}
    for role in (Role.MANAGER, Role.CLERK, Role.INSPECTOR):
        user = User.objects.create_user(f"{role.value}{n}.{code}", password="senha-de-teste-123")
        StaffMembership.objects.create(user=user, jurisdiction=j, role=role.value)
        staff[role] = user
    return Setup(
        j,
        line,
        holders,
        vehicles,
        permits,
        auxiliary,
        outsider,
        reps,
        staff[Role.MANAGER],
        staff[Role.CLERK],
        staff[Role.INSPECTOR],
    )


@pytest.fixture
def setup_for(world: Any) -> Any:
    return make_setup
