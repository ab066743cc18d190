"""Enforcement in the browser: an inspector draws up a notice on a phone, a permit holder files a
defense with an attachment in the portal, and Esteio's CIP opens a session with its quorum, builds
the agenda, votes and judges (the president votes only to break a tie)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from lotacao.demo.documents import pdf_bytes

pytestmark = pytest.mark.browser

PDF = pdf_bytes("Fotos")


@pytest.fixture
def media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"  # the uploaded attachment stays in the test


def _served_notice(bworld: Any, code: str, infraction: str, days_ago: int = 2) -> Any:
    """A notice of the jurisdiction's holder drawn up by the engine and served by hand."""
    from lotacao.enforcement.notices import services
    from lotacao.enforcement.notices.notification import record_notification

    objects = bworld.objects[code]
    jurisdiction = bworld.a if code == bworld.a.code else bworld.b
    today = timezone.localdate()
    notice = services.draw_up_notice(
        actor=None,
        jurisdiction=jurisdiction,
        drawn_up_at=timezone.now() - dt.timedelta(days=days_ago + 1),
        infraction_code=infraction,
        offender_kind="permit_holder",
        permit=objects["permits.permit"],
        place="Terminal do Centro",
        description="Veículo parado fora do ponto",
        inspector=bworld.users[f"fiscal.{code}"],
    )
    record_notification(
        actor=None,
        notice=notice,
        method="hand",
        received_on=today - dt.timedelta(days=days_ago),
        today=today,
    )
    return notice


def test_inspector_draws_up_a_notice_on_the_phone(
    phone: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    from playwright.sync_api import expect

    from lotacao.enforcement.models import InfractionNotice

    url = live_server.url
    plate = bworld.objects["recife"]["registry.vehicle"].plate
    # The world's stand-in notice (code "teste", for the tenancy walk) is no history of this
    # holder: drawn up "now", it counted as an earlier offence whenever the form's minute came
    # after it, and the engine rightly refused its unknown code.
    InfractionNotice.objects.filter(number__startswith="AI-T-").update(
        drawn_up_at=timezone.now() + dt.timedelta(days=1)
    )
    sign_in(phone, "fiscal.recife")
    phone.goto(f"{url}/fiscalizacao/autos/novo/?placa={plate}")
    expect(phone.locator(".enf-status")).to_contain_text(": autorizado")
    phone.select_option("#id_offender_kind", "permit_holder")
    phone.select_option("#id_infraction_code", "G2-a")
    phone.fill("#id_place", "Av. Conde da Boa Vista, parada 3")
    phone.fill("#id_description", "Embarque de passageiros fora do ponto")
    with phone.expect_navigation():
        phone.click("text=Ver penalidade")
    preview = phone.locator(".enf-preview")
    expect(preview).to_contain_text("Multa de R$ 100,00")
    expect(preview).to_contain_text("art.")
    assert not InfractionNotice.objects.exclude(number__startswith="AI-T-").exists()  # nothing written

    with phone.expect_navigation():
        phone.click("button:has-text('Lavrar auto')")  # not the menu's link
    notice = InfractionNotice.objects.exclude(number__startswith="AI-T-").get()
    assert phone.url.endswith(f"/fiscalizacao/autos/{notice.pk}/")
    expect(phone.locator("main")).to_contain_text(notice.number)
    expect(phone.locator(".enf-penalty")).to_contain_text("Multa de R$ 100,00")
    assert notice.infraction_code == "G2-a" and notice.inspector == bworld.users["fiscal.recife"]
    assert notice.line == bworld.objects["recife"]["registry.line"]  # from the active permit


def test_holder_files_a_defense_with_an_attachment_in_the_portal(
    media: None, page: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    from playwright.sync_api import expect

    from lotacao.enforcement.models import Filing

    notice = _served_notice(bworld, "recife", "G2-b")
    sign_in(page, "permissionario0.recife")
    page.goto(f"{live_server.url}/fiscalizacao/autos/")
    with page.expect_navigation():
        page.click(f"text={notice.number}")
    expect(page.locator("#processo")).to_contain_text("Defesa à CDTC")
    with page.expect_navigation():
        page.click("text=Apresentar defesa ou recurso")
    page.fill("#id_text", "O veículo aguardava passageiros no ponto autorizado; junto fotos.")
    page.set_input_files(
        "#id_attachments",
        files=[{"name": "fotos.pdf", "mimeType": "application/pdf", "buffer": PDF}],
    )
    with page.expect_navigation():
        page.click("#filing-form button[type=submit]")
    filing = Filing.objects.get(notice=notice)
    expect(page.locator(".messages")).to_contain_text(f"Protocolado: nº {filing.receipt}")
    expect(page.locator("#receipt")).to_contain_text("Portal")
    expect(page.locator("main")).to_contain_text("fotos.pdf")
    assert filing.channel == Filing.Channel.PORTAL and not filing.late
    assert filing.attachments.get().content_type == "application/pdf"


def test_esteio_commission_opens_a_session_votes_and_judges(
    page: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    from playwright.sync_api import expect

    from lotacao.enforcement.due_process import filings, judging
    from lotacao.enforcement.models import BodyMember, Decision, Filing, InfractionNotice

    today = timezone.localdate()
    cip = next(b for b in judging.ensure_bodies("esteio", today) if b.key == "cip")
    names = ["Ana Presidente", "Bruno Membro", "Carla Membro", "Davi Membro"]
    members = [
        judging.add_member(
            actor=None,
            body=cip,
            name=name,
            role=BodyMember.Role.PRESIDENT if i == 0 else BodyMember.Role.MEMBER,
            starts_on=today - dt.timedelta(days=30),
            user=bworld.users["comissao.esteio"] if i == 0 else None,
            reason="Portaria de nomeação",
        )
        for i, name in enumerate(names)
    ]
    notice = _served_notice(bworld, "esteio", "II-02")
    filing = filings.file_defense(
        actor=None, notice=notice, text="Razões do recurso", channel="counter", reason="Protocolo no órgão"
    )
    assert filing.body == cip
    session = judging.schedule_session(actor=None, body=cip, held_on=today, reason="Convocação")

    sign_in(page, "comissao.esteio")
    page.goto(f"{live_server.url}/fiscalizacao/julgamento/sessoes/{session.pk}/")
    # two present: below the quorum of 3 (Anexo I, art. 24) — refused
    for member in members[:2]:
        page.check(f"#open-form input[value='{member.pk}']")
    page.click("#open-form button[type=submit]")
    expect(page.locator("[role=alert]")).to_contain_text("Sem quórum")
    for member in members[:3]:
        page.check(f"#open-form input[value='{member.pk}']")
    with page.expect_navigation():
        page.click("#open-form button[type=submit]")
    expect(page.locator("#session-status")).to_contain_text("Em andamento")

    with page.expect_navigation():
        page.click("#agenda-form button[type=submit]")
    item = page.locator("article.agenda-item")
    expect(item).to_contain_text(filing.receipt)
    expect(item).to_contain_text("(só em empate)")  # the president's vote
    for member in members[1:3]:
        item.locator(f"select[name='vote_{member.pk}']").select_option("uphold")
        item.locator(f"textarea[name='reasons_{member.pk}']").fill("O relatório comprova a conduta.")
    item.locator("textarea[name=reasons]").fill("Infração comprovada pelo relatório do agente.")
    with page.expect_navigation():
        item.locator(".judge-form button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("Julgado: ")
    decision = Decision.objects.get(filing=filing)
    expect(item).to_contain_text(decision.get_outcome_display())
    assert decision.outcome == Decision.Outcome.UPHELD and decision.votes["counts"] == {"uphold": 2}
    assert decision.final  # the CIP is the only instance
    notice.refresh_from_db()
    filing.refresh_from_db()
    assert notice.status == InfractionNotice.Status.DECIDED_FINAL
    assert filing.status == Filing.Status.JUDGED
