"""Trips (art. 21), the 7-seat authorization, the road check and the notice prefill; cassação
risk for another modality (art. 35)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.chartering import selectors, trips
from lotacao.chartering.models import FleetVehicle, Passenger, Sanction, Trip


def _data(entry: Any, modality: str = "eventual", **changes: Any) -> trips.TripData:
    start = timezone.now() + dt.timedelta(hours=3)
    fields: dict[str, Any] = {
        "modality": modality,
        "vehicle": entry.vehicle,
        "contractor_name": "Associação dos Romeiros",
        "origin": "Caruaru",
        "destination": "Juazeiro do Norte",
        "departs_at": start,
        "returns_at": start + dt.timedelta(days=2),
        "itinerary": "BR-232, BR-116",
        "driver_name": "Severino Condutor",
        "driver_document": "01234567890",
        **changes,
    }
    return trips.TripData(**fields)


PEOPLE = [(f"Passageiro {n}", f"RG {1000 + n}") for n in range(40)]


def _entry(company: Any, category: str = "bus") -> Any:
    return FleetVehicle.objects.filter(company=company, vehicle__category=category).first()


def test_a_trip_with_40_passengers_is_declared(pe: Any) -> None:
    company = pe.company(["tourism"])
    trip = trips.declare_trip(
        actor=None, company=company, data=_data(_entry(company), "tourism"), passengers=PEOPLE, reason="teste"
    )
    assert trip.status == Trip.Status.DECLARED and trip.passenger_count == 40
    assert Passenger.objects.filter(trip=trip).count() == 40


def test_tourism_without_the_passenger_list_is_refused(pe: Any) -> None:
    company = pe.company(["tourism"])
    with pytest.raises(ValidationError) as error:
        trips.declare_trip(
            actor=None, company=company, data=_data(_entry(company), "tourism"), passengers=[], reason="teste"
        )
    assert any("lista de passageiros" in m and "art. 21" in m for m in error.value.messages)
    assert not Trip.objects.filter(company=company).exists()


def test_a_7_seat_trip_waits_for_the_epti_and_the_road_check_offers_iv_d(pe: Any) -> None:
    company = pe.company(["tourism"])
    car = pe.vehicle(company, "PLC7C01", category="car7", age=1)
    trip = trips.declare_trip(
        actor=None, company=company, data=_data(car, "tourism"), passengers=PEOPLE[:4], reason="teste"
    )
    assert trip.status == Trip.Status.AWAITING
    check = selectors.road_check(car.vehicle, timezone.localtime(trip.departs_at).date())
    assert "IV-d" in [o["code"] for o in check["offers"]]
    prefill = selectors.notice_prefill(infraction_code="IV-d", trip=trip)
    assert prefill["offender_kind"] == "company" and prefill["holder"] == company.holder
    assert prefill["plate"] == "PLC7C01" and prefill["offender_document"] == company.holder.company.cnpj
    assert "autorização" in prefill["description"].lower()
    with pytest.raises(ValidationError, match="motivos"):
        trips.decide_authorization(actor=pe.users["atendente"], trip=trip, granted=True, reasons=" ")
    trips.decide_authorization(
        actor=pe.users["atendente"], trip=trip, granted=True, reasons="Documentos conferidos"
    )
    trip.refresh_from_db()
    assert trip.status == Trip.Status.AUTHORIZED
    check = selectors.road_check(car.vehicle, timezone.localtime(trip.departs_at).date())
    assert "IV-d" not in [o["code"] for o in check["offers"]]


def test_a_refused_authorization_keeps_its_reasons(pe: Any) -> None:
    company = pe.company(["tourism"])
    car = pe.vehicle(company, "PLC7C02", category="car7", age=1)
    trip = trips.declare_trip(
        actor=None, company=company, data=_data(car, "tourism"), passengers=PEOPLE[:3], reason="teste"
    )
    trips.decide_authorization(
        actor=pe.users["gestor"], trip=trip, granted=False, reasons="Envelopamento ausente"
    )
    trip.refresh_from_db()
    assert trip.status == Trip.Status.REFUSED and trip.decision_reasons == "Envelopamento ausente"


def test_a_trip_in_a_modality_the_crc_does_not_hold_is_refused_and_flags_cassacao(pe: Any) -> None:
    company = pe.company(["own"])
    with pytest.raises(ValidationError) as error:
        trips.declare_trip(
            actor=None,
            company=company,
            data=_data(_entry(company), "tourism"),
            passengers=PEOPLE[:5],
            reason="teste",
        )
    assert any("cassação" in m and "art. 35" in m for m in error.value.messages)
    assert not Trip.objects.filter(company=company).exists()
    flag = Sanction.objects.get(company=company)
    assert flag.kind == Sanction.Kind.REVOCATION and flag.status == Sanction.Status.PROPOSED


def test_an_unlisted_passenger_gives_the_ii_f_prefill(pe: Any) -> None:
    company = pe.company(["tourism"])
    trip = trips.declare_trip(
        actor=None,
        company=company,
        data=_data(_entry(company), "tourism"),
        passengers=PEOPLE[:10],
        reason="teste",
    )
    check = selectors.road_check(trip.vehicle, timezone.localtime(trip.departs_at).date())
    assert [t.pk for t in check["trips"]] == [trip.pk] and check["state"].status == "valid"
    assert "II-f" in [o["code"] for o in check["offers"]]
    prefill = selectors.notice_prefill(infraction_code="II-f", trip=trip)
    assert prefill["infraction_code"] == "II-f" and "10 passageiros" in prefill["description"]


def test_a_leased_vehicle_cannot_serve_own_chartering(pe: Any) -> None:
    company = pe.company(["own"])
    leased = pe.vehicle(company, "PLO1A01", tenure="leased")
    with pytest.raises(ValidationError, match="frota própria"):
        trips.declare_trip(
            actor=None, company=company, data=_data(leased, "own"), passengers=[], reason="teste"
        )


def test_continuous_needs_the_contractors_declaration_unless_public(pe: Any) -> None:
    company = pe.company(["continuous"])
    with pytest.raises(ValidationError, match="declaração do contratante"):
        trips.declare_trip(
            actor=None,
            company=company,
            data=_data(_entry(company), "continuous"),
            passengers=[],
            reason="teste",
        )
    trip = trips.declare_trip(
        actor=None,
        company=company,
        data=_data(_entry(company), "continuous", contractor_public=True),
        passengers=[],
        reason="teste",
    )
    assert trip.contractor_public


def test_subcontracting_a_company_without_crc_is_barred(pe: Any) -> None:
    company = pe.company(["eventual"])
    other = pe.company(["eventual"], issue=False)
    with pytest.raises(ValidationError, match="não tem CRC válido"):
        trips.declare_trip(
            actor=None,
            company=company,
            passengers=[],
            reason="teste",
            data=_data(_entry(company), subcontractor_cnpj=other.holder.company.cnpj),
        )


def test_more_passengers_than_seats_and_repeated_documents_are_refused(pe: Any) -> None:
    company = pe.company(["eventual"])
    many = [(f"P {n}", f"D{n}") for n in range(46)]
    with pytest.raises(ValidationError, match="leva 45"):
        trips.declare_trip(
            actor=None, company=company, data=_data(_entry(company)), passengers=many, reason="teste"
        )
    with pytest.raises(ValidationError, match="já está na lista"):
        trips.declare_trip(
            actor=None,
            company=company,
            data=_data(_entry(company)),
            passengers=[("A", "1"), ("B", "1")],
            reason="teste",
        )


def test_no_trip_without_a_traffic_authorization(pe: Any) -> None:
    from lotacao.inspections.models import Seal

    company = pe.company(["eventual"])
    entry = _entry(company)
    Seal.objects.filter(vehicle=entry.vehicle).delete()
    with pytest.raises(ValidationError, match="Autorização para Tráfego"):
        trips.declare_trip(actor=None, company=company, data=_data(entry), passengers=[], reason="teste")


def test_a_departure_in_the_past_is_refused(pe: Any) -> None:
    # The CRC from a week ago: "an hour ago" may fall on yesterday (00:00-01:00 local time), and the
    # refusal under test is the departure's, not the CRC's.
    company = pe.company(["eventual"], on=pe.today - dt.timedelta(days=7))
    past = timezone.now() - dt.timedelta(hours=1)
    with pytest.raises(ValidationError, match="antes da partida"):
        trips.declare_trip(
            actor=None,
            company=company,
            data=_data(_entry(company), departs_at=past, returns_at=None),
            passengers=[],
            reason="teste",
        )


def test_a_vehicle_without_crc_is_offered_iv_b(pe: Any) -> None:
    company = pe.company(["eventual"], issue=False)
    entry = _entry(company)
    check = selectors.road_check(entry.vehicle, pe.today)
    assert check["state"].status == "none"
    assert "IV-b" in [o["code"] for o in check["offers"]]
