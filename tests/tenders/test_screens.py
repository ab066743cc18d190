"""The staff screens (/editais/) and the public page (/editais/publico/): the whole walk through
forms, refusals shown in Portuguese with 422 and nothing changed, and no CPF on the public page."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from lotacao.tenders.models import Call, TenderApplication
from tests.tenders.conftest import Tenders


@pytest.fixture
def gestor(tenders: Tenders) -> Any:
    from lotacao.accounts.models import Role, StaffMembership, User

    j = tenders.jurisdiction("recife")
    user = User.objects.create_user("gestor.editais", password="senha-de-teste-123")
    StaffMembership.objects.create(user=user, jurisdiction=j, role=Role.MANAGER.value)
    return user


def test_the_manager_walks_a_call_through_the_screens(client: Any, tenders: Tenders, gestor: Any) -> None:
    j = tenders.jurisdiction("recife")
    line = tenders.line(j)
    client.force_login(gestor)
    assert client.get(reverse("tenders:home")).status_code == 200
    assert client.get(reverse("tenders:call_create")).status_code == 200
    bad = client.post(
        reverse("tenders:call_create"),
        {
            "numero": "7/2025",
            "objeto": "Vagas",
            "linha": line.pk,
            "vagas": 2,
            "abertura": "2025-06-02",
            "encerramento": "2025-06-11",
        },
    )
    assert bad.status_code == 422 and "informe a cláusula do edital" in bad.content.decode()
    assert not Call.unscoped.exists()
    response = client.post(
        reverse("tenders:call_create"),
        {
            "numero": "7/2025",
            "objeto": "Vagas",
            "linha": line.pk,
            "vagas": 2,
            "abertura": "2025-06-02",
            "encerramento": "2099-06-11",
            "desempate": "Item 9",
        },
    )
    call = Call.unscoped.get()
    assert response.status_code == 302 and response["Location"] == reverse("tenders:call", args=[call.pk])
    url = reverse("tenders:call", args=[call.pk])
    assert "Abrir inscrições" in client.get(url).content.decode()
    assert client.post(url, {"acao": "open", "motivo": "publicado"}).status_code == 302
    holders = [tenders.holder(j) for _ in range(2)]
    for holder in holders:
        vehicle = tenders.vehicle(j, holder)
        answer = client.post(url, {"acao": "apply", "documento": holder.person.cpf, "placa": vehicle.plate})
        assert answer.status_code == 302, answer.content.decode()[:3000]
    refused = client.post(url, {"acao": "apply", "documento": "00000000000", "placa": "XXX1X11"})
    assert refused.status_code == 422 and "sem cadastro de permissionário" in refused.content.decode()
    assert TenderApplication.unscoped.count() == 2
    closing = client.post(url, {"acao": "close"})
    assert closing.status_code == 422 and "As inscrições vão até 11/06/2099" in closing.content.decode()
    page = client.get(url).content.decode()
    assert holders[0].person.full_name in page


def test_the_public_page_shows_abridged_names_and_no_cpf(client: Any, tenders: Tenders) -> None:
    j = tenders.jurisdiction("recife")
    call = tenders.open(tenders.call(j, places=1))
    holder = tenders.holder(j)
    tenders.apply(call, holder=holder)
    tenders.apply(call)
    call = tenders.close_and_rank(call)
    page = client.get(reverse("tenders:public")).content.decode()
    assert "Nenhuma classificação publicada" in page  # not published yet
    call = tenders.draw(call, "semente pública")
    tenders.publish_and_open_appeals(call)
    page = client.get(reverse("tenders:public"), {"jurisdicao": "recife"}).content.decode()
    assert "Edital nº 1/2025" in page and "semente pública" in page
    name = holder.person.full_name
    assert name not in page and f"{name.split()[0]} T." in page
    assert holder.person.cpf not in page and holder.person.cpf_display not in page


def test_staff_of_another_jurisdiction_and_holders_do_not_see_the_call(client: Any, world: Any) -> None:
    call = world.objects["recife"]["tenders.call"]
    url = reverse("tenders:call", args=[call.pk])
    client.force_login(world.users["gestor.esteio"])
    assert client.get(url).status_code == 404
    assert "T-recife" not in client.get(reverse("tenders:home")).content.decode()
    client.force_login(world.users["holder0.recife"])
    assert client.get(reverse("tenders:home")).status_code == 403


def test_the_api_walks_a_call_and_refuses_with_422(client: Any, tenders: Tenders, gestor: Any) -> None:
    import datetime as dt

    j = tenders.jurisdiction("recife")
    call = tenders.call(j, opens_on=dt.date(2025, 1, 2), closes_on=dt.date(2099, 1, 2))
    client.force_login(gestor)
    listed = client.get("/api/tenders/calls")
    assert listed.status_code == 200 and listed.json()[0]["number"] == "1/2025"
    opened = client.post(
        f"/api/tenders/calls/{call.pk}/actions",
        {"action": "open", "reason": "publicado"},
        content_type="application/json",
    )
    assert opened.status_code == 200 and opened.json()["status"] == "open"
    holder = tenders.holder(j)
    vehicle = tenders.vehicle(j, holder)
    filed = client.post(
        f"/api/tenders/calls/{call.pk}/applications",
        {"holder_id": holder.pk, "vehicle_id": vehicle.pk},
        content_type="application/json",
    )
    assert filed.status_code == 201 and filed.json()["number"] == 1
    again = client.post(
        f"/api/tenders/calls/{call.pk}/applications",
        {"holder_id": holder.pk, "vehicle_id": vehicle.pk},
        content_type="application/json",
    )
    assert again.status_code == 422 and "já está inscrito" in again.content.decode()
    early = client.post(
        f"/api/tenders/calls/{call.pk}/actions",
        {"action": "close", "reason": "x"},
        content_type="application/json",
    )
    assert early.status_code == 422 and "As inscrições vão até 02/01/2099" in early.content.decode()
    detail = client.get(f"/api/tenders/calls/{call.pk}")
    assert detail.status_code == 200 and detail.json()["ranking"][0]["number"] == 1
    client.logout()
    public = client.get("/api/tenders/public")
    assert public.status_code == 200 and public.json() == []
