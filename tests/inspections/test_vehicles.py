"""Vehicles before the law: admission, stay, replacement and insurance — each refusal with its article."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from lotacao.audit.models import AuditEvent
from lotacao.inspections import rules, services
from lotacao.inspections.models import InsurancePolicy, VehicleAssessment
from lotacao.registry.models import Vehicle
from tests.clock import today

from .conftest import fresh_vehicle, refused

pytestmark = pytest.mark.django_db


def _new(j: Any, **over: Any) -> dict[str, Any]:
    data = {
        "jurisdiction": j,
        "plate": "QQQ1A11",
        "manufacture_year": today().year - 1,
        "category": "van",
        "seats": 16,
        "doors": 4,
        "reason": "teste",
        "actor": None,
    }
    data.update(over)
    return data


# --------------------------------------------------------------------------- admission and stay


def test_recife_refuses_entry_of_a_vehicle_older_than_three_years(world: Any) -> None:
    events = AuditEvent.objects.count()
    refused(
        lambda: services.admit_vehicle(**_new(world.a, manufacture_year=today().year - 4)),
        "ingresso admite até 3 anos",
        "Lei Municipal 16.856/2003 (Recife), art. 16, II",
    )
    assert not Vehicle.objects.filter(plate="QQQ1A11").exists()
    assert AuditEvent.objects.count() == events


def test_admission_stores_the_engine_decision_with_its_citations(world: Any) -> None:
    vehicle = services.admit_vehicle(**_new(world.a))
    decision = VehicleAssessment.objects.get(vehicle=vehicle)
    assert decision.action == "entry" and decision.eligible
    assert any("art. 16, II" in c for c in decision.citations)


def test_marica_refuses_seats_and_doors_out_of_range(marica: Any) -> None:
    j = marica["jurisdiction"]
    refused(
        lambda: services.admit_vehicle(**_new(j, seats=8)), "8 lugares: o mínimo é 9", "(Maricá), art. 23"
    )
    refused(lambda: services.admit_vehicle(**_new(j, seats=32)), "o máximo é 31", "art. 23")
    refused(lambda: services.admit_vehicle(**_new(j, doors=2)), "2 portas: exigidas 4", "art. 23")
    assert not Vehicle.objects.filter(plate="QQQ1A11").exists()


def test_marica_refuses_keeping_a_vehicle_beyond_ten_years(marica: Any) -> None:
    vehicle = marica["vehicle"]
    refused(
        lambda: services.update_vehicle(
            actor=None, vehicle=vehicle, changes={"manufacture_year": today().year - 11}, reason="correção"
        ),
        "limite para van é de 10 anos",
        "(Maricá), art. 25",
    )
    vehicle.refresh_from_db()
    assert vehicle.manufacture_year == today().year - 3


def test_age_limit_and_marica_replacement_deadline(marica: Any) -> None:
    vehicle = marica["vehicle"]
    limit = rules.age_limit(vehicle, today())
    assert limit.limit_years == 10
    assert limit.reached_on == dt.date(vehicle.manufacture_year + 11, 1, 1)
    assert limit.replacement_due is not None
    # 90 calendar days; a last day that is not a business day moves to the next one
    assert 0 <= (limit.replacement_due - limit.reached_on - dt.timedelta(days=90)).days <= 4
    assert "art. 25, § 3º" in limit.replacement_citation


def test_recife_has_no_replacement_deadline(world: Any) -> None:
    limit = rules.age_limit(fresh_vehicle(world, "recife"), today())
    assert limit.limit_years == 6 and limit.replacement_due is None


# --------------------------------------------------------------------------- replacement


def test_recife_refuses_an_older_or_too_old_substitute(world: Any) -> None:
    old = fresh_vehicle(world, "recife")
    refused(
        lambda: services.replace_vehicle(
            actor=None,
            replaced=old,
            plate="QQQ1A11",
            manufacture_year=today().year - 4,
            category="van",
            seats=16,
            doors=4,
            reason="troca",
            decharacterization_proof="baixa 123",
        ),
        "substituição exige até 3 anos",
        "art. 19, parágrafo único",
    )
    old.refresh_from_db()
    assert old.deregistered_on is None


def test_marica_refuses_a_substitute_older_than_five_years(marica: Any) -> None:
    refused(
        lambda: services.replace_vehicle(
            actor=None,
            replaced=marica["vehicle"],
            plate="QQQ1A11",
            manufacture_year=today().year - 6,
            category="van",
            seats=16,
            doors=4,
            reason="troca",
            decharacterization_proof="baixa 123",
        ),
        "(Maricá), art. 25, § 1º",
    )


def test_replacement_requires_proof_of_the_old_vehicle_deregistration(marica: Any) -> None:
    old = marica["vehicle"]
    refused(
        lambda: services.replace_vehicle(
            actor=None,
            replaced=old,
            plate="QQQ1A11",
            manufacture_year=today().year - 1,
            category="van",
            seats=16,
            doors=4,
            reason="troca",
        ),
        "descaracterização",
        "baixa da placa de aluguel",
        "(Maricá), art. 25, § 4º",
    )
    old.refresh_from_db()
    assert old.deregistered_on is None and not Vehicle.objects.filter(plate="QQQ1A11").exists()

    new = services.replace_vehicle(
        actor=None,
        replaced=old,
        plate="QQQ1A11",
        manufacture_year=today().year - 1,
        category="van",
        seats=16,
        doors=4,
        reason="troca",
        decharacterization_proof="Baixa da placa de aluguel, DETRAN 555",
    )
    old.refresh_from_db()
    assert old.deregistered_on == today() and new.holder == old.holder
    decision = VehicleAssessment.objects.get(vehicle=new)
    assert decision.replaced == old and any("art. 25, § 4º" in c for c in decision.citations)
    assert AuditEvent.objects.filter(action="vehicle.deregistered", object_id=str(old.pk)).exists()


def test_recife_replacement_also_requires_decharacterization(world: Any) -> None:
    refused(
        lambda: services.replace_vehicle(
            actor=None,
            replaced=fresh_vehicle(world, "recife"),
            plate="QQQ1A11",
            manufacture_year=today().year,
            category="van",
            seats=16,
            doors=4,
            reason="troca",
        ),
        "art. 13, XXVII",
    )


# --------------------------------------------------------------------------- insurance


def test_insurance_below_the_minimum_isrefused(pernambuco: Any) -> None:
    vehicle = pernambuco["vehicle"]
    kwargs = {
        "actor": None,
        "vehicle": vehicle,
        "insurer": "Seguradora X",
        "number": "A-1",
        "valid_from": today(),
        "valid_until": today() + dt.timedelta(days=365),
        "reason": "apólice",
    }
    refused(
        lambda: services.register_insurance(
            **kwargs,
            civil_liability=Decimal("100000"),
            death_per_passenger=Decimal("13000"),
            disability_per_passenger=Decimal("5000"),
            third_party=Decimal("50000"),
        ),
        "Cobertura de responsabilidade civil: R$ 100.000,00; mínimo R$ 500.000,00",
        "art. 15",
    )
    assert not InsurancePolicy.objects.exists()
    policy = services.register_insurance(
        **kwargs,
        civil_liability=Decimal("500000"),
        death_per_passenger=Decimal("13000"),
        disability_per_passenger=Decimal("5000"),
        third_party=Decimal("50000"),
    )
    assert any("art. 15" in c for c in policy.citations)


def test_insurance_without_minimum_in_the_law_is_accepted(world: Any) -> None:
    policy = services.register_insurance(
        actor=None,
        vehicle=fresh_vehicle(world, "recife"),
        insurer="Seg",
        number="1",
        valid_from=today(),
        valid_until=today() + dt.timedelta(days=30),
        reason="apólice",
        civil_liability=Decimal("1000"),
    )
    assert policy.pk
    refused(
        lambda: services.register_insurance(
            actor=None,
            vehicle=policy.vehicle,
            insurer="Seg",
            number="2",
            valid_from=today(),
            valid_until=today() - dt.timedelta(days=1),
            reason="apólice",
        ),
        "anterior ao início",
    )


def test_replacement_moves_the_permit_to_the_new_vehicle(marica: Any) -> None:
    from lotacao.permits.models import Permit

    old = marica["vehicle"]
    permit = Permit.objects.create(
        jurisdiction=marica["jurisdiction"],
        holder=marica["holder"],
        vehicle=old,
        number="TP-1",
        status="active",
        applied_on=today() - dt.timedelta(days=100),
        granted_on=today() - dt.timedelta(days=90),
    )
    new = services.replace_vehicle(
        actor=None,
        replaced=old,
        plate="QQQ1A11",
        manufacture_year=today().year,
        category="van",
        seats=16,
        doors=4,
        reason="troca",
        decharacterization_proof="baixa da placa de aluguel",
    )
    permit.refresh_from_db()
    assert permit.vehicle == new
    assert AuditEvent.objects.filter(action="permit.vehicle_replaced", object_id=str(permit.pk)).exists()
