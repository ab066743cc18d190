"""Helpers for the delegation tests: Esteio's permit of the shared world, its contract with every
essential clause (Lei 3.839/2004, art. 42) and the agency's defense deadline (art. 37)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests import clock

TODAY = clock.today  # the application's local date (tests/clock.py)


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
        cite="Portaria SMOVT nº 7/2020 (teste)",
        reason="teste",
    )
    law.forget(code)


def all_clauses(code: str = "esteio") -> dict[str, str]:
    from lotacao.delegation import rules

    return {k: f"Cláusula {k.upper()} do contrato: {v}." for k, v in rules.clauses(code, TODAY()).items()}


@pytest.fixture
def gestor(world: Any) -> Any:
    """Esteio's manager; the world's own contracts (made for the URL crawl) are removed first, so
    each test records its contract through the service."""
    from lotacao.delegation.models import Contract, Inquiry

    Inquiry.unscoped.all().delete()
    Contract.unscoped.all().delete()
    return world.users["gestor.esteio"]


@pytest.fixture
def permit(world: Any, gestor: Any) -> Any:
    return world.objects["esteio"]["permits.permit"]


@pytest.fixture
def defense_days(world: Any) -> None:
    set_value("esteio", "deadline.caducidade_defense", {"days": 10, "counting": "calendar_days"})


@pytest.fixture
def contract(world: Any, gestor: Any, permit: Any) -> Any:
    from lotacao.delegation import services

    return services.record_contract(
        actor=gestor,
        permit=permit,
        number="CT-01/2026",
        signed_on=TODAY() - dt.timedelta(days=25),
        clauses=all_clauses(),
        reason="Contrato assinado após a licitação",
    )


def cmtt_resolution(dated_on: dt.date, number: int = 3, favorable: bool = True) -> Any:
    """A resolution of Esteio's CMTT recommending the extinction (art. 46, § 3º, a)."""
    from lotacao.councils import services as councils
    from lotacao.councils.models import Council

    councils.register_from_law(actor=None, jurisdiction_code="esteio", reason="teste")
    cmtt = Council.objects.get(jurisdiction_id="esteio", key="cmtt")
    return councils.register_resolution(
        actor=None,
        council=cmtt,
        number=number,
        dated_on=dated_on,
        subject="Recomenda a extinção da permissão por descumprimento contratual",
        text="Comprovado o descumprimento, recomenda ao Prefeito a declaração da caducidade.",
        reason="teste",
        gate="permit.extinction",
        favorable=favorable,
    )


def company_permit(world: Any, seed: int = 1, company: bool = True) -> Any:
    """A live permit of a new holder of Esteio (a company unless `company` is False) with its own
    vehicle: the successor after the tender (art. 49)."""
    from lotacao.core.sample_ids import sample_cnpj, sample_cpf
    from lotacao.permits.models import Permit
    from lotacao.registry import services as registry

    j = world.b
    if company:
        party = registry.create_company(
            actor=None,
            jurisdiction=j,
            cnpj=sample_cnpj(71_000_000 + seed),
            legal_name=f"Sucessora {seed} Ltda.",
            reason="teste",
        )
        holder = registry.register_holder(actor=None, company=party, reason="teste")
    else:
        person = registry.create_person(
            actor=None,
            jurisdiction=j,
            cpf=sample_cpf(300_000_000 + seed),
            full_name=f"Sucessor {seed}",
            birth_date=dt.date(1980, 1, 1),
            reason="teste",
        )
        holder = registry.register_holder(actor=None, person=person, reason="teste")
    vehicle = registry.create_vehicle(
        actor=None,
        jurisdiction=j,
        plate=f"SUC{seed}A{seed:02d}",
        manufacture_year=2024,
        category="microbus",
        seats=20,
        doors=2,
        holder=holder,
        reason="teste",
    )
    today = TODAY()
    return Permit.objects.create(
        jurisdiction=j,
        number=f"EST-S{seed}/{today.year}",
        holder=holder,
        line=world.objects["esteio"]["registry.line"],
        vehicle=vehicle,
        status=Permit.Status.ACTIVE,
        applied_on=today - dt.timedelta(days=20),
        granted_on=today - dt.timedelta(days=20),
        valid_until=today + dt.timedelta(days=3650),
        term_citation="teste",
    )
