"""The fleet (arts. 1, 3, 11, 15 and 18 of Lei 16.205/2017 as amended in 2020)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.billing.services import record_payment
from lotacao.chartering import fleet
from lotacao.chartering.models import FleetVehicle
from lotacao.inspections.models import Inspection, InsurancePolicy
from lotacao.registry.models import Vehicle


def _leased(pe: Any, company: Any, plate: str, **options: Any) -> Any:
    return pe.vehicle(company, plate, tenure="leased", **options)


def test_with_5_own_buses_3_leased_are_accepted_and_the_4th_refused_unless_same_group(pe: Any) -> None:
    company = pe.company(buses=5)
    for n in range(3):
        _leased(pe, company, f"PLS1A0{n}")
    with pytest.raises(ValidationError) as error:
        _leased(pe, company, "PLS1A09")
    assert any("excedem o limite de 3" in m for m in error.value.messages)
    assert any("art. 18, § 1º" in m for m in error.value.messages)
    assert not Vehicle.objects.filter(plate="PLS1A09").exists()  # nothing written
    entry = _leased(
        pe, company, "PLS1A09", lessor_same_group=True, group_proof="Contrato social: sócio comum"
    )
    assert (
        entry.lessor_same_group and FleetVehicle.objects.filter(company=company, tenure="leased").count() == 4
    )


def test_same_group_needs_the_proof_of_a_common_partner(pe: Any) -> None:
    company = pe.company(buses=2)
    with pytest.raises(ValidationError, match="sócio em comum"):
        _leased(pe, company, "PLS1B01", lessor_same_group=True)


def test_a_16_year_old_bus_is_refused(pe: Any) -> None:
    company = pe.company(buses=2)
    with pytest.raises(ValidationError) as error:
        pe.vehicle(company, "PLD1A16", age=16)
    assert any("art. 11" in m for m in error.value.messages)
    pe.vehicle(company, "PLD1A15", age=15)


def test_a_6_year_old_7_seat_car_is_refused_in_tourism(pe: Any) -> None:
    company = pe.company(["tourism"], buses=2)
    with pytest.raises(ValidationError) as error:
        pe.vehicle(company, "PLC7A06", category="car7", age=6)
    assert any("art. 11" in m for m in error.value.messages)
    pe.vehicle(company, "PLC7A05", category="car7", age=5)


def test_a_7_seat_car_is_only_for_tourism(pe: Any) -> None:
    company = pe.company(["eventual"], buses=2)
    with pytest.raises(ValidationError) as error:
        pe.vehicle(company, "PLC7B01", category="car7", age=1)
    assert any("art. 3º, § 3º" in m for m in error.value.messages)


def test_leased_7_seat_cars_of_tourism_are_outside_the_cap(pe: Any) -> None:
    company = pe.company(["tourism"], buses=2)
    for n in range(4):
        pe.vehicle(company, f"PLT7A0{n}", category="car7", age=1, tenure="rented")
    assert FleetVehicle.objects.filter(company=company, tenure="rented").count() == 4


def test_a_vehicle_outside_the_rental_category_is_refused_except_social_and_own(pe: Any) -> None:
    company = pe.company(["eventual"], buses=2)
    with pytest.raises(ValidationError, match="categoria aluguel"):
        pe.vehicle(company, "PLR1A01", rental_category=False)
    own = pe.company(["own"], buses=2)
    pe.vehicle(own, "PLR1A02", rental_category=False)


def test_a_regular_operator_moves_up_to_10_percent_of_its_regular_fleet(pe: Any) -> None:
    company = pe.company(buses=2)
    company.regular_fleet = 25
    company.save()
    pe.vehicle(company, "PRG1A01", from_regular=True)
    pe.vehicle(company, "PRG1A02", from_regular=True)
    with pytest.raises(ValidationError, match="frota regular"):
        pe.vehicle(company, "PRG1A03", from_regular=True)


def test_the_crc_needs_two_own_buses(pe: Any) -> None:
    company = pe.company(buses=1, issue=False)
    from lotacao.chartering import crc
    from lotacao.chartering.models import CrcApplication

    with pytest.raises(ValidationError) as error:
        crc.issue_crc(actor=None, application=CrcApplication.objects.get(company=company), reason="teste")
    assert any("art. 3º, § 4º" in m for m in error.value.messages)


def test_removing_an_own_vehicle_that_keeps_leases_in_check_is_refused(pe: Any) -> None:
    company = pe.company(buses=3)
    _leased(pe, company, "PLX1A01")
    _leased(pe, company, "PLX1A02")
    own = FleetVehicle.objects.filter(company=company, tenure="own").first()
    with pytest.raises(ValidationError, match="retire antes um arrendado"):
        fleet.remove_vehicle(actor=None, entry=own, reason="venda")
    own.refresh_from_db()
    assert own.removed_on is None


def test_a_micro_bus_policy_of_250_000_is_refused(pe: Any) -> None:
    company = pe.company(buses=2)
    entry = pe.vehicle(company, "PMB1A01", category="microbus")
    before = InsurancePolicy.objects.filter(vehicle=entry.vehicle).count()
    with pytest.raises(ValidationError) as error:
        fleet.register_insurance(
            actor=None,
            entry=entry,
            reason="teste",
            insurer="Seguradora",
            number="AP-1",
            valid_from=pe.today,
            valid_until=pe.today + dt.timedelta(days=365),
            civil_liability=Decimal("250000.00"),
            death_per_passenger=Decimal("13000.00"),
            disability_per_passenger=Decimal("5000.00"),
            third_party=Decimal("50000.00"),
        )
    assert any("art. 15" in m for m in error.value.messages)
    assert InsurancePolicy.objects.filter(vehicle=entry.vehicle).count() == before


def test_the_inspection_waits_for_the_fusp_lv_whose_amount_the_agency_supplies(pe: Any) -> None:
    from lotacao.web.agency_values import set_agency_value

    company = pe.company(buses=2)
    entry = FleetVehicle.objects.filter(company=company).first()
    with pytest.raises(ValidationError, match="FUSP-LV"):
        fleet.issue_fusp_lv(actor=None, entry=entry, reason="teste")  # the law's Anexo is elided
    with pytest.raises(ValidationError, match=r"FUSP-LV .* não está paga"):
        fleet.request_inspection(
            actor=None, entry=entry, scheduled_for=pe.today + dt.timedelta(days=5), reason="teste"
        )
    set_agency_value(
        actor=pe.users["gestor"],
        jurisdiction=pe.jurisdiction,
        parameter="fee.fusp_lv",
        valid_from=dt.date(2020, 11, 13),
        value={"amount": "150.00", "per": "vehicle"},
        cite="Portaria EPTI (teste)",
        reason="teste",
    )
    charge = fleet.issue_fusp_lv(actor=None, entry=entry, reason="teste")
    assert charge.amount == Decimal("150.00") and charge.holder == company.holder
    record_payment(actor=None, charge=charge, paid_on=pe.today, reason="teste")
    inspection = fleet.request_inspection(
        actor=None, entry=entry, scheduled_for=pe.today + dt.timedelta(days=5), reason="teste"
    )
    assert inspection.status == Inspection.Status.SCHEDULED
