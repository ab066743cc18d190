"""Screens, PDF and API of permits: scoped, Portuguese, each refusal shown with its article."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import reverse

from lotacao.permits.models import Permit
from tests import clock


def _permit(world: Any, code: str = "recife") -> Permit:
    permit: Permit = world.objects[code]["permits.permit"]
    return permit


def _second_holder(world: Any) -> tuple[Any, Any]:
    from lotacao.registry.models import Holder
    from lotacao.registry.services import create_vehicle

    holder = (
        Holder.objects.filter(jurisdiction_id="recife", person__isnull=False)
        .exclude(pk=world.objects["recife"]["registry.holder"].pk)
        .get()
    )
    vehicle = create_vehicle(
        actor=None,
        jurisdiction=world.a,
        plate="QWE1R23",
        manufacture_year=2022,
        category="van",
        seats=16,
        doors=4,
        holder=holder,
        reason="teste",
    )
    return holder, vehicle


def test_list_filters_and_search(world: Any, client: Any) -> None:
    permit = _permit(world)
    client.force_login(world.users["atendente.recife"])
    url = reverse("permits:list")
    assert permit.number in client.get(url, {"q": permit.number}).content.decode()
    assert permit.number in client.get(url, {"q": "ABA1C23"}).content.decode()
    cpf = world.objects["recife"]["registry.person"].cpf
    assert permit.number in client.get(url, {"q": cpf[:6]}).content.decode()
    assert permit.number not in client.get(url, {"situacao": "suspended"}).content.decode()
    client.force_login(world.users["atendente.esteio"])
    assert permit.number not in client.get(url).content.decode()


def test_detail_shows_actions_and_why_not(world: Any, client: Any) -> None:
    permit = _permit(world)
    client.force_login(world.users["atendente.recife"])
    body = client.get(reverse("permits:detail", args=[permit.pk])).content.decode()
    assert (
        "Ativa" in body
        and "pessoal e intransferível" in body
        and "Ação reservada a: gestor, comissão" in body
    )
    client.force_login(world.users["holder1.recife"])
    assert client.get(reverse("permits:detail", args=[permit.pk])).status_code == 404
    client.force_login(world.users["holder0.recife"])
    assert client.get(reverse("permits:detail", args=[permit.pk])).status_code == 200


def test_guided_grant_flow(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    holder, _vehicle = _second_holder(world)
    person = holder.person
    response = client.post(
        reverse("permits:apply"),
        {
            "cpf": person.cpf_display,
            "kind": "regular",
            "service_months": 0,
            "infraction_count": 0,
            "reason": "balcão",
        },
    )
    assert response.status_code == 302
    permit = Permit.objects.get(holder__person=person)
    body = client.get(response["Location"]).content.decode()
    assert "Requerente apto" in body or "O que impede" in body
    response = client.post(
        reverse("permits:grant", args=[permit.pk]),
        {"line": world.objects["recife"]["registry.line"].pk, "plate": "QWE-1R23", "reason": "outorga"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    permit.refresh_from_db()
    assert permit.status == "active"


def test_transition_forms_require_reason_and_role(world: Any, client: Any) -> None:
    permit = _permit(world)
    client.force_login(world.users["atendente.recife"])
    assert client.post(reverse("permits:revoke", args=[permit.pk]), {"reason": "x"}).status_code == 403
    client.force_login(world.users["gestor.recife"])
    response = client.post(reverse("permits:suspend", args=[permit.pk]), {"until": "", "reason": ""})
    assert response.status_code == 422
    response = client.post(reverse("permits:transfer", args=[permit.pk]), {"reason": "x"})
    assert response.status_code == 403  # Recife: personal and non-transferable, the action is not offered
    until = (clock.today() + dt.timedelta(days=10)).isoformat()
    response = client.post(reverse("permits:suspend", args=[permit.pk]), {"until": until, "reason": "pena"})
    assert response.status_code == 302
    assert Permit.objects.get(pk=permit.pk).status == "suspended"


def test_term_pdf_has_the_qr_of_the_public_page(world: Any, client: Any, monkeypatch: Any) -> None:
    permit = _permit(world)
    seen: list[str] = []
    from lotacao.permits import pdf

    original = pdf.qr_data_uri

    def spy(url: str) -> str:
        seen.append(url)
        return original(url)

    monkeypatch.setattr(pdf, "qr_data_uri", spy)
    client.force_login(world.users["atendente.recife"])
    response = client.get(reverse("permits:term", args=[permit.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert seen == ["http://testserver/publico/veiculos/ABA1C23/"] or seen[0].endswith("/veiculos/ABA1C23/")
    raw = pdf.term_pdf(permit, public_url=seen[0], on=clock.today(), uncompressed=True)
    assert b"/URI (" + seen[0].encode() + b")" in raw  # the QR's target, also as a link
    assert b"CTTU" in raw or permit.number.encode() in raw


def test_api_list_grant_and_transition(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    objs = world.objects["recife"]
    holder, vehicle = _second_holder(world)
    response = client.post(
        "/api/permits/applications",
        {"holder_id": holder.pk, "reason": "req"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    pk = response.json()["id"]
    response = client.post(
        f"/api/permits/{pk}/grant",
        {"line_id": objs["registry.line"].pk, "vehicle_id": vehicle.pk, "reason": "outorga"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "active"
    response = client.post(
        f"/api/permits/{pk}/transitions/transfer",
        {
            "reason": "x",
            "cpf": world.objects["recife"]["registry.person"].cpf,
            "cause": "death",
            "consent_reference": "Ofício",
        },
        content_type="application/json",
    )
    assert response.status_code == 403
    client.force_login(world.users["fiscal.recife"])
    response = client.post(
        f"/api/permits/{pk}/transitions/withdraw",
        {"reason": "x", "notice_on": "2025-01-01", "ceases_on": "2025-03-01"},
        content_type="application/json",
    )
    assert response.status_code == 403  # an inspector does not record withdrawals
    client.force_login(world.users["gestor.recife"])
    response = client.post(
        f"/api/permits/{pk}/transitions/suspend",
        {"reason": "pena", "until": "2000-01-01"},
        content_type="application/json",
    )
    assert response.status_code == 422 and "data final" in response.json()["detail"]
    assert pk in [p["id"] for p in client.get("/api/permits/").json()]
    client.force_login(world.users["atendente.esteio"])
    assert client.get(f"/api/permits/{pk}").status_code == 404
    assert all(p["jurisdiction"] == "esteio" for p in client.get("/api/permits/").json())
