"""The ombudsman (Lei federal 13.460/2017): the passenger's journey, the refusals, privacy and
tenancy, on the web pages and through the API."""

from __future__ import annotations

import datetime as dt
import io
import re
from typing import Any

import pytest
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from lotacao.audit.models import AuditEvent
from lotacao.ombudsman import services
from lotacao.ombudsman.models import Complaint, ComplaintIdentity, Status

API = "/api/public/complaints"
SECRET_NAME = "Maria Sigilosa da Silva"
SECRET_MAIL = "maria.sigilosa@example.org"


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    caches["default"].clear()


def _file_api(client: Any, **fields: Any) -> Any:
    body = {"jurisdiction": "recife", "kind": "reclamacao", "description": "O motorista não parou no ponto."}
    body.update(fields)
    return client.post(API, body, content_type="application/json")


def _png() -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (20, 20), "red").save(buffer, "PNG")
    return SimpleUploadedFile("foto.png", buffer.getvalue(), content_type="image/png")


def test_the_passenger_files_follows_and_reads_the_answer(world: Any, client: Any, settings: Any) -> None:
    """File on the web (phone first) → follow with protocol and code → the ombudsman triages,
    extends once, answers → the status shows the answer; the e-mail goes out through the outbox."""
    plate = world.objects["recife"]["registry.vehicle"].plate
    page = client.get("/publico/manifestacao/?jurisdicao=recife&placa=" + plate)
    assert page.status_code == 200
    assert f'value="{plate}"' in page.content.decode()
    filed = client.post(
        "/publico/manifestacao/",
        {
            "jurisdiction": "recife",
            "kind": "reclamacao",
            "description": "O motorista não parou no ponto e seguiu com a porta aberta.",
            "plate": plate.lower(),
            "occurred_at": "2026-01-10T08:30",
            "place": "Av. Norte, em frente ao mercado",
            "name": SECRET_NAME,
            "email": SECRET_MAIL,
            "photos": [_png()],
        },
    )
    assert filed.status_code == 201, filed.content.decode()
    text = filed.content.decode()
    protocol = re.search(r'id="protocol">(\d{12})<', text).group(1)  # type: ignore[union-attr]
    code = re.search(r'id="access-code">([A-Z0-9-]{9})<', text).group(1)  # type: ignore[union-attr]
    assert SECRET_NAME not in text
    complaint = Complaint.unscoped.get(protocol=protocol)
    assert complaint.vehicle == world.objects["recife"]["registry.vehicle"]
    assert complaint.photos.count() == 1
    assert complaint.due_on == timezone.localtime(complaint.received_at).date() + dt.timedelta(days=30)
    assert code.replace("-", "") not in complaint.access_hash

    followed = client.post("/publico/manifestacao/acompanhar/", {"protocol": protocol, "code": code.lower()})
    assert followed.status_code == 200
    assert "aguardando análise" in followed.content.decode()

    ombudsman = world.users["ouvidor.recife"]
    client.force_login(ombudsman)
    queue = client.get("/ouvidoria/fila/")
    assert queue.status_code == 200 and protocol in queue.content.decode()
    base = f"/ouvidoria/{complaint.pk}/"
    assert client.post(base, {"acao": "triage", "note": ""}).status_code == 302
    extended = client.post(base, {"acao": "extend", "note": "Aguardamos o relatório da fiscalização de rua."})
    assert extended.status_code == 302
    again = client.post(base, {"acao": "extend", "note": "Outra prorrogação que a lei não permite."})
    assert again.status_code == 422
    assert "única prorrogação" in again.content.decode()
    complaint.refresh_from_db()
    assert complaint.due_on == timezone.localtime(complaint.received_at).date() + dt.timedelta(days=60)
    answered = client.post(
        base,
        {
            "acao": "answer",
            "answer": "O permissionário foi notificado e orientado.",
            "measures": "Vistoria aleatória marcada.",
        },
    )
    assert answered.status_code == 302
    client.logout()

    status = client.get(f"{API}/{protocol}", {"code": code})
    assert status.status_code == 200
    body = status.json()
    assert body["status"] == "answered"
    assert body["answer"] == "O permissionário foi notificado e orientado."
    assert body["extended"] is True
    assert SECRET_NAME not in status.content.decode() and SECRET_MAIL not in status.content.decode()
    assert status["Cache-Control"] == "no-store"
    page = client.post("/publico/manifestacao/acompanhar/", {"protocol": protocol, "code": code})
    assert "O permissionário foi notificado e orientado." in page.content.decode()

    from lotacao.outbox.models import Message

    message = Message.unscoped.get(dedup_key=f"complaint-answered:{complaint.pk}:email")
    assert message.address == SECRET_MAIL
    assert protocol in message.subject


def test_the_api_files_and_answers_201_with_protocol_code_and_due(world: Any, client: Any) -> None:
    answer = _file_api(client, line="L1", contact="(81) 99999-0000", occurred_at="2026-01-05T10:00:00-03:00")
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"protocol", "access_code", "due", "status"}
    complaint = Complaint.unscoped.get(protocol=body["protocol"])
    assert complaint.line == world.objects["recife"]["registry.line"]
    assert (
        body["due"] == (timezone.localtime(complaint.received_at).date() + dt.timedelta(days=30)).isoformat()
    )
    assert ComplaintIdentity.unscoped.get(complaint=complaint).phone == "(81) 99999-0000"
    # the identity's values never reach the audit trail
    trail = " ".join(str(e.after) for e in AuditEvent.objects.filter(object_id=str(complaint.pk)))
    assert "99999" not in trail


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"kind": "queixa"}, "Tipo de manifestação desconhecido"),
        ({"description": "x" * 4001}, "4000"),
        ({"description": "   "}, "Informe o relato"),
        ({"jurisdiction": "atlantida"}, "Jurisdição desconhecida"),
        ({"plate": "12"}, "placa"),
        ({"line": "NAO-EXISTE"}, "não existe"),
        ({"contact": "não é contato"}, "e-mail ou um telefone"),
        ({"occurred_at": "2070-01-01T10:00:00-03:00"}, "futuro"),
        ({"occurred_at": "1950-01-01T00:00:00-03:00"}, "anterior a 2000"),
        # beyond the API's horizon for every date (lotacao.api.bounds): refused before the service
        ({"occurred_at": "9999-12-31T23:59:00"}, "data entre 01/01/1900"),
        ({"occurred_at": "0001-01-01T00:00:00"}, "data entre 01/01/1900"),
    ],
)
def test_bad_input_is_a_clear_422_and_changes_nothing(
    world: Any, client: Any, fields: Any, words: str
) -> None:
    before = Complaint.unscoped.count()
    answer = _file_api(client, **fields)
    assert answer.status_code == 422, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    assert words.lower() in answer.json()["detail"].lower()
    assert Complaint.unscoped.count() == before


def test_a_wrong_code_or_protocol_is_a_404_alike(world: Any, client: Any) -> None:
    body = _file_api(client).json()
    for url, code in (
        (f"{API}/{body['protocol']}", "AAAA-BBBB"),
        (f"{API}/{body['protocol']}", ""),
        (f"{API}/999999999999", body["access_code"]),
        (f"{API}/abc", body["access_code"]),
    ):
        answer = client.get(url, {"code": code})
        assert answer.status_code == 404
        assert (
            answer.json()["detail"]
            == "Manifestação não encontrada: confira o protocolo e o código de acesso."
        )
    page = client.post(
        "/publico/manifestacao/acompanhar/", {"protocol": body["protocol"], "code": "AAAA-BBBB"}
    )
    assert page.status_code == 404
    assert "não encontrada" in page.content.decode()


def test_filing_is_rate_limited_per_address(world: Any, client: Any, settings: Any) -> None:
    settings.LOTACAO_COMPLAINT_RATE_LIMIT = "2/h"
    before = Complaint.unscoped.count()
    assert _file_api(client).status_code == 201
    assert _file_api(client).status_code == 201
    refused = _file_api(client)
    assert refused.status_code == 429
    assert refused["Content-Type"] == "application/problem+json"
    assert int(refused["Retry-After"]) >= 1
    page = client.post(
        "/publico/manifestacao/", {"jurisdiction": "recife", "kind": "elogio", "description": "bom"}
    )
    assert page.status_code == 429
    assert "Tente de novo" in page.content.decode()
    other = client.post(
        API,
        {"jurisdiction": "recife", "kind": "elogio", "description": "bom"},
        content_type="application/json",
        REMOTE_ADDR="10.0.0.9",
    )
    assert other.status_code == 201
    assert Complaint.unscoped.count() == before + 3


def test_following_is_rate_limited(world: Any, client: Any, settings: Any) -> None:
    settings.LOTACAO_COMPLAINT_FOLLOW_RATE_LIMIT = "3/m"
    for _ in range(3):
        assert client.get(f"{API}/202600000000", {"code": "AAAA"}).status_code == 404
    assert client.get(f"{API}/202600000000", {"code": "AAAA"}).status_code == 429


def test_the_clock_refuses_what_the_law_does_not_allow(world: Any) -> None:
    complaint, _ = services.file_complaint(
        jurisdiction="recife", kind="denuncia", description="Van clandestina."
    )
    actor = world.users["ouvidor.recife"]
    with pytest.raises(ValidationError, match="motivo"):
        services.extend(actor=actor, complaint=complaint, reason="curto")
    late = complaint.due_on + dt.timedelta(days=1)
    with pytest.raises(ValidationError, match="venceu"):
        services.extend(actor=actor, complaint=complaint, reason="Aguardamos a fiscalização.", on=late)
    services.extend(actor=actor, complaint=complaint, reason="Aguardamos a fiscalização.")
    with pytest.raises(ValidationError, match="única prorrogação"):
        services.extend(actor=actor, complaint=complaint, reason="Mais uma vez, por favor.")
    with pytest.raises(ValidationError, match="não é possível"):
        services.close(actor=actor, complaint=complaint)
    services.answer(actor=actor, complaint=complaint, text="Resposta conclusiva ao manifestante.")
    services.close(actor=actor, complaint=complaint)
    complaint.refresh_from_db()
    assert complaint.status == Status.CLOSED
    with pytest.raises(ValidationError, match="encerrada"):
        services.answer(actor=actor, complaint=complaint, text="Uma segunda resposta depois de encerrar.")
    with pytest.raises(ValidationError, match="encerrada"):
        services.forward(actor=actor, complaint=complaint, unit="gestao", note="Pedido depois de encerrar.")


def test_answer_after_close_is_refused_on_the_screen_and_the_api(world: Any, client: Any) -> None:
    complaint, _ = services.file_complaint(
        jurisdiction="recife", kind="sugestao", description="Mais horários."
    )
    actor = world.users["ouvidor.recife"]
    services.answer(actor=actor, complaint=complaint, text="Vamos estudar novos horários.")
    services.close(actor=actor, complaint=complaint)
    client.force_login(actor)
    page = client.post(
        f"/ouvidoria/{complaint.pk}/", {"acao": "answer", "answer": "Outra resposta qualquer aqui."}
    )
    assert page.status_code == 422
    assert "encerrada" in page.content.decode()
    api = client.post(
        f"/api/ombudsman/complaints/{complaint.pk}/steps",
        {"action": "answer", "answer": "Outra resposta qualquer aqui."},
        content_type="application/json",
    )
    assert api.status_code == 422
    complaint.refresh_from_db()
    assert complaint.answer == "Vamos estudar novos horários."


def test_the_identity_is_for_the_ombudsman_alone_and_each_opening_is_audited(world: Any, client: Any) -> None:
    complaint, _ = services.file_complaint(
        jurisdiction="recife",
        kind="denuncia",
        description="Cobrança acima da tarifa.",
        name=SECRET_NAME,
        email=SECRET_MAIL,
    )
    url = f"/ouvidoria/{complaint.pk}/"
    manager = world.users["gestor.recife"]
    client.force_login(manager)
    page = client.get(url)
    assert page.status_code == 200
    assert SECRET_NAME not in page.content.decode() and SECRET_MAIL not in page.content.decode()
    assert (
        client.post(url, {"acao": "identificacao", "reason": "Quero ver quem reclamou."}).status_code == 403
    )
    for role in ("atendente", "fiscal", "comissao"):
        client.force_login(world.users[f"{role}.recife"])
        seen = client.get(url)
        if role == "comissao":
            assert seen.status_code == 403
        else:  # the units a manifestation is forwarded to read it, never its identity
            assert seen.status_code == 200 and "Cobrança acima da tarifa." in seen.content.decode()
            assert SECRET_NAME not in seen.content.decode() and 'name="acao"' not in seen.content.decode()
        assert (
            client.post(url, {"acao": "identificacao", "reason": "Quero ver quem reclamou."}).status_code
            == 403
        )
    api = client.get("/api/ombudsman/complaints")
    assert api.status_code == 200 and api.json() == []
    client.force_login(world.users["ouvidor.recife"])
    closed = client.get(url)
    assert SECRET_NAME not in closed.content.decode()
    assert client.post(url, {"acao": "identificacao", "reason": "curto"}).status_code == 422
    opened = client.post(
        url, {"acao": "identificacao", "reason": "Contato para pedir mais detalhes do fato."}
    )
    assert opened.status_code == 200
    assert SECRET_NAME in opened.content.decode() and SECRET_MAIL in opened.content.decode()
    event = AuditEvent.objects.get(action="complaint.identity_opened", object_id=str(complaint.pk))
    assert event.actor_id == world.users["ouvidor.recife"].pk
    assert event.reason == "Contato para pedir mais detalhes do fato."
    # the staff API's queue never carries the identity either
    listed = client.get("/api/ombudsman/complaints").content.decode()
    assert complaint.protocol in listed and SECRET_NAME not in listed and SECRET_MAIL not in listed


def test_tenancy_another_agency_sees_nothing(world: Any, client: Any) -> None:
    complaint, _ = services.file_complaint(
        jurisdiction="recife", kind="reclamacao", description="Atraso constante."
    )
    client.force_login(world.users["ouvidor.esteio"])
    assert client.get(f"/ouvidoria/{complaint.pk}/").status_code == 404
    assert client.post(f"/ouvidoria/{complaint.pk}/", {"acao": "triage"}).status_code == 404
    assert (
        client.post(
            f"/ouvidoria/{complaint.pk}/", {"acao": "identificacao", "reason": "Pedido de outra agência."}
        ).status_code
        == 404
    )
    assert complaint.protocol not in client.get("/ouvidoria/fila/").content.decode()
    step = client.post(
        f"/api/ombudsman/complaints/{complaint.pk}/steps",
        {"action": "triage"},
        content_type="application/json",
    )
    assert step.status_code == 404
    complaint.refresh_from_db()
    assert complaint.status == Status.RECEIVED


def test_a_holder_and_the_public_never_reach_the_queue(world: Any, client: Any) -> None:
    complaint, _ = services.file_complaint(
        jurisdiction="recife", kind="reclamacao", description="Atraso constante."
    )
    assert client.get("/ouvidoria/fila/").status_code == 302  # to the sign-in
    assert client.get("/api/ombudsman/complaints").status_code == 401
    client.force_login(world.users["holder0.recife"])
    assert client.get(f"/ouvidoria/{complaint.pk}/").status_code == 404
    assert client.get("/ouvidoria/fila/").status_code == 403


def test_staff_take_a_phone_call(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    page = client.post(
        "/ouvidoria/nova/",
        {
            "channel": "phone",
            "jurisdiction": "recife",
            "kind": "solicitacao",
            "description": "Pede o horário da linha.",
        },
    )
    assert page.status_code == 200
    complaint = Complaint.unscoped.get(channel="phone")
    assert complaint.channel == "phone" and complaint.created_by == world.users["atendente.recife"]
    assert complaint.protocol in page.content.decode()
    refused = client.post(
        "/ouvidoria/nova/",
        {"channel": "phone", "jurisdiction": "esteio", "kind": "elogio", "description": "x"},
    )
    assert refused.status_code == 422  # not the clerk's jurisdiction


def test_a_complaint_about_a_vehicle_leads_to_an_inspection_and_a_prefilled_notice(
    world: Any, client: Any
) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    complaint, _ = services.file_complaint(
        jurisdiction="recife",
        kind="denuncia",
        description="Pneus carecas.",
        plate=vehicle.plate,
        place="Terminal",
    )
    client.force_login(world.users["ouvidor.recife"])
    page = client.get(f"/ouvidoria/{complaint.pk}/").content.decode()
    # The notice is the inspectors' act: the ombudsman, who cannot open its form, gets no link to it.
    assert "/fiscalizacao/autos/novo/" not in page
    client.force_login(world.users["gestor.recife"])  # works the queue and may draw up notices
    page = client.get(f"/ouvidoria/{complaint.pk}/").content.decode()
    assert "/fiscalizacao/autos/novo/?jurisdicao=recife&amp;placa=" + vehicle.plate in page
    client.force_login(world.users["ouvidor.recife"])
    day = (timezone.localdate() + dt.timedelta(days=3)).isoformat()
    done = client.post(
        f"/ouvidoria/{complaint.pk}/", {"acao": "inspection", "scheduled_for": day, "place": "Pátio"}
    )
    assert done.status_code == 302, done.content.decode()
    complaint.refresh_from_db()
    assert complaint.inspection is not None and complaint.inspection.kind == "random"
    assert complaint.inspection.vehicle == vehicle
    client.force_login(world.users["fiscal.recife"])
    form = client.get(
        "/fiscalizacao/autos/novo/",
        {"jurisdicao": "recife", "placa": vehicle.plate, "local": "Terminal", "descricao": "Pneus"},
    )
    assert form.status_code == 200
    assert 'value="Terminal"' in form.content.decode()


def test_work_items_near_the_deadline(world: Any) -> None:
    from lotacao.ombudsman.queue import items

    now = timezone.now()
    near, _ = services.file_complaint(
        jurisdiction="recife", kind="reclamacao", description="Antiga.", now=now - dt.timedelta(days=27)
    )
    services.file_complaint(jurisdiction="recife", kind="reclamacao", description="Nova.")
    found = list(items(timezone.localdate(), 30))
    assert [i.key for i in found] == [str(near.pk)]
    assert near.protocol in found[0].title


def test_statistics_page_report_pdf_and_monthly_rows(world: Any, client: Any) -> None:
    from pypdf import PdfReader

    from lotacao.ombudsman.stats import monthly_rows

    vehicle = world.objects["recife"]["registry.vehicle"]
    a, _ = services.file_complaint(
        jurisdiction="recife", kind="reclamacao", description="x", plate=vehicle.plate, name=SECRET_NAME
    )
    services.file_complaint(jurisdiction="recife", kind="elogio", description="y", line="L1")
    services.answer(
        actor=None, complaint=a, text="Resposta ao manifestante.", measures="Orientação ao condutor."
    )
    page = client.get("/publico/ouvidoria/recife/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "<svg" in text and "Reclamação" in text and "L1 — Linha de Recife" in text
    assert "Permissionários pessoas físicas" in text  # a natural person is never named
    assert str(vehicle.holder) not in text and SECRET_NAME not in text
    year = timezone.localdate().year
    pdf = client.get(f"/publico/ouvidoria/recife/relatorio-{year}.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    words = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Relatório anual de gestão" in words and "Orientação ao condutor" in words
    assert SECRET_NAME not in words
    assert client.get(f"/publico/ouvidoria/recife/relatorio-{year - 30}.pdf").status_code == 404
    header, rows = monthly_rows("recife")
    assert header[:3] == ["mês", "tipo", "recebidas"]
    month = f"{timezone.localdate():%Y-%m}"
    assert [month, "Reclamação", 2, 1, 1, 0, 1, 0] in rows  # the world's one is open
    assert [month, "Elogio", 1, 0, 0, 0, 1, 0] in rows
    flat = repr(rows)
    assert a.protocol not in flat and SECRET_NAME not in flat and vehicle.plate not in flat
    assert monthly_rows("esteio") == (header, [[month, "Reclamação", 1, 0, 0, 0, 1, 0]])
    assert monthly_rows("cabo") == (header, [])
