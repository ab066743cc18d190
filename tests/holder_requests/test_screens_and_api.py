"""The holder's pages and the clerk's decision on screen and through the API; tenancy."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import reverse
from django.utils import timezone

from lotacao.councils.testing import resolution_for
from lotacao.holder_requests.models import InspectionSlot, Request
from lotacao.workqueue.models import WorkItem


def test_the_recife_holder_is_no_longer_refused_and_reads_the_law_up_front(world: Any, client: Any) -> None:
    client.force_login(world.users["holder0.recife"])
    response = client.get(reverse("permits:apply"))
    assert response.status_code == 302 and response["Location"] == reverse("holder_requests:new_application")
    body = client.get(reverse("holder_requests:new_application")).content.decode()
    assert "só outorga a permissão por licitação" in body and "art. 2º, § 1º" in body
    assert "Protocolar o pedido" not in body  # no form to type into: the law does not allow it
    for name in ("list", "new_renewal", "new_document", "new_substitution", "new_booking"):
        assert client.get(reverse(f"holder_requests:{name}")).status_code == 200, name
    assert "Meus requerimentos" in client.get(reverse("web:home"), follow=True).content.decode()
    vehicle = world.objects["recife"]["registry.vehicle"]
    InspectionSlot.objects.create(
        jurisdiction=world.a, starts_at=timezone.now() + dt.timedelta(days=2), place="Pátio", capacity=1
    )
    response = client.get(reverse("inspections:schedule", args=[vehicle.pk]))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('holder_requests:new_booking')}?veiculo={vehicle.pk}"
    assert f'value="{vehicle.pk}" selected' in client.get(response["Location"]).content.decode()


def test_booking_on_screen_then_the_clerk_confirms(world: Any, client: Any) -> None:
    from lotacao.inspections.models import Inspection

    j = world.a
    starts = timezone.now() + dt.timedelta(days=5)
    client.force_login(world.users["atendente.recife"])
    local = timezone.localtime(starts)
    response = client.post(
        reverse("holder_requests:slots"),
        {"day": local.strftime("%d/%m/%Y"), "time": "09:30", "place": "Pátio da CTTU", "capacity": "3"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    slot = InspectionSlot.objects.get(jurisdiction=j)
    assert "Pátio da CTTU" in client.get(reverse("holder_requests:slots")).content.decode()

    client.force_login(world.users["holder0.recife"])
    vehicle = world.objects["recife"]["registry.vehicle"]
    page = client.get(reverse("holder_requests:new_booking")).content.decode()
    assert "Pátio da CTTU" in page and "3 vagas" in page
    response = client.post(reverse("holder_requests:new_booking"), {"vehicle": vehicle.pk, "slot": slot.pk})
    assert response.status_code == 302
    request = Request.objects.get(kind=Request.Kind.INSPECTION)
    assert response["Location"] == reverse("holder_requests:detail", args=[request.pk])
    assert "Em análise" in client.get(response["Location"]).content.decode()

    client.force_login(world.users["atendente.recife"])
    queue = client.get(reverse("workqueue:queue")).content.decode()
    assert request.protocol in queue
    response = client.post(
        reverse("holder_requests:detail", args=[request.pk]),
        {"decision": "deferir", "reasons": "Horário confirmado.", "citation": ""},
    )
    assert response.status_code == 302
    assert Inspection.objects.filter(vehicle=vehicle, status="scheduled").exists()
    assert not WorkItem.objects.filter(key=str(request.pk), status="aberto").exists()


def test_a_decision_without_reasons_is_a_form_error(world: Any, client: Any) -> None:
    request = world.objects["recife"]["holder_requests.request"]
    client.force_login(world.users["atendente.recife"])
    response = client.post(reverse("holder_requests:detail", args=[request.pk]), {"decision": "indeferir"})
    assert response.status_code == 200 and "Este campo é obrigatório" in response.content.decode()
    assert Request.objects.get(pk=request.pk).status == Request.Status.FILED


def test_tenancy_of_pages(world: Any, client: Any) -> None:
    request = world.objects["recife"]["holder_requests.request"]
    url = reverse("holder_requests:detail", args=[request.pk])
    client.force_login(world.users["holder0.recife"])
    assert client.get(url).status_code == 200
    for outsider in ("holder1.recife", "holder0.esteio", "atendente.esteio"):
        client.force_login(world.users[outsider])
        assert client.get(url).status_code == 404, outsider
        assert f'href="{url}"' not in client.get(reverse("holder_requests:list")).content.decode()
    client.force_login(world.users["gestor.esteio"])
    response = client.post(url, {"decision": "deferir", "reasons": "intruso"})
    assert response.status_code == 404
    client.force_login(world.users["holder0.recife"])
    assert client.post(url, {"decision": "deferir", "reasons": "eu mesmo"}).status_code == 403
    client.force_login(world.users["fiscal.recife"])
    assert "Registrar a decisão" not in client.get(url).content.decode()
    assert client.get(reverse("holder_requests:slots")).status_code == 403
    assert client.get(reverse("holder_requests:new_booking")).status_code == 403  # the holder's page
    assert Request.objects.get(pk=request.pk).status == Request.Status.FILED


def test_the_holder_withdraws_on_screen(world: Any, client: Any) -> None:
    request = world.objects["recife"]["holder_requests.request"]
    client.force_login(world.users["holder0.recife"])
    url = reverse("holder_requests:detail", args=[request.pk])
    assert client.post(url, {"acao": "desistir"}).status_code == 302
    assert Request.objects.get(pk=request.pk).status == Request.Status.WITHDRAWN


# ---------------------------------------------------------------- API


def test_api_holder_files_reads_and_staff_decide(world: Any, client: Any) -> None:
    permit = world.objects["recife"]["permits.permit"]
    Request.objects.filter(holder=permit.holder).delete()
    client.force_login(world.users["holder0.recife"])
    answer = client.get("/api/requests/requirements", {"kind": "renewal", "permit_id": permit.pk}).json()
    assert answer["can_file"] is True and any("CMTT" in n["detail"] for n in answer["notes"])
    refused = client.post("/api/requests", {"kind": "application"}, content_type="application/json")
    assert refused.status_code == 422 and "licitação" in refused.json()["detail"]
    filed = client.post(
        "/api/requests", {"kind": "renewal", "permit_id": permit.pk}, content_type="application/json"
    )
    assert filed.status_code == 201, filed.content
    body = filed.json()
    assert body["status"] == "filed" and body["protocol"].startswith("REQ-")
    assert client.get(f"/api/requests/{body['id']}").json()["kind_label"] == "Renovação da permissão"
    assert [r["id"] for r in client.get("/api/requests").json()] == [body["id"]]
    decision = {
        "approve": True,
        "reasons": "ok",
        "approval_reference": "Ata CMTT 3/2026",
        "users_heard": True,
    }
    assert (
        client.post(
            f"/api/requests/{body['id']}/decision", decision, content_type="application/json"
        ).status_code
        == 403
    )

    client.force_login(world.users["holder1.recife"])
    assert client.get(f"/api/requests/{body['id']}").status_code == 404
    assert client.get("/api/requests").json() == []
    client.force_login(world.users["gestor.esteio"])
    response = client.post(f"/api/requests/{body['id']}/decision", decision, content_type="application/json")
    assert response.status_code == 404

    client.force_login(world.users["gestor.recife"])
    incomplete = {"approve": True, "reasons": "ok"}
    response = client.post(
        f"/api/requests/{body['id']}/decision", incomplete, content_type="application/json"
    )
    assert response.status_code == 422 and "CMTT" in response.json()["detail"]
    response = client.post(f"/api/requests/{body['id']}/decision", decision, content_type="application/json")
    assert response.status_code == 422 and "art. 2º" in response.json()["detail"]  # no resolution
    decision["resolution_id"] = resolution_for("recife", "permit.renew", timezone.localdate()).pk
    response = client.post(f"/api/requests/{body['id']}/decision", decision, content_type="application/json")
    assert response.status_code == 200 and response.json()["status"] == "approved"
    assert "prorrogada" in response.json()["effect"]


def test_api_refuses_unknown_kinds_and_staff_filing(world: Any, client: Any) -> None:
    client.force_login(world.users["holder0.recife"])
    assert client.post("/api/requests", {"kind": "nada"}, content_type="application/json").status_code == 422
    assert (
        client.post("/api/requests", {"kind": "document"}, content_type="application/json").status_code == 422
    )
    client.force_login(world.users["atendente.recife"])
    assert (
        client.post("/api/requests", {"kind": "renewal"}, content_type="application/json").status_code == 403
    )
