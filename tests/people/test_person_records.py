"""A person's page lists their roles, permits, vehicles, notices and fines; a vehicle's page its
permit and line (issue 11, item 4)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from lotacao.lines.models import Place
from lotacao.permits.models import PermitAgent

pytestmark = pytest.mark.django_db


def test_the_person_page_lists_what_the_person_is_and_has(world: Any, client: Any) -> None:
    objects = world.objects["recife"]
    person, permit = objects["registry.person"], objects["permits.permit"]
    notice, vehicle = objects["enforcement.infractionnotice"], objects["registry.vehicle"]
    client.force_login(world.users["atendente.recife"])
    page = client.get(f"/cadastro/pessoas/{person.pk}/").content.decode()
    section = page.split('id="records"')[1]
    assert "Permissionário" in section
    assert f"/permissoes/{permit.pk}/" in section and permit.number in section
    assert vehicle.plate_display in section and f"/cadastro/veiculos/{vehicle.pk}/ficha/" in section
    assert notice.number in section and notice.get_absolute_url() in section
    fine = objects.get("enforcement.fine")
    if fine is not None and fine.notice.holder_id == objects["registry.holder"].pk:
        assert "Multas" in section and fine.notice.number in section.split("<h2>Multas")[1]


def test_an_agent_sees_the_role_on_another_holders_permit(world: Any, client: Any) -> None:
    objects = world.objects["recife"]
    permit = objects["permits.permit"]
    other = world.users["holder1.recife"].holder_account.holder.person
    PermitAgent.objects.create(
        jurisdiction=world.a,
        permit=permit,
        person=other,
        role=PermitAgent.Role.choices[0][0],
        starts_on=timezone.localdate() - dt.timedelta(days=10),
    )
    client.force_login(world.users["atendente.recife"])
    section = client.get(f"/cadastro/pessoas/{other.pk}/").content.decode().split('id="records"')[1]
    assert PermitAgent.Role.choices[0][1] in section and permit.number in section
    assert "Nenhuma permissão" in section  # the permit is the holder's, not the agent's


def test_a_holder_cannot_open_another_persons_page(world: Any, client: Any) -> None:
    client.force_login(world.users["holder1.recife"])
    person = world.objects["recife"]["registry.person"]
    assert client.get(f"/cadastro/pessoas/{person.pk}/").status_code == 404


def test_the_vehicle_page_shows_its_permit_and_line(world: Any, client: Any) -> None:
    objects = world.objects["recife"]
    vehicle, permit, line = objects["registry.vehicle"], objects["permits.permit"], objects["registry.line"]
    client.force_login(world.users["fiscal.recife"])
    page = client.get(f"/cadastro/veiculos/{vehicle.pk}/ficha/").content.decode()
    permit_cell = page.split('id="vehicle-permit">')[1].split("</dd>")[0]
    line_cell = page.split('id="vehicle-line">')[1].split("</dd>")[0]
    assert permit.number in permit_cell and f"/permissoes/{permit.pk}/" in permit_cell
    assert line.name in line_cell and "lugar autorizado" not in line_cell  # the permit's line
    Place.objects.create(
        jurisdiction=world.a,
        permit=permit,
        line=line,
        vehicle=vehicle,
        starts_on=timezone.localdate() - dt.timedelta(days=5),
        act="Portaria 12",
    )
    page = client.get(f"/cadastro/veiculos/{vehicle.pk}/ficha/").content.decode()
    line_cell = page.split('id="vehicle-line">')[1].split("</dd>")[0]
    assert "lugar autorizado desde" in line_cell and "Portaria 12" in line_cell


def test_a_vehicle_without_permit_says_so(world: Any, client: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    world.objects["recife"]["permits.permit"].__class__.objects.filter(vehicle=vehicle).update(vehicle=None)
    client.force_login(world.users["fiscal.recife"])
    page = client.get(f"/cadastro/veiculos/{vehicle.pk}/ficha/").content.decode()
    assert "não serve a nenhuma permissão" in page and "sem linha" in page
