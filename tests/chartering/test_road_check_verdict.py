"""The road check's headline is the whole verdict (issue 24, defect 11): a valid CRC with today's
7-seat trip still awaiting the EPTI is not green; labels inside sentences keep their acronyms; the
inspector finds one passenger among 40 with a plain GET search (no script needed)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.chartering import selectors, trips
from lotacao.chartering.models import FleetVehicle, Trip
from lotacao.core.formats import lower_first

PEOPLE = [(f"Passageiro {n}", f"RG {1000 + n}") for n in range(39)] + [("José Conceição", "RG 777.888")]


def _trip(pe: Any, entry: Any, passengers: list[tuple[str, str]]) -> Trip:
    # Departs within today's local day, whatever the hour the test runs.
    now = timezone.localtime()
    start = now + dt.timedelta(minutes=5) if now.hour < 23 else now - dt.timedelta(minutes=30)
    data = trips.TripData(
        modality="tourism",
        vehicle=entry.vehicle,
        contractor_name="Associação dos Romeiros",
        origin="Caruaru",
        destination="Juazeiro do Norte",
        departs_at=start,
        returns_at=start + dt.timedelta(days=1),
        itinerary="BR-232",
        driver_name="Severino Condutor",
        driver_document="01234567890",
    )
    return trips.declare_trip(actor=None, company=entry.company, data=data, passengers=passengers, reason="t")


def test_a_valid_crc_with_an_unauthorized_trip_today_is_not_green(pe: Any, client: Any) -> None:
    company = pe.company(["tourism"])
    car = pe.vehicle(company, "PLC7V01", category="car7", age=1)
    trip = _trip(pe, car, PEOPLE[:3])
    assert trip.status == Trip.Status.AWAITING
    pe.login(client, "fiscal")
    body = client.get("/fretamento/fiscalizacao/", {"placa": "PLC7V01"}).content.decode()
    assert "status-ok" not in body and "status-no" in body
    assert "CRC VÁLIDO, MAS COM IRREGULARIDADE" in body
    assert "aguardando autorização da EPTI" in body and "epti" not in body
    check = selectors.road_check(car.vehicle, timezone.localdate())
    assert check["verdict"]["ok"] is False
    trips.decide_authorization(actor=pe.users["atendente"], trip=trip, granted=True, reasons="Conferido")
    body = client.get("/fretamento/fiscalizacao/", {"placa": "PLC7V01"}).content.decode()
    assert "status-ok" in body and "CRC VÁLIDO —" in body


def test_a_bus_with_everything_in_order_is_green(pe: Any, client: Any) -> None:
    company = pe.company()
    entry = FleetVehicle.objects.filter(company=company).first()
    pe.login(client, "fiscal")
    body = client.get("/fretamento/fiscalizacao/", {"placa": entry.vehicle.plate}).content.decode()
    assert "status-ok" in body and "IRREGULARIDADE" not in body


def test_labels_inside_sentences_keep_their_acronyms() -> None:
    assert lower_first("Aguardando autorização da EPTI") == "aguardando autorização da EPTI"
    assert lower_first("CRC emitido") == "CRC emitido"
    assert lower_first("Suspensão do CRC") == "suspensão do CRC"
    assert lower_first("") == ""


def test_the_inspector_finds_a_passenger_among_40(pe: Any, client: Any) -> None:
    company = pe.company(["tourism"])
    entry = FleetVehicle.objects.filter(company=company).first()
    trip = _trip(pe, entry, PEOPLE)
    pe.login(client, "fiscal")
    body = client.get(
        f"/fretamento/viagens/{trip.pk}/", {"lista": "1", "busca": "jose conceicao"}
    ).content.decode()
    assert 'id="busca-passageiro"' in body
    assert "José Conceição" in body and "Passageiro 12" not in body
    assert "1 de 40 passageiros" in body and 'value="40"' in body
    body = client.get(f"/fretamento/viagens/{trip.pk}/", {"lista": "1", "busca": "777888"}).content.decode()
    assert "José Conceição" in body
    body = client.get(f"/fretamento/viagens/{trip.pk}/", {"lista": "1", "busca": "Maria"}).content.decode()
    assert "0 de 40" in body and "não está na lista da viagem" in body
    body = client.get(f"/fretamento/viagens/{trip.pk}/", {"lista": "1"}).content.decode()
    assert "Passageiro 12" in body and "José Conceição" in body
