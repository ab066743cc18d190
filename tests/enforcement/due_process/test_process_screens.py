"""Screens of the due process: the holder files a defense in the portal (with an attachment and a
receipt), a clerk files at the counter, the commission holds a session, and who may do what."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from lotacao.demo.documents import pdf_bytes
from lotacao.enforcement.due_process import filings, judging
from lotacao.enforcement.models import BodyMember, Decision, Filing, InfractionNotice, JudgingBody
from tests.enforcement.conftest import at

pytestmark = pytest.mark.django_db


def _served_notice(world: Any, code: str = "recife", days_ago: int = 3) -> InfractionNotice:
    j = world.a if code == "recife" else world.b
    served = timezone.localdate() - dt.timedelta(days=days_ago)
    return InfractionNotice.objects.create(
        jurisdiction=j,
        number=f"AI-S-{code}-{InfractionNotice.unscoped.count() + 1}",
        drawn_up_at=at((served - dt.timedelta(days=2)).isoformat()),
        infraction_code="teste",
        offender_kind="permit_holder",
        holder=world.objects[code]["registry.holder"],
        penalty={"penalties": [{"type": "fine", "amount": "100.00"}]},
        served_on=served,
        status=InfractionNotice.Status.NOTIFIED,
    )


def test_the_holder_files_a_defense_in_the_portal_with_a_receipt(world: Any, client: Any) -> None:
    notice = _served_notice(world)
    client.force_login(world.users["holder0.recife"])
    page = client.get(f"/fiscalizacao/autos/{notice.pk}/").content.decode()
    assert "Apresentar defesa ou recurso" in page and "Defesa à CDTC" in page
    form = client.get(f"/fiscalizacao/autos/{notice.pk}/defesa/").content.decode()
    assert "prazo até" in form
    pdf = SimpleUploadedFile("notificacao.pdf", pdf_bytes("Notificação"), content_type="application/pdf")
    response = client.post(
        f"/fiscalizacao/autos/{notice.pk}/defesa/",
        {"text": "Não fui notificado corretamente.", "attachments": [pdf]},
    )
    assert response.status_code == 302, response.content.decode()[:1500]
    filing = Filing.unscoped.get(notice=notice)
    assert filing.channel == Filing.Channel.PORTAL and filing.filed_by == world.users["holder0.recife"]
    detail = client.get(response["Location"]).content.decode()
    assert filing.receipt in detail and "notificacao.pdf" in detail
    receipt = client.get(f"/fiscalizacao/defesas/{filing.pk}/protocolo.pdf")
    assert receipt.status_code == 200 and receipt.content.startswith(b"%PDF")
    attachment = client.get(f"/fiscalizacao/anexos/{filing.attachments.get().pk}/")
    assert attachment.status_code == 200


def test_another_holder_cannot_file_or_see(world: Any, client: Any) -> None:
    notice = _served_notice(world)
    client.force_login(world.users["holder1.recife"])
    assert client.get(f"/fiscalizacao/autos/{notice.pk}/defesa/").status_code == 404
    assert client.post(f"/fiscalizacao/autos/{notice.pk}/defesa/", {"text": "x"}).status_code == 404
    assert not Filing.unscoped.filter(notice=notice).exists()


def test_an_inspector_cannot_file_for_the_offender(world: Any, client: Any) -> None:
    notice = _served_notice(world)
    client.force_login(world.users["fiscal.recife"])
    assert client.post(f"/fiscalizacao/autos/{notice.pk}/defesa/", {"text": "x"}).status_code == 403


def test_a_refused_filing_shows_the_portuguese_reason(world: Any, client: Any) -> None:
    notice = _served_notice(world)
    client.force_login(world.users["atendente.recife"])
    bad = SimpleUploadedFile("x.pdf", b"MZ\x90\x00binary", content_type="application/pdf")
    response = client.post(
        f"/fiscalizacao/autos/{notice.pk}/defesa/", {"text": "Razões", "attachments": [bad]}
    )
    assert response.status_code == 422
    assert "não é PDF, PNG ou JPEG" in response.content.decode()
    assert not Filing.unscoped.filter(notice=notice).exists()


def test_the_commission_judges_in_session(world: Any, client: Any) -> None:
    notice = _served_notice(world, "esteio")
    filing = filings.file_defense(actor=None, notice=notice, text="R", channel="counter", reason="x")
    body = filing.body
    assert body is not None
    client.force_login(world.users["comissao.esteio"])
    listing = client.get("/fiscalizacao/julgamento/").content.decode()
    assert "Comissão de Julgamento de Infrações e Penalidades (CIP)" in listing
    today = timezone.localdate()
    for i, name in enumerate(["Presidente", "Ana", "Bia", "Caio"]):
        response = client.post(
            f"/fiscalizacao/julgamento/orgaos/{body.pk}/",
            {
                "action": "member",
                "name": name,
                "role": "president" if i == 0 else "member",
                "starts_on": (today - dt.timedelta(days=30)).isoformat(),
                "reason": "Portaria",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
    response = client.post(
        f"/fiscalizacao/julgamento/orgaos/{body.pk}/",
        {"action": "session", "held_on": today.isoformat(), "kind": "ordinary", "reason": "Convocação"},
    )
    session_url = response["Location"]
    members = list(BodyMember.objects.filter(body=body).order_by("pk"))
    # two present: no quorum (Anexo I, art. 25)
    refused = client.post(session_url, {"action": "open", "present": [members[0].pk, members[1].pk]})
    assert refused.status_code == 422 and "Sem quórum" in refused.content.decode()
    assert client.post(session_url, {"action": "open", "present": [m.pk for m in members]}).status_code == 302
    assert client.post(session_url, {"action": "agenda"}).status_code == 302
    page = client.get(session_url).content.decode()
    assert filing.receipt in page
    item = filing.agenda_items.get()
    votes = {
        f"vote_{members[1].pk}": "uphold",
        f"vote_{members[2].pk}": "uphold",
        f"vote_{members[3].pk}": "annul",
        **{f"reasons_{m.pk}": f"Razões de {m.name}" for m in members[1:]},
    }
    judged = client.post(
        session_url, {"action": "judge", "item": item.pk, "reasons": "Provas insuficientes.", **votes}
    )
    assert judged.status_code == 302, judged.content.decode()[:2000]
    decision = Decision.unscoped.get(filing=filing)
    assert (
        decision.outcome == "upheld"
        and decision.final
        and decision.votes["counts"] == {"uphold": 2, "annul": 1}
    )
    assert "Penalidade mantida" in client.get(f"/fiscalizacao/decisoes/{decision.pk}/").content.decode()


def test_staff_of_another_agency_and_holders_cannot_judge(world: Any, client: Any) -> None:
    body = judging.ensure_bodies("esteio", timezone.localdate())[0]
    client.force_login(world.users["comissao.recife"])
    assert client.get(f"/fiscalizacao/julgamento/orgaos/{body.pk}/").status_code == 404
    client.force_login(world.users["holder0.esteio"])
    assert client.get("/fiscalizacao/julgamento/").status_code == 403
    assert JudgingBody.unscoped.filter(pk=body.pk).exists()


def test_api_files_and_reports_the_process(world: Any, client: Any) -> None:
    notice = _served_notice(world)
    client.force_login(world.users["holder0.recife"])
    state = client.get(f"/api/due-process/notices/{notice.pk}").json()
    assert state["open_instance"]["id"] == "defense" and state["open_instance"]["due"]
    empty = client.post(
        f"/api/due-process/notices/{notice.pk}/filings", {"text": " "}, content_type="application/json"
    )
    assert empty.status_code == 422 and "razões" in empty.json()["errors"][0]
    made = client.post(
        f"/api/due-process/notices/{notice.pk}/filings", {"text": "Razões"}, content_type="application/json"
    )
    assert made.status_code == 201 and made.json()["channel"] == "portal" and not made.json()["late"]
    again = client.post(
        f"/api/due-process/notices/{notice.pk}/filings", {"text": "Razões"}, content_type="application/json"
    )
    assert again.status_code == 422
    client.force_login(world.users["holder1.recife"])
    assert client.get(f"/api/due-process/notices/{notice.pk}").status_code == 404


def test_a_clerk_records_the_notification_and_the_defense_deadline_opens(world: Any, client: Any) -> None:
    notice = _served_notice(world)
    InfractionNotice.unscoped.filter(pk=notice.pk).update(
        served_on=None, status=InfractionNotice.Status.DRAWN_UP
    )
    client.force_login(world.users["atendente.recife"])
    page = client.get(f"/fiscalizacao/autos/{notice.pk}/").content.decode()
    assert "Ainda não notificado" in page and "Registrar notificação" in page
    url = f"/fiscalizacao/autos/{notice.pk}/notificacao/"
    refused = client.post(url, {"method": "post_ar", "received_on": "1999-01-01"})
    assert refused.status_code == 422 and "anterior à infração" in refused.content.decode()
    received = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    done = client.post(url, {"method": "hand", "received_on": received})
    assert done.status_code == 302, done.content.decode()[:1500]
    notice.refresh_from_db()
    assert notice.served_on == dt.date.fromisoformat(received)
    page = client.get(f"/fiscalizacao/autos/{notice.pk}/").content.decode()
    assert "considerada feita em" in page and "prazo até" in page
    client.force_login(world.users["holder0.recife"])
    assert client.post(url, {"method": "hand", "received_on": received}).status_code == 403


def test_api_records_a_sending_then_its_ar(world: Any, client: Any) -> None:
    notice = _served_notice(world)
    InfractionNotice.unscoped.filter(pk=notice.pk).update(
        served_on=None, status=InfractionNotice.Status.DRAWN_UP
    )
    url = f"/api/due-process/notices/{notice.pk}/notifications"
    client.force_login(world.users["fiscal.recife"])
    assert client.post(url, {"method": "hand"}, content_type="application/json").status_code == 403
    client.force_login(world.users["atendente.recife"])
    sent_on = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    body = {"method": "post_ar", "sent_on": sent_on, "address": "Rua A, 1"}
    sent = client.post(url, body, content_type="application/json")
    assert sent.status_code == 201 and sent.json()["served_on"] is None
    bad = client.post(url, {"method": "fax"}, content_type="application/json")
    assert bad.status_code == 422 and "Meio de notificação desconhecido" in bad.json()["errors"][0]
    got = client.post(
        url,
        {"method": "post_ar", "received_on": timezone.localdate().isoformat()},
        content_type="application/json",
    )
    assert got.status_code == 201 and got.json()["id"] == sent.json()["id"]
    assert (
        got.json()["served_on"] == timezone.localdate().isoformat()
        and got.json()["notice_status"] == "notified"
    )
