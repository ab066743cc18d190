"""Commission sessions (due_process/minutes.py): the agenda shows holder, infraction as the law
prints it, penalty and the defense's text; each vote keeps its member's reasons; the minutes are
generated from the session, signed off by the president, required to close, and served as PDF."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.enforcement.due_process import decisions, filings, judging, minutes
from lotacao.enforcement.models import BodyMember, InfractionNotice, Session, Vote
from lotacao.registry.models import Person
from tests.enforcement.conftest import at

pytestmark = pytest.mark.django_db

DEFENSE = "O veículo estava com o selo afixado; junto fotografia tirada no dia."


def _notice(world: Any, number: str) -> InfractionNotice:
    served = timezone.localdate() - dt.timedelta(days=3)
    notice: InfractionNotice = InfractionNotice.objects.create(
        jurisdiction=world.b,
        number=number,
        drawn_up_at=at((served - dt.timedelta(days=2)).isoformat()),
        infraction_code="I-03",
        offender_kind="permit_holder",
        holder=world.objects["esteio"]["registry.holder"],
        penalty={"penalties": [{"type": "fine", "amount": "100.00"}]},
        served_on=served,
        status=InfractionNotice.Status.NOTIFIED,
    )
    return notice


@pytest.fixture
def cip(world: Any) -> dict[str, Any]:
    """Esteio's CIP (majority vote, quorum 3) with a session open, one defense on its agenda."""
    filing = filings.file_defense(
        actor=None, notice=_notice(world, "AI-M-1"), text=DEFENSE, channel="counter", reason="x"
    )
    body = filing.body
    assert body is not None and body.collegiate
    start = timezone.localdate() - dt.timedelta(days=30)
    president_user = world.users["comissao.esteio"]
    members = [
        judging.add_member(
            actor=None,
            body=body,
            name=name,
            role=BodyMember.Role.PRESIDENT if i == 0 else BodyMember.Role.MEMBER,
            starts_on=start,
            reason="Portaria",
            user=president_user if i == 0 else None,
        )
        for i, name in enumerate(["Presidenta Lúcia", "Ana", "Bia", "Caio"])
    ]
    session = judging.schedule_session(actor=None, body=body, held_on=timezone.localdate(), reason="c")
    judging.open_session(actor=None, session=session, present=members, reason="Abertura")
    judging.build_agenda(actor=None, session=session)
    return {"filing": filing, "members": members, "session": session, "body": body}


def _judge(cip: dict[str, Any], reasons: dict[int, str] | None = None) -> Any:
    _, ana, bia, caio = cip["members"]
    votes = {ana: "uphold", bia: "uphold", caio: "annul"}
    words = reasons or {
        ana.pk: "O auto descreve o selo ausente.",
        bia.pk: "A foto não mostra a data.",
        caio.pk: "A fotografia prova o selo.",
    }
    return decisions.decide(
        actor=None,
        filing=cip["filing"],
        session=cip["session"],
        votes=votes,
        vote_reasons={m: words.get(m.pk, "") for m in votes},
        reasons="Infração comprovada.",
        decided_on=timezone.localdate(),
    )


def test_each_vote_needs_and_keeps_its_reasons(cip: dict[str, Any]) -> None:
    _, ana, bia, _caio = cip["members"]
    with pytest.raises(ValidationError, match="Registre as razões do voto de Caio"):
        _judge(cip, {ana.pk: "a", bia.pk: "b"})
    assert not Vote.objects.exists()
    _judge(cip)
    assert dict(Vote.objects.values_list("member__name", "reasons")) == {
        "Ana": "O auto descreve o selo ausente.",
        "Bia": "A foto não mostra a data.",
        "Caio": "A fotografia prova o selo.",
    }


def test_a_draft_pdf_before_the_minutes_are_generated(cip: dict[str, Any]) -> None:
    html = minutes.pdf_html(cip["session"])
    assert "a ata ainda não foi gerada" in html and DEFENSE in html and "Presidenta Lúcia" in html


def test_the_minutes_pdf_header_names_the_place_the_number_and_when_it_was_issued(
    cip: dict[str, Any],
) -> None:
    """Issue 24, defect 4: the header read "/—" and the footer "Documento emitido em —"."""
    session = cip["session"]
    html = minutes.pdf_html(session)
    place = f"{session.jurisdiction.name}/{session.jurisdiction.state} — "
    assert place in html and "/ —" not in html and '<p class="place">/' not in html
    assert f"Ata nº {session.number}/{session.held_on:%Y}" in html
    assert re.search(r"Documento emitido em \d{2}/\d{2}/\d{4} \d{2}:\d{2}\.", html), html[-300:]
    assert "Documento emitido em —" not in html


def test_the_minutes_are_generated_from_the_session(cip: dict[str, Any]) -> None:
    _judge(cip)
    session = minutes.generate(actor=None, session=cip["session"], notes="Sessão sem intercorrências.")
    text = session.minutes
    for expected in [
        "ATA DA 1ª SESSÃO ORDINÁRIA",
        "- Presidenta Lúcia (Presidente)",
        "- Ana (Membro)",
        "auto nº AI-M-1",
        f"Permissionário: {world_holder_name(cip)}",
        "Infração: Lei Municipal 3.839/2004 (Esteio), Anexo II, I-03 — Não manter o selo",
        "Penalidade: Multa de R$\xa0100,00",
        f"Razões da defesa: {DEFENSE}",
        "Voto de Caio (Membro, voto vencido): Acolher (anular o auto) — A fotografia prova o selo.",
        "Resultado: Penalidade mantida (Manter a penalidade: 2; Acolher (anular o auto): 1",
        "Fundamentação: Infração comprovada.",
        "Ocorrências: Sessão sem intercorrências.",
    ]:
        assert expected in text, text
    assert "uphold" not in text and "annul:" not in text


def world_holder_name(cip: dict[str, Any]) -> str:
    return str(cip["filing"].notice.holder)


def test_a_session_cannot_close_without_minutes_signed_by_the_president(
    cip: dict[str, Any], world: Any
) -> None:
    session = cip["session"]
    with pytest.raises(ValidationError, match="sem a ata assinada pelo presidente"):
        judging.close_session(actor=None, session=session)
    with pytest.raises(ValidationError, match="Gere a ata"):
        minutes.sign(actor=None, session=session)
    minutes.generate(actor=None, session=session)
    with pytest.raises(ValidationError, match="sem a ata assinada pelo presidente"):
        judging.close_session(actor=None, session=session)
    with pytest.raises(ValidationError, match="Só o presidente da sessão \\(Presidenta Lúcia\\)"):
        minutes.sign(actor=world.users["gestor.esteio"], session=session)
    signed = minutes.sign(actor=world.users["comissao.esteio"], session=session)
    assert signed.minutes_signed_by == cip["members"][0] and signed.minutes_signed_at is not None
    closed = judging.close_session(actor=None, session=session)
    assert closed.status == Session.Status.CLOSED
    with pytest.raises(ValidationError, match="encerrada"):
        minutes.generate(actor=None, session=closed)


def test_minutes_signed_before_a_judgment_must_be_generated_again(cip: dict[str, Any]) -> None:
    session = cip["session"]
    minutes.generate(actor=None, session=session)
    minutes.sign(actor=None, session=session)
    _judge(cip)  # the session changed after the signature
    with pytest.raises(ValidationError, match="mudou depois que a ata foi assinada"):
        judging.close_session(actor=None, session=session)
    session.refresh_from_db()
    assert session.status == Session.Status.OPEN
    minutes.generate(actor=None, session=session)
    session.refresh_from_db()
    assert session.minutes_signed_at is None and "A fotografia prova o selo." in session.minutes
    minutes.sign(actor=None, session=session)
    assert judging.close_session(actor=None, session=session).status == Session.Status.CLOSED


def test_a_president_without_an_account_or_absent_cannot_sign(cip: dict[str, Any], world: Any) -> None:
    body, session = cip["body"], cip["session"]
    president = cip["members"][0]
    BodyMember.objects.filter(pk=president.pk).update(user=None)
    minutes.generate(actor=None, session=session)
    with pytest.raises(ValidationError, match="não tem usuário vinculado"):
        minutes.sign(actor=world.users["comissao.esteio"], session=session)
    later = judging.schedule_session(actor=None, body=body, held_on=timezone.localdate(), reason="c")
    judging.open_session(actor=None, session=later, present=cip["members"][1:], reason="Abertura")
    minutes.generate(actor=None, session=later)
    with pytest.raises(ValidationError, match="Não há presidente entre os presentes"):
        minutes.sign(actor=None, session=later)


def test_the_session_screen_shows_the_agenda_and_runs_the_minutes(
    cip: dict[str, Any], world: Any, client: Any
) -> None:
    session = cip["session"]
    url = session.get_absolute_url()
    _, ana, bia, caio = cip["members"]
    client.force_login(world.users["comissao.esteio"])
    page = client.get(url).content.decode()
    assert world_holder_name(cip) in page
    assert "Anexo II, I-03 — Não manter o selo" in page
    assert "Multa de R$\xa0100,00" in page and DEFENSE in page
    item = cip["filing"].agenda_items.get()
    votes = {f"vote_{ana.pk}": "uphold", f"vote_{bia.pk}": "uphold", f"vote_{caio.pk}": "annul"}
    refused = client.post(url, {"action": "judge", "item": item.pk, "reasons": "R", **votes})
    assert refused.status_code == 422 and "Registre as razões do voto de" in refused.content.decode()
    reasons = {f"reasons_{m.pk}": f"Razão de {m.name}" for m in (ana, bia, caio)}
    judged = client.post(url, {"action": "judge", "item": item.pk, "reasons": "R", **votes, **reasons})
    assert judged.status_code == 302
    page = client.get(url).content.decode()
    assert "Manter a penalidade: 2" in page and "Razão de Caio" in page and "uphold" not in page
    refused = client.post(url, {"action": "close"})
    assert refused.status_code == 422 and "sem a ata assinada pelo presidente" in refused.content.decode()
    assert client.post(url, {"action": "minutes", "notes": "Nada a registrar."}).status_code == 302
    assert client.post(url, {"action": "sign"}).status_code == 302
    assert client.post(url, {"action": "close"}).status_code == 302
    session.refresh_from_db()
    assert session.status == Session.Status.CLOSED
    pdf = client.get(url, {"formato": "pdf"})
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    html = minutes.pdf_html(session)
    assert "Razão de Caio" in html and "Ata assinada pelo presidente Presidenta Lúcia" in html
    # the signed minutes stay as signed: a later change of the holder's name does not rewrite them
    person = cip["filing"].notice.holder.person
    old_name = person.full_name
    Person.objects.filter(pk=person.pk).update(full_name="Outro Nome")
    html = minutes.pdf_html(session)
    assert old_name in html and "Outro Nome" not in html


def test_only_the_president_signs_on_the_screen(cip: dict[str, Any], world: Any, client: Any) -> None:
    url = cip["session"].get_absolute_url()
    minutes.generate(actor=None, session=cip["session"])
    client.force_login(world.users["gestor.esteio"])
    refused = client.post(url, {"action": "sign"})
    assert refused.status_code == 422 and "Só o presidente da sessão" in refused.content.decode()
    assert client.post(url, {"action": "judge", "item": "x"}).status_code == 404


def test_a_member_gets_a_login_on_the_bodys_page(world: Any, client: Any) -> None:
    body = judging.ensure_bodies("esteio", timezone.localdate())[0]
    client.force_login(world.users["comissao.esteio"])
    start = (timezone.localdate() - dt.timedelta(days=30)).isoformat()
    data = {"action": "member", "name": "Presidenta", "role": "president", "starts_on": start}
    data["reason"] = "Portaria"
    refused = client.post(f"/fiscalizacao/julgamento/orgaos/{body.pk}/", {**data, "login": "ninguem"})
    assert refused.status_code == 422
    assert "Não há usuário ativo com esse nome de acesso" in refused.content.decode()
    assert not BodyMember.objects.filter(body=body).exists()
    done = client.post(f"/fiscalizacao/julgamento/orgaos/{body.pk}/", {**data, "login": "comissao.esteio"})
    assert done.status_code == 302
    assert BodyMember.objects.get(body=body).user == world.users["comissao.esteio"]
