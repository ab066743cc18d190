"""Screens, PDFs, API and work queue of vehicles and inspections."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.urls import reverse

from lotacao.inspections import services
from lotacao.inspections.models import Inspection, InsurancePolicy, IrregularityNotice, Seal
from lotacao.registry.models import Vehicle
from tests.clock import today

pytestmark = pytest.mark.django_db


def _vehicle_post(**over: Any) -> dict[str, Any]:
    data = {
        "jurisdiction": "recife",
        "plate": "PEX1A23",
        "manufacture_year": today().year - 1,
        "category": "van",
        "seats": 16,
        "doors": 4,
        "tenure": "proprio",
        "reason": "Cadastro de veículo",
    }
    data.update(over)
    return data


def test_clerk_registers_a_vehicle_and_sees_the_law_refusal(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    url = reverse("vehicles:create")
    assert client.get(url).status_code == 200
    response = client.post(url, _vehicle_post(manufacture_year=today().year - 5))
    body = response.content.decode()
    assert response.status_code == 422
    assert "ingresso admite até 3 anos" in body and "art. 16, II" in body
    assert not Vehicle.objects.filter(plate="PEX1A23").exists()
    response = client.post(url, _vehicle_post())
    vehicle = Vehicle.objects.get(plate="PEX1A23")
    assert response.status_code == 302 and response["Location"] == reverse("vehicles:file", args=[vehicle.pk])
    page = client.get(response["Location"]).content.decode()
    assert "Idade limite" in page and f"01/01/{today().year - 1 + 7}" in page


def test_fiscal_cannot_register_vehicles_nor_other_jurisdictions(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    assert client.post(reverse("vehicles:create"), _vehicle_post()).status_code in (403, 422)
    client.force_login(world.users["atendente.esteio"])
    response = client.post(reverse("vehicles:create"), _vehicle_post())
    assert response.status_code == 422  # recife is not a choice for an Esteio clerk
    assert not Vehicle.objects.filter(plate="PEX1A23").exists()


def test_holder_sees_own_vehicle_file_but_cannot_edit(world: Any, client: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    client.force_login(world.users["holder0.recife"])
    assert client.get(reverse("vehicles:file", args=[vehicle.pk])).status_code == 200
    assert client.get(reverse("vehicles:edit", args=[vehicle.pk])).status_code == 403
    # the staff's scheduling screen sends the holder to the online booking (issue 21); posting stays refused
    booking = client.get(reverse("inspections:schedule", args=[vehicle.pk]))
    assert booking.status_code == 302
    assert booking["Location"].startswith(reverse("holder_requests:new_booking"))
    assert client.post(reverse("inspections:schedule", args=[vehicle.pk]), {}).status_code == 403


def test_fiscal_records_a_failed_inspection_on_screen(world: Any, client: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    client.force_login(world.users["fiscal.recife"])
    response = client.post(
        reverse("inspections:schedule", args=[vehicle.pk]),
        {"kind": "annual", "scheduled_for": today().isoformat(), "place": "Pátio", "reason": "agenda"},
    )
    assert response.status_code == 302
    inspection = Inspection.objects.filter(status="scheduled", place="Pátio").get()
    url = reverse("inspections:inspection", args=[inspection.pk])
    page = client.get(url).content.decode()
    assert "Laudos de gases poluentes" in page and "art. 17, III" in page
    # without a re-presentation date, Recife's law fixing none, the screen asks for it
    response = client.post(
        url, {"performed_on": today().isoformat(), "faults": "Farol queimado", "reason": "v"}
    )
    assert response.status_code == 422 and "informe a data de reapresentação" in response.content.decode()
    due = (today() + dt.timedelta(days=10)).isoformat()
    response = client.post(
        url,
        {
            "performed_on": today().isoformat(),
            "faults": "Farol queimado",
            "representation_due": due,
            "reason": "v",
        },
    )
    assert response.status_code == 302
    notice = IrregularityNotice.objects.get(inspection=inspection)
    assert "Farol queimado" in notice.faults
    pdf = client.get(reverse("inspections:notice", args=[notice.pk]), {"formato": "pdf"})
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_seal_pdf_has_the_plate_and_a_qr_code_to_the_public_page(marica: Any, client: Any) -> None:
    from lotacao.inspections.pdf import qr_data_uri, seal_html

    vehicle = marica["vehicle"]
    inspection = services.schedule_inspection(actor=None, vehicle=vehicle, scheduled_for=today(), reason="a")
    items, _, _ = services.checklist_for("marica", today())
    services.record_inspection(
        actor=None,
        inspection=inspection,
        performed_on=today(),
        checklist={i["id"]: True for i in items or []},
        reason="v",
    )
    seal = Seal.objects.get(vehicle=vehicle)
    client.force_login(marica["users"]["fiscal"])
    response = client.get(reverse("inspections:seal_pdf", args=[seal.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF") and len(response.content) > 5000
    public = "http://testserver" + reverse("public:vehicle", kwargs={"plate": vehicle.plate})
    html = seal_html(seal, public)
    assert qr_data_uri(public) in html and "RMA1B23" in html and seal.number in html
    assert seal.valid_until.strftime("%d/%m/%Y") in html
    # an outsider gets 404 for the seal of another jurisdiction
    client.force_login(marica["users"]["fiscal"].__class__.objects.get(username="fiscal.recife"))
    assert client.get(reverse("inspections:seal_pdf", args=[seal.pk])).status_code == 404


def test_qr_code_encodes_the_public_url() -> None:
    import segno

    from lotacao.inspections.pdf import qr_data_uri

    url = "https://lotacao.example/publico/veiculos/ABC1D23/"
    assert qr_data_uri(url) == segno.make(url, error="m").svg_data_uri(scale=4, border=2)


# --------------------------------------------------------------------------- API


def test_api_schedule_and_record_result(world: Any, client: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    client.force_login(world.users["fiscal.recife"])
    base = "/api/inspections"
    response = client.post(
        f"{base}/vehicles/{vehicle.pk}/inspections",
        json.dumps({"scheduled_for": today().isoformat(), "place": "Pátio"}),
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    inspection_id = response.json()["id"]
    response = client.post(
        f"{base}/inspections/{inspection_id}/result",
        json.dumps({"performed_on": today().isoformat(), "faults": ["Banco rasgado"]}),
        content_type="application/json",
    )
    assert response.status_code == 422 and "reapresentação" in response.json()["errors"][0]
    response = client.post(
        f"{base}/inspections/{inspection_id}/result",
        json.dumps(
            {
                "performed_on": today().isoformat(),
                "faults": ["Banco rasgado"],
                "representation_due": (today() + dt.timedelta(days=7)).isoformat(),
            }
        ),
        content_type="application/json",
    )
    body = response.json()
    assert response.status_code == 200 and body["status"] == "failed" and body["notice"]["number"]
    status = client.get(f"{base}/vehicles/{vehicle.pk}/status").json()
    assert status["age_limit_years"] == 6 and status["checklist"]


def test_api_permissions_and_tenancy(world: Any, client: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    base = "/api/inspections"
    assert client.get(f"{base}/vehicles/{vehicle.pk}/insurance").status_code == 401
    client.force_login(world.users["atendente.esteio"])
    assert client.get(f"{base}/vehicles/{vehicle.pk}/insurance").status_code == 404
    assert client.get(f"{base}/vehicles/{vehicle.pk}/status").status_code == 404
    client.force_login(world.users["fiscal.recife"])
    payload = {
        "insurer": "Seg",
        "number": "1",
        "valid_from": today().isoformat(),
        "valid_until": (today() + dt.timedelta(days=300)).isoformat(),
    }
    response = client.post(
        f"{base}/vehicles/{vehicle.pk}/insurance", json.dumps(payload), content_type="application/json"
    )
    assert response.status_code == 403 and not InsurancePolicy.objects.filter(number="1").exists()
    client.force_login(world.users["atendente.recife"])
    response = client.post(
        f"{base}/vehicles/{vehicle.pk}/insurance", json.dumps(payload), content_type="application/json"
    )
    assert response.status_code == 201
    assert [p["number"] for p in client.get(f"{base}/vehicles/{vehicle.pk}/insurance").json()] == ["1"]
    client.force_login(world.users["holder1.recife"])
    assert client.get(f"{base}/vehicles/{vehicle.pk}/insurance").status_code == 404
    client.force_login(world.users["holder0.recife"])
    assert client.get(f"{base}/vehicles/{vehicle.pk}/insurance").status_code == 200
    response = client.post(
        f"{base}/vehicles/{vehicle.pk}/inspections",
        json.dumps({"scheduled_for": today().isoformat()}),
        content_type="application/json",
    )
    assert response.status_code == 403


def test_api_seal_refused_without_passed_inspection(marica: Any, client: Any) -> None:
    client.force_login(marica["users"]["gestor"])
    response = client.post(f"/api/inspections/vehicles/{marica['vehicle'].pk}/seals")
    assert response.status_code == 422 and "vistoria aprovada" in response.json()["errors"][0]


# --------------------------------------------------------------------------- work queue


def test_queue_lists_what_falls_due(marica: Any) -> None:
    from lotacao.inspections.queue import items

    vehicle = marica["vehicle"]
    services.register_insurance(
        actor=None,
        vehicle=vehicle,
        insurer="S",
        number="X",
        reason="a",
        valid_from=today() - dt.timedelta(days=300),
        valid_until=today() + dt.timedelta(days=10),
    )
    old = Vehicle.objects.create(
        jurisdiction=marica["jurisdiction"],
        plate="RMA9Z99",
        manufacture_year=today().year - 11,
        category="van",
        seats=16,
        doors=4,
    )
    found = {(i.kind, i.key): i for i in items(today(), 30)}
    assert ("inspections.insurance", str(vehicle.pk)) in found
    age = found[("inspections.age_limit", str(old.pk))]
    assert "acima da idade limite de 10 anos" in age.title and "substituição até" in age.title
    assert ("inspections.age_limit", str(vehicle.pk)) not in found


def test_queue_uses_a_constant_number_of_queries(marica: Any, django_assert_max_num_queries: Any) -> None:
    from lotacao.inspections.queue import items

    for n in range(30):
        Vehicle.objects.create(
            jurisdiction=marica["jurisdiction"],
            plate=f"RMB{n % 10}A{n:02d}",
            manufacture_year=today().year - 12,
            category="van",
            seats=16,
            doors=4,
        )
    with django_assert_max_num_queries(12):
        assert len([i for i in items(today(), 30) if i.kind == "inspections.age_limit"]) >= 30
