"""The chartering trip screen's "Lavrar II-f" link lands on the inspector's notice form already
filled by `selectors.notice_prefill` (issue 14's integration with enforcement)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from lotacao.chartering import trips
from lotacao.enforcement.models import InfractionNotice
from tests.chartering.test_trips import PEOPLE, _data, _entry


def test_the_trip_screen_link_lands_on_a_filled_notice_form(pe: Any, client: Any) -> None:
    company = pe.company(["tourism"])
    data = _data(_entry(company), "tourism")
    trip = trips.declare_trip(actor=None, company=company, data=data, passengers=PEOPLE[:10], reason="x")
    pe.login(client, "fiscal")
    page = client.get(f"/fretamento/viagens/{trip.pk}/").content.decode()
    links = [html.unescape(h) for h in re.findall(r'href="([^"]*autos/novo/[^"]*)"', page)]
    link = next(h for h in links if "infracao=II-f" in h)
    assert f"viagem={trip.pk}" in link

    form = client.get(link)
    assert form.status_code == 200
    text = form.content.decode()
    assert re.search(r'<option value="II-f" selected>', text)  # the infraction chosen
    assert f'value="{trip.vehicle.plate}"' in text  # the plate, typed by nobody
    assert re.search(r'<option value="company" selected>', text)
    party = company.holder.company
    assert html.escape(party.legal_name) in text and party.cnpj_display in text  # CNPJ formatted
    assert "10 passageiros na lista" in text and f"manifesto {trip.token}" in text
    assert "Preenchido com a viagem" in text


def test_a_trip_of_another_jurisdiction_is_not_found(pe: Any, client: Any, world: Any) -> None:
    company = pe.company(["tourism"])
    data = _data(_entry(company), "tourism")
    trip = trips.declare_trip(actor=None, company=company, data=data, passengers=PEOPLE[:3], reason="x")
    client.force_login(world.users["fiscal.recife"])
    response = client.get(f"/fiscalizacao/autos/novo/?jurisdicao=recife&viagem={trip.pk}&infracao=II-f")
    assert response.status_code == 404
    assert not InfractionNotice.unscoped.filter(plate=trip.vehicle.plate).exists()


@pytest.mark.parametrize("bad", ["abc", ""])
def test_a_bad_trip_id_is_ignored(pe: Any, client: Any, bad: str) -> None:
    pe.login(client, "fiscal")
    response = client.get(f"/fiscalizacao/autos/novo/?jurisdicao=pernambuco&viagem={bad}&infracao=II-f")
    assert response.status_code == 200
