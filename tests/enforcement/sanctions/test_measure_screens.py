"""Measures in force on the public plate check, the measures API (422 in Portuguese, tenancy)
and the screens (staff act, the holder only reads)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from lotacao.enforcement.models import Measure
from lotacao.enforcement.sanctions import measures as svc
from tests.enforcement.conftest import at
from tests.enforcement.sanctions.measure_helpers import (
    _apply,
    _clandestine,
    _meet,
    _release,
    _row,
)

pytestmark = pytest.mark.django_db


def test_measures_in_force_and_the_public_plate_check(world: Any) -> None:
    from lotacao.public.selectors import vehicle_status

    o = world.objects["recife"]
    vehicle = o["registry.vehicle"]
    notice = _row(
        world.a,
        "AI-R-5",
        ["vehicle_seizure"],
        holder=o["registry.holder"],
        vehicle=vehicle,
        plate=vehicle.plate,
    )
    assert not svc.measures_in_force(vehicle).exists()
    measure = _apply(notice, "vehicle_seizure")
    assert list(svc.measures_in_force(vehicle)) == [measure]
    assert list(svc.measures_in_force(vehicle.plate.lower())) == [measure]
    record = next(r for r in vehicle_status(vehicle.plate)["records"] if r["jurisdiction"] == "recife")
    assert record["authorized"] is False  # public.selectors.PROVIDERS lists enforcement.measures
    assert any("Remoção e apreensão do veículo em vigor desde 16/06/2025" in r for r in record["reasons"])
    info = svc.public_vehicle_info(vehicle, timezone.localdate())
    assert info["authorized"] is False and "Pessoa" not in " ".join(info["reasons"])
    _meet(measure, "fees_paid")
    _release(measure)
    assert svc.public_vehicle_info(vehicle, timezone.localdate()) == {"reasons": []}


def test_api_apply_meet_and_release(world: Any, client: Any) -> None:
    notice = _clandestine(world.b)
    client.force_login(world.users["fiscal.esteio"])
    created = client.post(
        f"/api/infraction-notices/{notice.pk}/measures",
        {
            "kind": "vehicle_seizure",
            "applied_at": "2025-06-16T10:30:00-03:00",
            "detail": "Pátio da SMOVT",
            "reason": "Apreensão em campo",
        },
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["unmet"] == ["fault_fixed", "fees_paid", "dues_paid"] and body["status"] == "in_force"
    mid = body["id"]
    for condition, note in (("fault_fixed", "Consertado"), ("fees_paid", "Recibo 9"), ("dues_paid", "")):
        answer = client.post(
            f"/api/measures/{mid}/conditions/{condition}",
            {"met_on": "2025-06-17", "note": note, "reason": "Comprovado no balcão"},
            content_type="application/json",
        )
        assert answer.status_code == 200, answer.content
    released = client.post(
        f"/api/measures/{mid}/release",
        {"released_on": "2025-06-17", "reason": "Liberação no balcão"},
        content_type="application/json",
    )
    assert released.status_code == 200 and released.json()["status"] == "released"


def test_api_refusals_are_422_in_portuguese_and_tenancy_holds(world: Any, client: Any) -> None:
    notice = _clandestine(world.b)
    measure = _apply(notice, "vehicle_seizure")
    client.force_login(world.users["atendente.esteio"])
    refused = client.post(
        f"/api/measures/{measure.pk}/release",
        {"released_on": "2025-06-17", "reason": "Liberação"},
        content_type="application/json",
    )
    assert refused.status_code == 422
    assert "só pode ser liberada depois de cumpridas as condições" in refused.json()["errors"][0]
    duplicate = client.post(
        f"/api/infraction-notices/{notice.pk}/measures",
        {"kind": "vehicle_seizure", "applied_at": "2025-06-16T11:00:00-03:00", "reason": "De novo"},
        content_type="application/json",
    )
    assert duplicate.status_code == 422 and "Já há" in duplicate.json()["errors"][0]
    client.force_login(world.users["fiscal.recife"])  # another jurisdiction: not found
    assert (
        client.post(
            f"/api/measures/{measure.pk}/conditions/fault_fixed",
            {"met_on": "2025-06-17", "note": "x", "reason": "x"},
            content_type="application/json",
        ).status_code
        == 404
    )
    client.force_login(world.users["comissao.esteio"])  # in scope, no enforcement role
    assert (
        client.post(
            f"/api/measures/{measure.pk}/release",
            {"released_on": "2025-06-17", "note": "x", "reason": "x"},
            content_type="application/json",
        ).status_code
        == 403
    )
    assert Measure.objects.get(pk=measure.pk).status == "in_force"


def test_screens_apply_meet_and_release_and_the_holder_only_reads(world: Any, client: Any) -> None:
    o = world.objects["recife"]
    notice = _row(
        world.a, "AI-R-7", ["document_seizure"], holder=o["registry.holder"], offender_kind="permit_holder"
    )
    client.force_login(world.users["fiscal.recife"])
    page = client.get(notice.get_absolute_url()).content.decode()
    assert "Medidas administrativas" in page and "Aplicar medida" in page
    assert "Cabíveis pelo cálculo da lei: Recolhimento de documentos" in page
    applied = client.post(
        f"/fiscalizacao/autos/{notice.pk}/medidas/",
        {
            "kind": "document_seizure",
            "applied_at": "2025-06-16T10:30",
            "detail": "CRLV",
            "reason": "Recolhido",
        },
    )
    assert applied.status_code == 302 and applied["Location"].endswith("#medidas")
    measure = Measure.objects.get(notice=notice)
    assert measure.applied_at == at("2025-06-16").replace(minute=30)  # read in Recife's time zone
    page = client.get(notice.get_absolute_url()).content.decode()
    assert (
        "Regularização do motivo do recolhimento" in page and "art. 38, § 5º" in page and "pendente" in page
    )
    refused = client.post(
        f"/fiscalizacao/medidas/{measure.pk}/liberar/", {"released_on": "2025-06-17", "reason": "x"}
    )
    assert refused.status_code == 422
    assert "só pode ser liberada depois de cumpridas as condições" in refused.content.decode()
    met = client.post(
        f"/fiscalizacao/medidas/{measure.pk}/condicoes/",
        {"condition_id": "fault_fixed", "met_on": "2025-06-17", "note": "Regularizado", "reason": "Cumprida"},
    )
    assert met.status_code == 302
    assert (
        "cumprida em 17/06/2025 por fiscal.recife" in client.get(notice.get_absolute_url()).content.decode()
    )

    client.force_login(world.users["holder0.recife"])  # their own notice: reads, no forms
    page = client.get(notice.get_absolute_url()).content.decode()
    assert "Regularização do motivo do recolhimento" in page and "Aplicar medida" not in page
    assert "Liberar</button>" not in page
    answer = client.post(
        f"/fiscalizacao/medidas/{measure.pk}/liberar/", {"released_on": "2025-06-17", "reason": "x"}
    )
    assert answer.status_code == 403

    client.force_login(world.users["gestor.esteio"])  # another jurisdiction: not found
    answer = client.post(
        f"/fiscalizacao/medidas/{measure.pk}/liberar/", {"released_on": "2025-06-17", "reason": "x"}
    )
    assert answer.status_code == 404
    answer = client.post(
        f"/fiscalizacao/autos/{notice.pk}/medidas/",
        {"kind": "vehicle_seizure", "applied_at": "2025-06-16T10:30", "reason": "x" * 40},
    )
    assert answer.status_code == 404

    client.force_login(world.users["atendente.recife"])
    released = client.post(
        f"/fiscalizacao/medidas/{measure.pk}/liberar/", {"released_on": "2025-06-17", "reason": "Liberada"}
    )
    assert released.status_code == 302
    assert Measure.objects.get(pk=measure.pk).status == "released"
    assert Measure.objects.count() == 3  # the world's two and this one
