"""Maricá's provisional authorization of an over-age vehicle (art. 25, § 6º) and the inspection
after an accident that keeps the vehicle out of operation until it passes (art. 40, IX) — with
their refusals."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from dateutil.relativedelta import relativedelta
from django.utils import timezone

from lotacao.inspections import services
from lotacao.inspections.models import Inspection, ProvisionalAuthorization
from lotacao.inspections.selectors import public_vehicle_info, public_vehicle_info_many
from tests.clock import today

from .conftest import fresh_vehicle, refused
from .test_inspections_and_seals import ALL_OK

pytestmark = pytest.mark.django_db


def _old_van(marica: Any, age: int, plate: str = "RMA9Z99") -> Any:
    from lotacao.inspections.models import Seal
    from lotacao.registry import services as registry

    vehicle = registry.create_vehicle(
        actor=None,
        jurisdiction=marica["jurisdiction"],
        plate=plate,
        manufacture_year=today().year - age,
        category="van",
        seats=16,
        doors=4,
        holder=marica["holder"],
        reason="teste",
    )
    Seal.objects.create(  # a seal in force: only the age is in question
        jurisdiction=marica["jurisdiction"],
        vehicle=vehicle,
        number=f"S-{plate}",
        issued_on=today() - dt.timedelta(days=400),
        valid_until=today() + dt.timedelta(days=400),
    )
    return vehicle


def _grant(vehicle: Any, selected_on: dt.date, **over: Any) -> ProvisionalAuthorization:
    args = {
        "actor": None,
        "vehicle": vehicle,
        "tender_act": "Concorrência nº 1/2026 — resultado homologado",
        "selected_on": selected_on,
        "reason": "permissionário selecionado no certame",
    }
    args.update(over)
    return services.grant_provisional(**args)


def test_marica_over_age_vehicle_operates_with_the_provisional_authorization_until_its_term(
    marica: Any,
) -> None:
    vehicle = _old_van(marica, 12)
    day = today()
    assert public_vehicle_info(vehicle, day)["authorized"] is False  # over the 10 years of art. 25
    selected = day - dt.timedelta(days=20)
    authorization = _grant(vehicle, selected)
    assert authorization.valid_until == selected + relativedelta(months=3)
    assert authorization.citation.endswith("art. 25, § 6º")
    info = public_vehicle_info(vehicle, day)
    assert "authorized" not in info
    assert any("autorização provisória até" in r for r in info["reasons"])
    many = public_vehicle_info_many([vehicle], day)[vehicle.pk]
    assert "authorized" not in many and many["changes_on"] <= authorization.valid_until + dt.timedelta(days=1)
    after = authorization.valid_until + dt.timedelta(days=1)
    assert public_vehicle_info(vehicle, after)["authorized"] is False
    assert services.expire_provisionals(today=after) == 1
    authorization.refresh_from_db()
    assert authorization.status == ProvisionalAuthorization.Status.EXPIRED
    refused(
        lambda: services.end_provisional(actor=None, authorization=authorization, reason="x"),
        "não está em vigor",
    )


def test_marica_provisional_refusals(marica: Any, world: Any) -> None:
    day = today()
    old = _old_van(marica, 12)
    young = _old_van(marica, 6, plate="RMA8Y88")
    refused(lambda: _grant(young, day - dt.timedelta(days=5)), "mais de 7 anos", "art. 25, § 6º")
    refused(
        lambda: _grant(old, day - relativedelta(months=3) - dt.timedelta(days=2)),
        "prazo de 3 meses",
        "terminou em",
    )
    refused(lambda: _grant(old, day + dt.timedelta(days=1)), "não pode ser futura")
    refused(lambda: _grant(old, day, tender_act=" "), "certame licitatório")
    refused(lambda: _grant(old, day, reason=""), "Informe o motivo")
    recife = fresh_vehicle(world, "recife")
    refused(lambda: _grant(recife, day), "não prevê autorização provisória")
    assert not ProvisionalAuthorization.objects.filter(vehicle__in=[old, young, recife]).exists()
    first = _grant(old, day)
    refused(lambda: _grant(old, day), "já tem autorização provisória em vigor")
    ended = services.end_provisional(actor=None, authorization=first, reason="veículo substituído")
    assert ended.status == ProvisionalAuthorization.Status.REPLACED and ended.ended_on == day
    assert public_vehicle_info(old, day)["authorized"] is False


def test_marica_vehicle_in_an_accident_waits_for_the_post_accident_inspection(marica: Any) -> None:
    from lotacao.duties import services as duties

    vehicle = marica["vehicle"]
    now = timezone.now()
    report = duties.report_incident(
        actor=None,
        holder=marica["holder"],
        vehicle=vehicle,
        kind="accident",
        occurred_at=now - dt.timedelta(hours=2),
        description="Batida lateral no centro.",
        reported_at=now,
    )
    inspection = report.inspection
    assert inspection is not None and inspection.kind == Inspection.Kind.POST_ACCIDENT
    assert inspection.blocks_operation and inspection.citations[0].endswith("art. 40, IX")
    info = public_vehicle_info(vehicle, today())
    assert info["authorized"] is False
    assert any("acidente" in r and "art. 40, IX" in r for r in info["reasons"])
    assert public_vehicle_info_many([vehicle], today())[vehicle.pk]["authorized"] is False
    failed = services.schedule_inspection(
        actor=None,
        vehicle=vehicle,
        scheduled_for=today(),
        kind=Inspection.Kind.POST_ACCIDENT,
        reason="antecipada",
    )
    services.record_inspection(
        actor=None,
        inspection=failed,
        performed_on=today(),
        checklist=ALL_OK,
        faults=["Para-choque solto"],
        representation_due=today() + dt.timedelta(days=5),
        reason="vistoria após o acidente",
    )
    blocked = public_vehicle_info(vehicle, today())
    assert blocked["authorized"] is False and any("reprovado na vistoria" in r for r in blocked["reasons"])
    again = services.schedule_inspection(
        actor=None,
        vehicle=vehicle,
        scheduled_for=today(),
        kind=Inspection.Kind.POST_ACCIDENT,
        reason="nova vistoria",
    )
    services.record_inspection(
        actor=None, inspection=again, performed_on=today(), checklist=ALL_OK, reason="aprovado"
    )
    again.refresh_from_db()
    assert again.status == Inspection.Status.PASSED
    info = public_vehicle_info(vehicle, today())
    assert not any("acidente" in r for r in info["reasons"])


def test_recife_post_accident_inspection_does_not_block(world: Any) -> None:
    vehicle = fresh_vehicle(world, "recife")
    inspection = services.schedule_inspection(
        actor=None,
        vehicle=vehicle,
        scheduled_for=today(),
        kind=Inspection.Kind.POST_ACCIDENT,
        reason="a pedido",
    )
    assert not inspection.blocks_operation
    assert not any("acidente" in r for r in public_vehicle_info(vehicle, today())["reasons"])


def test_marica_replacing_the_vehicle_ends_its_provisional_authorization(marica: Any) -> None:
    old = _old_van(marica, 12)
    authorization = _grant(old, today() - dt.timedelta(days=10))
    services.replace_vehicle(
        actor=None,
        replaced=old,
        plate="QQQ1A11",
        manufacture_year=today().year - 2,
        category="van",
        seats=16,
        doors=4,
        reason="substituição do art. 25, § 6º",
        decharacterization_proof="baixa da placa de aluguel nº 123",
    )
    authorization.refresh_from_db()
    assert authorization.status == ProvisionalAuthorization.Status.REPLACED
    assert authorization.ended_on == today()


def test_the_clerk_grants_and_ends_the_provisional_authorization_on_the_vehicle_screens(
    marica: Any, world: Any, client: Any
) -> None:
    """The screens of art. 25, § 6º: the form on the vehicle's page, its refusal (a vehicle not over
    the law's years) shown as a form error with nothing recorded, the grant listed on the page, and
    its end when the vehicle is replaced; a clerk of another jurisdiction is refused; a law without
    the authorization offers no link."""
    from django.urls import reverse

    young = _old_van(marica, 5, plate="RMA8Z88")
    old = _old_van(marica, 12)
    client.force_login(marica["users"]["atendente"])
    assert "Autorização provisória" in client.get(reverse("vehicles:file", args=[old.pk])).content.decode()
    url = reverse("vehicles:provisional", args=[young.pk])
    assert client.get(url).status_code == 200
    post = {"tender_act": "Concorrência nº 1/2026", "selected_on": today().isoformat(), "reason": "seleção"}
    response = client.post(url, post)
    assert response.status_code == 422
    assert "anos na seleção" in response.content.decode()
    assert not ProvisionalAuthorization.objects.filter(vehicle=young).exists()
    response = client.post(reverse("vehicles:provisional", args=[old.pk]), post)
    assert response.status_code == 302
    row = ProvisionalAuthorization.objects.get(vehicle=old)
    page = client.get(reverse("vehicles:file", args=[old.pk])).content.decode()
    assert "Autorizações provisórias" in page and "Concorrência nº 1/2026" in page and "em vigor" in page
    end = reverse("vehicles:provisional_end", args=[row.pk])
    assert client.post(end, {"reason": ""}).status_code == 422
    assert client.post(end, {"reason": "veículo substituído"}).status_code == 302
    row.refresh_from_db()
    assert row.status == ProvisionalAuthorization.Status.REPLACED
    assert client.post(end, {"reason": "de novo"}).status_code == 422  # no longer in force
    client.force_login(world.users["atendente.recife"])
    assert client.post(reverse("vehicles:provisional", args=[old.pk]), post).status_code in (403, 404)
    recife_vehicle = _recife_vehicle(world)
    page = client.get(reverse("vehicles:file", args=[recife_vehicle.pk])).content.decode()
    assert "Autorização provisória" not in page


def _recife_vehicle(world: Any) -> Any:
    from lotacao.registry import services as registry

    return registry.create_vehicle(
        actor=None,
        jurisdiction=world.a,
        plate="PEA1B23",
        manufacture_year=today().year - 3,
        category="van",
        seats=16,
        doors=4,
        reason="teste",
    )


def test_the_api_grants_lists_and_ends_the_provisional_authorization(marica: Any, client: Any) -> None:
    old = _old_van(marica, 12)
    young = _old_van(marica, 5, plate="RMA8Z88")
    client.force_login(marica["users"]["gestor"])
    body = {"tender_act": "Concorrência nº 1/2026", "selected_on": today().isoformat(), "reason": "seleção"}
    base = "/api/inspections/vehicles"
    refused_young = client.post(
        f"{base}/{young.pk}/provisional-authorizations", body, content_type="application/json"
    )
    assert refused_young.status_code == 422 and "anos na seleção" in refused_young.json()["errors"][0]
    made = client.post(f"{base}/{old.pk}/provisional-authorizations", body, content_type="application/json")
    assert made.status_code == 201 and made.json()["status"] == "in_force"
    assert made.json()["citation"].endswith("art. 25, § 6º")
    again = client.post(f"{base}/{old.pk}/provisional-authorizations", body, content_type="application/json")
    assert again.status_code == 422 and "já tem autorização provisória" in again.json()["errors"][0]
    listed = client.get(f"{base}/{old.pk}/provisional-authorizations").json()
    assert [row["id"] for row in listed] == [made.json()["id"]]
    ended = client.post(
        f"/api/inspections/provisional-authorizations/{made.json()['id']}/end",
        {"reason": "veículo substituído"},
        content_type="application/json",
    )
    assert ended.status_code == 200
    assert ended.json()["status_label"] == "Encerrada pela substituição do veículo"
