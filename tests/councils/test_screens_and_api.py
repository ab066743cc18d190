"""The councils' screens and API: list, council page, the forms, the scope (another agency's
council is a 404) and bad input (Portuguese message, nothing written)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import reverse

from lotacao.councils.models import Attendance, Council, Member, Resolution, Session


def test_list_and_council_page(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    page = client.get(reverse("councils:list")).content.decode()
    assert "Conselho Municipal de Trânsito e Transporte" in page
    assert "Cadastrar os colegiados previstos na lei" in page  # the CDTC is still missing
    assert client.post(reverse("councils:list"), {"jurisdiction": "recife"}).status_code == 302
    cdtc = Council.objects.get(jurisdiction_id="recife", key="cdtc")
    assert cdtc.parent is not None and cdtc.parent.key == "cmtt"
    council = world.objects["recife"]["councils.council"]
    body = client.get(reverse("councils:council", args=[council.pk])).content.decode()
    assert "art. 3º, § 1º" in body and "Membro de teste" in body and "Resolução nº 1/2026" in body
    other = world.objects["esteio"]["councils.council"]
    assert client.get(reverse("councils:council", args=[other.pk])).status_code == 404
    assert client.post(reverse("councils:list"), {"jurisdiction": "esteio"}).status_code == 403


def test_forms_add_member_open_session_attendance_resolution(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    council = world.objects["recife"]["councils.council"]
    seat = world.objects["recife"]["councils.seat"]
    url = reverse("councils:member_create", args=[council.pk])
    assert client.get(url).status_code == 200
    bad = client.post(
        url, {"seat": seat.pk, "name": "Outro", "role": "titular", "starts_on": "2026-03-01", "reason": "x"}
    )
    assert bad.status_code == 422 and "já tem titular" in bad.content.decode()
    ok = client.post(
        url,
        {
            "seat": seat.pk,
            "name": "Suplente Um",
            "role": "suplente",
            "starts_on": "2026-03-01",
            "reason": "x",
        },
    )
    assert ok.status_code == 302 and Member.objects.filter(name="Suplente Um").exists()
    done = client.post(
        reverse("councils:session_create", args=[council.pk]),
        {"held_on": "2026-03-10", "kind": "ordinaria", "agenda": "Criação de linhas", "reason": "x"},
    )
    assert done.status_code == 302
    session = Session.objects.filter(council=council).order_by("-pk").first()
    page = client.get(done["Location"]).content.decode()
    assert "Suplente Um" in page and "Membro de teste" in page
    members = {m.name: m.pk for m in Member.objects.filter(council=council)}
    data = {
        f"status_{members['Membro de teste']}": "justificada",
        f"status_{members['Suplente Um']}": "presente",
        "reason": "x",
    }
    refused = client.post(done["Location"], data)
    assert refused.status_code == 422 and "justificativa da falta" in refused.content.decode()
    data[f"justification_{members['Membro de teste']}"] = "Viagem a serviço"
    assert client.post(done["Location"], data).status_code == 302
    assert Attendance.objects.filter(session=session).count() == 2
    url = reverse("councils:resolution_create", args=[council.pk])
    form = client.get(url).content.decode()
    assert "A criação de linha" in form
    payload = {
        "kind": "resolucao",
        "number": 1,
        "dated_on": "2026-03-10",
        "subject": "Linha nova",
        "text": "Aprova a linha.",
        "session": session.pk,
        "gate": "line.create",
        "favorable": "on",
        "reason": "x",
    }
    dup = client.post(url, payload)
    assert dup.status_code == 422 and "Já existe resolução nº 1/2026" in dup.content.decode()
    payload["number"] = 2
    saved = client.post(url, payload)
    assert saved.status_code == 302
    resolution = Resolution.objects.get(council=council, number=2, year=2026)
    assert resolution.gate == "line.create" and resolution.session == session
    assert "Aprova a linha." in client.get(saved["Location"]).content.decode()


def test_inspector_reads_but_does_not_record(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    council = world.objects["recife"]["councils.council"]
    assert client.get(reverse("councils:council", args=[council.pk])).status_code == 200
    assert client.get(reverse("councils:member_create", args=[council.pk])).status_code == 403


def test_api(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    gates = client.get("/api/councils/gates/recife").json()
    assert {g["key"] for g in gates} >= {"line.create", "fleet.change", "permit.renew"}
    assert client.get("/api/councils/gates/marica").json() == []
    listed = client.get("/api/councils").json()
    assert [c["jurisdiction"] for c in listed] == ["recife"]
    council = world.objects["recife"]["councils.council"]
    got = client.get(f"/api/councils/{council.pk}").json()
    assert got["members"][0]["name"] == "Membro de teste"
    session = client.post(
        f"/api/councils/{council.pk}/sessions",
        {"held_on": "2026-04-01", "agenda": "Pauta"},
        content_type="application/json",
    )
    assert session.status_code == 201
    member = world.objects["recife"]["councils.member"]
    bad = client.post(
        f"/api/councils/sessions/{session.json()['id']}/attendance",
        {"entries": []},
        content_type="application/json",
    )
    assert bad.status_code == 422 and "todos os membros" in bad.content.decode()
    ok = client.post(
        f"/api/councils/sessions/{session.json()['id']}/attendance",
        {"entries": [{"member_id": member.pk, "status": "ausente"}]},
        content_type="application/json",
    )
    assert ok.status_code == 201 and ok.json()["consequences"] == []
    made = client.post(
        f"/api/councils/{council.pk}/resolutions",
        {
            "number": 7,
            "dated_on": "2026-04-01",
            "subject": "Frota",
            "text": "Aprova.",
            "gate": "fleet.change",
        },
        content_type="application/json",
    )
    assert (
        made.status_code == 201
        and made.json()["citation"] == "Resolução nº 7/2026 do CMTT/Recife, de 01/04/2026"
    )
    assert len(client.get(f"/api/councils/{council.pk}/resolutions").json()) == 2
    other = world.objects["esteio"]["councils.council"]
    assert client.get(f"/api/councils/{other.pk}").status_code == 404
    assert dt.date(2026, 4, 1)
