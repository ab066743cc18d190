"""The life of a line on the staff screens, the API and the public proposal form."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from lotacao.lines import life
from lotacao.lines.models import ChangeRequest, TemporaryChange
from tests.lines.conftest import approved_line, straight

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def test_esteio_screens_refuse_a_decision_during_the_hearing(world: Any, client: Any, lines_db: Any) -> None:
    line = world.objects["esteio"]["registry.line"]
    client.force_login(world.users["atendente.esteio"])
    form = reverse("lines:request_create", kwargs={"pk": line.pk})
    assert client.get(form).status_code == 200
    data = {"kind": "stops", "origin": "agency", "proposal": "Parada na escola", "reasons": ""}
    assert client.post(form, data).status_code == 422
    data["reasons"] = "Muitos alunos"
    data["study_file"] = SimpleUploadedFile("estudo.pdf", PDF, content_type="application/pdf")
    done = client.post(form, data)
    assert done.status_code == 302
    req = ChangeRequest.objects.get(line=line, proposal="Parada na escola")
    page = client.get(done["Location"]).content.decode()
    assert "art. 26, parágrafo único" in page and "oitiva prévia" in page
    study = client.get(reverse("lines:request_study", kwargs={"pk": req.pk}))
    assert study.status_code == 200 and study["Content-Type"] == "application/pdf"
    today = timezone.localdate()
    url = reverse("lines:request", kwargs={"pk": req.pk})
    refused = client.post(url, {"step": "to_study", "to_study-reason": "pular a oitiva"})
    assert refused.status_code == 422 and "abra a oitiva" in refused.content.decode()
    until = (today + dt.timedelta(days=10)).isoformat()
    assert (
        client.post(url, {"step": "hearing", "hearing-until": until, "hearing-reason": "ouvir"}).status_code
        == 302
    )
    holder = world.objects["esteio"]["registry.holder"]
    answer = {
        "step": "answer",
        "answer-holder": holder.pk,
        "answer-agrees": "1",
        "answer-text": "De acordo",
        "answer-answered_on": today.isoformat(),
    }
    assert client.post(url, answer).status_code == 302
    client.force_login(world.users["gestor.esteio"])
    decision = {
        "step": "decide",
        "decide-decision": "refuse",
        "decide-act": "Portaria 1",
        "decide-reasons": "ok",
        "decide-act_date": today.isoformat(),
        "decide-effective_on": today.isoformat(),
    }
    refused = client.post(url, decision)
    assert refused.status_code == 422 and "a decisão só pode vir depois do prazo" in refused.content.decode()
    req.refresh_from_db()
    assert req.status == "hearing"
    line_page = client.get(reverse("lines:line", kwargs={"pk": line.pk})).content.decode()
    assert "Pedidos de alteração" in line_page and "Alterações temporárias" in line_page


def test_the_api_walks_a_recife_request_and_a_temporary_change(
    world: Any, client: Any, lines_db: Any
) -> None:
    line = approved_line("recife")
    client.force_login(world.users["gestor.recife"])
    made = client.post(
        "/api/lines/change-requests",
        {
            "jurisdiction": "recife",
            "kind": "timetable",
            "line_id": line.pk,
            "proposal": "Mais viagens à noite",
            "reasons": "Demanda",
        },
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["status"] == "filed" and "não exige ouvir" in body["law"]
    rid = body["id"]
    bad = client.post(
        f"/api/lines/change-requests/{rid}/decision",
        {"approve": True, "reasons": "ok", "act": "R", "act_date": timezone.localdate().isoformat()},
        content_type="application/json",
    )
    assert bad.status_code == 422 and "aprovar" in bad.content.decode()
    assert (
        client.post(
            f"/api/lines/change-requests/{rid}/to-study",
            {"reason": "estudar"},
            content_type="application/json",
        ).json()["status"]
        == "study"
    )
    today = timezone.localdate().isoformat()
    done = client.post(
        f"/api/lines/change-requests/{rid}/decision",
        {
            "approve": True,
            "reasons": "ok",
            "act": "Resolução CMTT 2",
            "act_date": today,
            "effective_on": today,
        },
        content_type="application/json",
    )
    assert done.status_code == 200 and done.json()["status"] == "approved"
    path = straight("recife")
    change = client.post(
        f"/api/lines/lines/{line.pk}/temporary-changes",
        {
            "cause": "works",
            "description": "Obras",
            "starts_on": today,
            "ends_on": today,
            "act": "Portaria 3",
            "itinerary": path,
            "stops": [
                {"name": "A", "lat": path[0][1], "lon": path[0][0]},
                {"name": "B", "lat": path[-1][1], "lon": path[-1][0]},
            ],
        },
        content_type="application/json",
    )
    assert change.status_code == 201, change.content
    assert [t["description"] for t in client.get(f"/api/lines/lines/{line.pk}/temporary-changes").json()] == [
        "Obras"
    ]
    ended = client.post(
        f"/api/lines/lines/{line.pk}/end",
        {"effective_on": today, "act": "Resolução 4", "act_date": today, "reasons": "r"},
        content_type="application/json",
    )
    assert ended.status_code == 422 and "Escolha o que acontece" in ended.content.decode()
    client.force_login(world.users["atendente.recife"])
    assert (
        client.post(
            f"/api/lines/lines/{line.pk}/end",
            {"effective_on": today, "act": "R", "act_date": today, "reasons": "r", "fate": "end"},
            content_type="application/json",
        ).status_code
        == 403
    )


def test_a_user_proposes_a_change_on_the_public_page(world: Any, client: Any, lines_db: Any) -> None:
    line = approved_line("recife")
    life.add_temporary_change(
        actor=None,
        line=line,
        cause="event",
        description="Procissão",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        suspended=True,
        act="Portaria 9",
        reason="t",
    )
    page = client.get(
        reverse("public:line", kwargs={"jurisdiction": "recife", "code": line.code})
    ).content.decode()
    assert "Procissão" in page and "A linha não opera neste período" in page
    url = reverse("public:line_propose", kwargs={"jurisdiction": "recife", "code": line.code})
    assert url in page
    assert client.get(url).status_code == 200
    bad = client.post(url, {"kind": "stops", "proposal": "Parada no mercado", "reasons": "Idosos"})
    assert bad.status_code == 422
    done = client.post(
        url,
        {
            "kind": "stops",
            "proposal": "Parada no mercado",
            "reasons": "Idosos",
            "requester_name": "Maria Souza",
            "requester_contact": "maria@example.org",
        },
    )
    assert done.status_code == 201 and "protocolada sob o número" in done.content.decode()
    req = ChangeRequest.objects.get(line=line)
    assert req.origin == "public" and req.requester_name == "Maria Souza"
    again = client.get(
        reverse("public:line", kwargs={"jurisdiction": "recife", "code": line.code})
    ).content.decode()
    assert "Maria Souza" not in again and "maria@example.org" not in again
    assert TemporaryChange.objects.filter(line=line).count() == 1


def test_a_holder_answers_a_hearing_and_files_a_request_in_the_portal(
    world: Any, client: Any, lines_db: Any
) -> None:
    from lotacao.accounts.models import HolderAccount, User
    from lotacao.lines import places
    from tests.lines.conftest import permit

    line = approved_line("esteio")
    mine = permit("esteio", line)
    places.assign_place(actor=None, permit=mine, line=line, starts_on=timezone.localdate(), reason="t")
    user = User.objects.create_user("portal.linhas", password="senha-de-teste-123")
    HolderAccount.objects.create(user=user, holder=mine.holder)
    req = life.file_request(
        actor=None,
        jurisdiction_code="esteio",
        kind="itinerary",
        origin="agency",
        line=line,
        proposal="Desvio pela avenida",
        reasons="Obras",
    )
    life.open_hearing(actor=None, request=req, until=timezone.localdate() + dt.timedelta(days=5), reason="t")
    other = life.file_request(
        actor=None,
        jurisdiction_code="esteio",
        kind="stops",
        origin="agency",
        line=world.objects["esteio"]["registry.line"],
        proposal="Outra linha",
        reasons="r",
    )
    life.open_hearing(
        actor=None, request=other, until=timezone.localdate() + dt.timedelta(days=5), reason="t"
    )
    client.force_login(user)
    url = reverse("portal:lines")
    page = client.get(url).content.decode()
    assert "Desvio pela avenida" in page and "Outra linha" not in page
    refused = client.post(url, {"step": "answer", "request": other.pk, "agrees": "0", "text": "Não"})
    assert refused.status_code == 422 and "não está em oitiva numa linha sua" in refused.content.decode()
    assert (
        client.post(
            url, {"step": "answer", "request": req.pk, "agrees": "0", "text": "Perco a clientela"}
        ).status_code
        == 302
    )
    assert req.answers.get().holder_id == mine.holder_id
    filed = client.post(
        url,
        {
            "step": "file",
            "line": line.pk,
            "kind": "timetable",
            "proposal": "Mais cedo",
            "reasons": "Trabalhadores",
        },
    )
    assert filed.status_code == 302
    assert ChangeRequest.objects.get(proposal="Mais cedo").origin == "holder"
    client.force_login(world.users["atendente.esteio"])
    assert client.get(url).status_code == 302
