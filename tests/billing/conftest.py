"""Fixtures of the billing tests: agency values, more jurisdictions, holders with accounts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from lotacao.core.models import Jurisdiction
from lotacao.core.sample_ids import sample_cnpj, sample_cpf

NAMES = {
    "cabo": ("Cabo de Santo Agostinho", "PE"),
    "marica": ("Maricá", "RJ"),
    "pernambuco": ("Pernambuco", "PE"),
}


@pytest.fixture
def agency(world: Any) -> Callable[..., Any]:
    """Record an agency value (what the law leaves open), as the manager would at /lei/."""
    from lotacao.web.agency_values import set_agency_value

    def _set(
        code: str, parameter: str, valid_from: dt.date, value: Any, cite: str = "Portaria 1/2026"
    ) -> Any:
        return set_agency_value(
            actor=None,
            jurisdiction=Jurisdiction.objects.get(code=code),
            parameter=parameter,
            valid_from=valid_from,
            value=value,
            cite=cite,
            reason="teste",
        )

    return _set


@pytest.fixture
def place(world: Any) -> Callable[[str], Jurisdiction]:
    def _place(code: str) -> Jurisdiction:
        if code in ("recife", "esteio"):
            return Jurisdiction.objects.get(code=code)
        name, state = NAMES[code]
        return Jurisdiction.objects.get_or_create(
            code=code, defaults={"name": name, "official_name": name, "state": state}
        )[0]

    return _place


def _authorized(holder: Any, vehicle: Any) -> None:
    """A chartering company's fleet vehicle with its traffic authorization (the seal) from 2026 to
    2028: Pernambuco's FUSP-F counts those (Lei 16.205/2017, art. 21, § 3º)."""
    from lotacao.chartering.models import CharteringCompany, FleetVehicle
    from lotacao.inspections.models import Seal

    company, _ = CharteringCompany.objects.get_or_create(jurisdiction=holder.jurisdiction, holder=holder)
    FleetVehicle.objects.create(
        jurisdiction=holder.jurisdiction, company=company, vehicle=vehicle, added_on=dt.date(2026, 1, 1)
    )
    Seal.objects.create(
        jurisdiction=holder.jurisdiction,
        vehicle=vehicle,
        number=f"S-{vehicle.plate}",
        issued_on=dt.date(2026, 1, 1),
        valid_until=dt.date(2028, 12, 31),
    )


@pytest.fixture
def new_holder(world: Any) -> Callable[..., Any]:
    from lotacao.registry import services

    counter = {"n": 0}

    def _holder(jurisdiction: Jurisdiction, *, company: bool = False, vehicles: int = 0) -> Any:
        counter["n"] += 1
        n = counter["n"]
        if company:
            party = services.create_company(
                actor=None,
                jurisdiction=jurisdiction,
                cnpj=sample_cnpj(81_000_000 + n),
                legal_name=f"Empresa {n} Ltda",
                reason="teste",
            )
            holder = services.register_holder(actor=None, company=party, reason="teste")
        else:
            person = services.create_person(
                actor=None,
                jurisdiction=jurisdiction,
                cpf=sample_cpf(310_000_000 + n),
                full_name=f"Permissionário {n}",
                birth_date=dt.date(1980, 1, 1),
                reason="teste",
            )
            holder = services.register_holder(actor=None, person=person, reason="teste")
        for v in range(vehicles):
            vehicle = services.create_vehicle(
                actor=None,
                jurisdiction=jurisdiction,
                plate=f"QX{chr(65 + n % 26)}{v}{n % 10}{v}{n % 7}",
                manufacture_year=2022,
                category="bus",
                seats=46,
                doors=2,
                holder=holder,
                reason="teste",
            )
            if jurisdiction.code == "pernambuco":
                _authorized(holder, vehicle)
        return holder

    return _holder


@pytest.fixture(autouse=True)
def _clean_ledger(request: Any) -> None:
    """The shared world carries one row of each billing model (for the tenancy walk); the billing
    tests start from an empty ledger instead."""
    if "world" not in request.fixturenames and "bworld" not in request.fixturenames:
        return
    world = request.getfixturevalue("bworld" if "bworld" in request.fixturenames else "world")
    from lotacao.billing.models import (
        BankImport,
        BillingRun,
        Charge,
        DemandDeclaration,
        FareAct,
        FareStudy,
        Payment,
        Readjustment,
        ReconciliationItem,
    )

    for model in (
        ReconciliationItem,
        Payment,
        Charge,
        DemandDeclaration,
        BillingRun,
        BankImport,
        FareAct,
        Readjustment,
        FareStudy,
    ):
        model.unscoped.all().delete()
    for objects in world.objects.values():
        for label in [k for k in objects if k.startswith("billing.")]:
            del objects[label]
