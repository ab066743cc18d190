"""The chartering API reads through the scoped managers: staff of another agency and another
company get 404; the passenger list only for the company, inspectors and managers (audited)."""

from __future__ import annotations

from typing import Any

from lotacao.accounts.tokens import create_token
from lotacao.audit.models import AuditEvent
from lotacao.chartering import trips
from lotacao.chartering.models import FleetVehicle
from tests.chartering.conftest import company_account
from tests.chartering.test_trips import PEOPLE, _data


def _get(client: Any, user: Any, url: str) -> Any:
    token = create_token(actor=None, user=user, label="teste")
    return client.get(url, HTTP_AUTHORIZATION=f"Bearer {token}")


def test_trips_and_lists_through_the_api(pe: Any, client: Any, world: Any) -> None:
    mine = pe.company(["tourism"])
    other = pe.company(["tourism"])
    entry = FleetVehicle.objects.filter(company=mine).first()
    trip = trips.declare_trip(
        actor=None, company=mine, data=_data(entry, "tourism"), passengers=PEOPLE[:4], reason="t"
    )
    url = f"/api/chartering/trips/{trip.pk}"
    assert _get(client, pe.users["atendente"], url).json()["passenger_count"] == 4
    assert _get(client, pe.users["atendente"], url + "?passengers=true").status_code == 403
    body = _get(client, pe.users["fiscal"], url + "?passengers=true").json()
    assert [p["name"] for p in body["passengers"]] == [n for n, _ in PEOPLE[:4]]
    assert AuditEvent.objects.filter(action="chartering.passenger_list_opened").count() == 1
    assert _get(client, company_account(mine, "empresa.a"), url + "?passengers=true").status_code == 200
    assert _get(client, company_account(other, "empresa.b"), url).status_code == 404
    assert _get(client, world.users["gestor.recife"], url).status_code == 404
    company = _get(client, pe.users["gestor"], f"/api/chartering/companies/{mine.pk}").json()
    assert company["crc_status"] == "valid" and company["modalities"] == ["tourism"]
    assert (
        _get(client, world.users["gestor.recife"], f"/api/chartering/companies/{mine.pk}").status_code == 404
    )
