"""LGPD for passenger lists (who opens them, every opening audited, the nightly purge) and the
trackers' positions (art. 14, IV): JSON and GTFS Realtime, all or nothing, the silent vehicles."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from lotacao.accounts.access import access_for
from lotacao.accounts.tokens import create_token
from lotacao.audit.models import AuditEvent
from lotacao.chartering import privacy, queue, tracking, trips
from lotacao.chartering.models import FleetVehicle, Passenger, Position, Trip
from lotacao.web.agency_values import set_agency_value
from tests.chartering.conftest import company_account
from tests.chartering.test_trips import PEOPLE, _data


def _trip(pe: Any) -> Trip:
    company = pe.company(["tourism"])
    entry = FleetVehicle.objects.filter(company=company).first()
    return trips.declare_trip(
        actor=None, company=company, data=_data(entry, "tourism"), passengers=PEOPLE[:5], reason="t"
    )


def test_inspectors_managers_and_the_company_open_the_list_and_each_opening_is_audited(pe: Any) -> None:
    trip = _trip(pe)
    for role in ("fiscal", "gestor"):
        user = pe.users[role]
        names = privacy.open_list(user=user, access=access_for(user), trip=trip)
        assert [p.name for p in names] == [n for n, _ in PEOPLE[:5]]
    owner = company_account(trip.company)
    privacy.open_list(user=owner, access=access_for(owner), trip=trip)
    events = AuditEvent.objects.filter(action="chartering.passenger_list_opened", object_id=str(trip.pk))
    assert sorted(e.actor_label for e in events) == sorted(
        ["fiscal.pernambuco", "gestor.pernambuco", "empresa.pe"]
    )


@pytest.mark.parametrize("role", ["atendente", "comissao"])
def test_clerks_and_the_commission_do_not_see_the_names(pe: Any, role: str) -> None:
    trip = _trip(pe)
    user = pe.users[role]
    with pytest.raises(PermissionDenied):
        privacy.open_list(user=user, access=access_for(user), trip=trip)
    assert not AuditEvent.objects.filter(action="chartering.passenger_list_opened").exists()


def test_the_trip_page_shows_the_list_only_when_opened_and_audits_it(pe: Any, client: Any) -> None:
    trip = _trip(pe)
    pe.login(client, "fiscal")
    body = client.get(f"/fretamento/viagens/{trip.pk}/").content.decode()
    assert PEOPLE[0][0] not in body and "Abrir a lista" in body
    assert not AuditEvent.objects.filter(action="chartering.passenger_list_opened").exists()
    body = client.get(f"/fretamento/viagens/{trip.pk}/?lista=1").content.decode()
    assert PEOPLE[0][0] in body
    assert AuditEvent.objects.filter(action="chartering.passenger_list_opened").count() == 1
    pe.login(client, "atendente")
    body = client.get(f"/fretamento/viagens/{trip.pk}/?lista=1").content.decode()
    assert PEOPLE[0][0] not in body and "só a empresa, os fiscais e os gestores" in body


def test_nothing_is_purged_until_the_agency_sets_the_retention(pe: Any) -> None:
    trip = _trip(pe)
    assert privacy.purge(today=pe.today + dt.timedelta(days=4000)) == {"viagens": 0, "passageiros": 0}
    assert Passenger.objects.filter(trip=trip).count() == 5


def test_the_nightly_purge_deletes_the_names_keeps_the_trip_and_audits(pe: Any) -> None:
    trip = _trip(pe)
    set_agency_value(
        actor=pe.users["gestor"],
        jurisdiction=pe.jurisdiction,
        parameter="chartering.passenger_list_retention",
        valid_from=dt.date(2020, 11, 13),
        value={"days": 90},
        cite="Portaria EPTI (teste)",
        reason="LGPD",
    )
    back = timezone.localtime(trip.returns_at).date()
    assert privacy.purge(today=back + dt.timedelta(days=90))["viagens"] == 0
    result = privacy.purge(today=back + dt.timedelta(days=91))
    assert result == {"viagens": 1, "passageiros": 5}
    trip.refresh_from_db()
    assert trip.list_purged_on == back + dt.timedelta(days=91) and trip.passenger_count == 5
    assert not Passenger.objects.filter(trip=trip).exists()
    assert AuditEvent.objects.filter(
        action="chartering.passenger_list_purged", object_id=str(trip.pk)
    ).exists()
    assert privacy.purge(today=back + dt.timedelta(days=92))["viagens"] == 0


def _token(pe: Any, company: Any) -> str:
    user = company_account(company)
    return create_token(actor=None, user=user, label="rastreador")


def test_a_tracker_posts_json_positions_with_the_company_token(pe: Any, client: Any) -> None:
    company = pe.company()
    entry = FleetVehicle.objects.filter(company=company).first()
    token = _token(pe, company)
    now = timezone.now().replace(microsecond=0)
    body = [
        {
            "plate": entry.vehicle.plate,
            "at": now.isoformat(),
            "latitude": -8.28,
            "longitude": -35.97,
            "speed": 80,
        }
    ]
    response = client.post(
        "/api/chartering/positions",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 201, response.content
    entry.refresh_from_db()
    assert entry.last_position_at == now and Position.objects.filter(vehicle=entry.vehicle).count() == 1


def test_a_batch_with_a_foreign_plate_is_refused_whole(pe: Any, client: Any) -> None:
    company = pe.company()
    other = pe.company()
    mine = FleetVehicle.objects.filter(company=company).first()
    theirs = FleetVehicle.objects.filter(company=other).first()
    token = _token(pe, company)
    now = timezone.now().isoformat()
    body = [
        {"plate": mine.vehicle.plate, "at": now, "latitude": -8.2, "longitude": -35.9},
        {"plate": theirs.vehicle.plate, "at": now, "latitude": -8.2, "longitude": -35.9},
    ]
    response = client.post(
        "/api/chartering/positions",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 422 and "não está na frota" in response.json()["errors"][0]
    assert not Position.objects.exists()


def test_staff_tokens_cannot_post_positions(pe: Any, client: Any) -> None:
    token = create_token(actor=None, user=pe.users["fiscal"], label="x")
    response = client.post(
        "/api/chartering/positions", [], content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert response.status_code == 403


def test_gtfs_realtime_vehicle_positions_are_read(pe: Any, client: Any) -> None:
    from google.transit import gtfs_realtime_pb2

    company = pe.company()
    entry = FleetVehicle.objects.filter(company=company).first()
    feed = gtfs_realtime_pb2.FeedMessage()
    feed.header.gtfs_realtime_version = "2.0"
    item = feed.entity.add()
    item.id = "1"
    item.vehicle.vehicle.license_plate = entry.vehicle.plate
    item.vehicle.position.latitude = -8.05
    item.vehicle.position.longitude = -34.9
    item.vehicle.position.speed = 20.0  # m/s
    item.vehicle.timestamp = int(timezone.now().timestamp())
    fixes = tracking.fixes_from_gtfs_rt(feed.SerializeToString())
    assert fixes[0].plate == entry.vehicle.plate and fixes[0].speed == 72
    token = _token(pe, company)
    response = client.post(
        "/api/chartering/positions/gtfs-rt",
        feed.SerializeToString(),
        content_type="application/x-protobuf",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 201 and response.json() == {"recebidas": 1}
    assert Position.objects.filter(vehicle=entry.vehicle).count() == 1
    with pytest.raises(ValidationError, match="GTFS Realtime"):
        tracking.fixes_from_gtfs_rt(b"not a protobuf \xff\xff")


def test_silent_trackers_become_work_items_after_the_agencys_silence(pe: Any) -> None:
    company = pe.company()
    entries = list(FleetVehicle.objects.filter(company=company))
    tracking.record_positions(
        company=company,
        fixes=[
            tracking.Fix(
                entries[0].vehicle.plate, timezone.now(), tracking.Decimal("-8"), tracking.Decimal("-35")
            )
        ],
    )
    kinds = [i for i in queue.items(pe.today, 30) if i.kind == "chartering.tracker_silent"]
    assert kinds == []  # the agency has not set the silence: no guess
    set_agency_value(
        actor=pe.users["gestor"],
        jurisdiction=pe.jurisdiction,
        parameter="chartering.tracker_silence",
        valid_from=dt.date(2020, 11, 13),
        value=30,
        cite="Portaria EPTI (teste)",
        reason="teste",
    )
    silent = [i for i in queue.items(pe.today, 30) if i.kind == "chartering.tracker_silent"]
    assert [i.key for i in silent] == [str(entries[1].pk)]
