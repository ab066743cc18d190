from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.core.sample_ids import sample_cnpj, sample_cpf
from lotacao.registry import services
from lotacao.registry.models import Company, Holder, Person, Vehicle
from tests import clock


def _nothing_changed(before: tuple[int, int, int, int]) -> bool:
    return before == (
        Person.objects.count(),
        Holder.objects.count(),
        Vehicle.objects.count(),
        AuditEvent.objects.count(),
    )


def _counts() -> tuple[int, int, int, int]:
    return Person.objects.count(), Holder.objects.count(), Vehicle.objects.count(), AuditEvent.objects.count()


def test_an_invalid_cpf_is_refused_in_portuguese_and_changes_nothing(world: Any) -> None:
    before = _counts()
    with pytest.raises(
        ValidationError, match=r"CPF 123\.456\.789-00 inválido: dígito verificador não confere"
    ):
        services.create_person(
            actor=None, jurisdiction=world.a, cpf="123.456.789-00", full_name="X", reason="t"
        )
    with pytest.raises(ValidationError, match="deve ter 11 dígitos"):
        services.create_person(actor=None, jurisdiction=world.a, cpf="1234", full_name="X", reason="t")
    assert _nothing_changed(before)


def test_the_same_cpf_twice_in_one_jurisdiction_is_refused(world: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    before = _counts()
    with pytest.raises(ValidationError, match="Já existe uma pessoa com o CPF"):
        services.create_person(
            actor=None, jurisdiction=world.a, cpf=person.cpf_display, full_name="X", reason="t"
        )
    assert _nothing_changed(before)
    # …but the same person may be registered by another agency
    services.create_person(actor=None, jurisdiction=world.b, cpf=person.cpf, full_name="X", reason="t")


def test_a_company_cannot_hold_a_permit_where_the_law_allows_only_persons(world: Any) -> None:
    company = services.create_company(
        actor=None, jurisdiction=world.a, cnpj=sample_cnpj(77), legal_name="Van Ltda.", reason="t"
    )
    before = _counts()
    with pytest.raises(ValidationError, match=r"pessoa jurídica não pode ter permissão.*art\. 6º"):
        services.register_holder(actor=None, company=company, reason="t")
    assert _nothing_changed(before)


def test_esteio_admits_companies_as_holders(world: Any) -> None:
    company = services.create_company(
        actor=None, jurisdiction=world.b, cnpj=sample_cnpj(78), legal_name="Lotação Ltda.", reason="t"
    )
    holder = services.register_holder(actor=None, company=company, reason="t")
    assert holder.kind == "company" and holder.jurisdiction_id == "esteio"


def test_a_person_is_registered_as_holder_only_once(world: Any) -> None:
    with pytest.raises(ValidationError, match="já tem cadastro de permissionário"):
        services.register_holder(actor=None, person=world.objects["recife"]["registry.person"], reason="t")


@pytest.mark.parametrize(
    ("plate", "ok"), [("ABC-1234", True), ("abc1d23", True), ("AB-12345", False), ("", False)]
)
def test_plates_in_old_and_mercosul_formats(world: Any, plate: str, ok: bool) -> None:
    before = _counts()
    call = lambda: services.create_vehicle(  # noqa: E731
        actor=None,
        jurisdiction=world.a,
        plate=plate,
        manufacture_year=2020,
        category="van",
        seats=16,
        doors=4,
        reason="t",
    )
    if ok:
        assert call().plate == plate.replace("-", "").upper()
    else:
        with pytest.raises(ValidationError, match=r"Placa .* inválida"):
            call()
        assert _nothing_changed(before)


def test_a_plate_is_unique_within_a_jurisdiction(world: Any) -> None:
    with pytest.raises(ValidationError, match="já está cadastrada"):
        services.create_vehicle(
            actor=None,
            jurisdiction=world.a,
            plate="aba-1c23",
            manufacture_year=2020,
            category="van",
            seats=16,
            doors=4,
            reason="t",
        )


def test_a_vehicle_cannot_belong_to_another_jurisdictions_holder(world: Any) -> None:
    with pytest.raises(ValidationError, match="outra jurisdição"):
        services.create_vehicle(
            actor=None,
            jurisdiction=world.b,
            plate="XYZ1A23",
            manufacture_year=2020,
            category="van",
            seats=16,
            doors=4,
            reason="t",
            holder=world.objects["recife"]["registry.holder"],
        )


def test_renavam_is_checked(world: Any) -> None:
    with pytest.raises(ValidationError, match="RENAVAM 12345678901 inválido"):
        services.create_vehicle(
            actor=None,
            jurisdiction=world.a,
            plate="XYZ1A23",
            manufacture_year=2020,
            category="van",
            seats=16,
            doors=4,
            reason="t",
            renavam="12345678901",
        )


def test_demo_identifiers_are_valid() -> None:
    from stdnum.br import cnpj, cpf

    assert cpf.is_valid(sample_cpf(123456789)) and cnpj.is_valid(sample_cnpj(12345678))
    assert clock.today()  # the demo uses today's year for vehicle ages
    assert Company  # imported for the company tests above
