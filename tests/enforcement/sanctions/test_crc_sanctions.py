"""Pernambuco's CRC sanctions from final decisions (Lei 16.205/2017 as amended in 2020): the EPTI's
decision imposes the suspension of the CRC (90 days, art. 23, III), which chartering applies; a new
offence of the company during it does not apply a second one — the manager extends it, on the
enforcement effects page, up to 180 days (double, art. 31) and no further; the end needs the term
served and the proof of cure (art. 30, § 1º)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.chartering.models import FleetVehicle, Sanction
from lotacao.chartering.status import crc_state
from lotacao.enforcement.due_process import decisions, filings
from lotacao.enforcement.models import Decision, Filing, InfractionNotice
from lotacao.enforcement.notices import services
from lotacao.enforcement.notices.notification import record_notification
from lotacao.enforcement.sanctions import crc
from tests.chartering.conftest import pe  # noqa: F401 - the Pernambuco fixture
from tests.enforcement.conftest import at

pytestmark = pytest.mark.django_db


def _notice(pe: Any, company: Any, day: dt.date, code: str = "IV-d") -> InfractionNotice:  # noqa: F811
    entry = FleetVehicle.objects.filter(company=company).select_related("vehicle").first()
    assert entry is not None
    vehicle = entry.vehicle
    notice = services.draw_up_notice(
        actor=None,
        jurisdiction=pe.jurisdiction,
        drawn_up_at=at(day.isoformat()),
        infraction_code=code,
        offender_kind="company",
        holder=company.holder,
        vehicle=vehicle,
        plate=vehicle.plate,
        place="BR-232, km 80",
        description="Fiscalização na rodovia",
        inspector=pe.users["fiscal"],
    )
    record_notification(actor=None, notice=notice, method="hand", received_on=day, today=day)
    notice.refresh_from_db()
    return notice


def _defense(notice: InfractionNotice, day: dt.date) -> Filing:
    return filings.file_defense(
        actor=None,
        notice=notice,
        text="A empresa contesta.",
        channel="counter",
        reason="Protocolo",
        filed_at=at(day.isoformat(), 11),
    )


def _suspended_company(pe: Any, client: Any) -> tuple[Any, Sanction, dt.date]:  # noqa: F811
    company = pe.company(on=pe.today - dt.timedelta(days=40))
    today = pe.today
    first = _notice(pe, company, today - dt.timedelta(days=20))
    filing = _defense(first, today - dt.timedelta(days=18))
    # the EPTI's president decides on the filing's page: the CRC suspension is among the penalties
    client.force_login(pe.users["gestor"])
    page = client.get(f"/fiscalizacao/defesas/{filing.pk}/").content.decode()
    assert "Suspensão do CRC por 90 dias" in page
    assert "Cassação do CRC (modalidade não cadastrada, art. 35)" in page
    decided = today - dt.timedelta(days=10)
    response = client.post(
        f"/fiscalizacao/defesas/{filing.pk}/",
        {
            "outcome": "changed",
            "reasons": "Reincidência grave: suspensão do CRC.",
            "decided_on": decided.isoformat(),
            "new_penalty": "crc_suspension",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    decision = Decision.objects.get(filing=filing)
    assert decision.final
    types = [p["type"] for p in decision.penalty["penalties"]]
    assert types == ["fine", "crc_suspension"]  # the fine of art. 28 stays
    effect = next(e for e in decision.effects if e["type"] == "crc_suspension")
    assert effect["done"], effect
    sanction = Sanction.objects.get(company=company)
    assert (sanction.kind, sanction.status, sanction.days, sanction.starts_on) == (
        "suspension",
        "in_force",
        90,
        decided,
    )
    assert sanction.ends_on == decided + dt.timedelta(days=89)
    assert first.number in sanction.decision_reference
    assert crc_state(company, today).status == "suspended"
    return company, sanction, today


def test_a_final_decision_suspends_the_crc_for_90_days(pe: Any, client: Any) -> None:  # noqa: F811
    _, sanction, _ = _suspended_company(pe, client)
    page = client.get("/fiscalizacao/efeitos/").content.decode()
    assert "Sanções do CRC em vigor" in page and f"/fiscalizacao/efeitos/crc/{sanction.pk}/" in page


def test_a_new_offence_during_a_90_day_suspension_lets_the_manager_extend_it_up_to_180_and_no_further(
    pe: Any,  # noqa: F811
    client: Any,
) -> None:
    company, sanction, today = _suspended_company(pe, client)
    repeat = _notice(pe, company, today - dt.timedelta(days=5), code="IV-b")
    # the second notice's final decision does not apply a second suspension: it points to extension
    filing = _defense(repeat, today - dt.timedelta(days=4))
    decision = decisions.decide(
        actor=None,
        filing=filing,
        outcome="changed",
        penalty=crc.added_to({"penalties": []}, "crc_suspension", "pernambuco", today),
        reasons="Nova infração durante a suspensão.",
        decided_on=today - dt.timedelta(days=2),
    )
    decision.refresh_from_db()
    effect = next(e for e in decision.effects if e["type"] == "crc_suspension")
    assert not effect["done"] and "majorar" in effect["note"] and "art. 31" in effect["note"]
    assert effect["ref"] == f"crcsanction:{sanction.pk}"
    assert Sanction.objects.filter(company=company).count() == 1
    # the manager finds it in the work queue until the extension names the notice
    items = list(crc.repeat_items(today))
    assert [i.key for i in items] == [f"decision-{decision.pk}"]
    assert repeat.number in items[0].title and items[0].url == f"/fiscalizacao/efeitos/crc/{sanction.pk}/"

    url = f"/fiscalizacao/efeitos/crc/{sanction.pk}/"
    client.force_login(pe.users["gestor"])
    page = client.get(url).content.decode()
    assert repeat.number in page and "Majorar o prazo pela reincidência (art. 31)" in page
    assert "Limite: o dobro do prazo original, 180 dias (art. 31) — ainda cabem 90 dias" in page

    def extend(days: int, number: str = repeat.number) -> Any:
        return client.post(
            url,
            {
                "acao": "majorar",
                "majorar-notice": number,
                "majorar-extra_days": days,
                "majorar-reason": "Reincidência",
            },
        )

    refused = extend(91)
    assert refused.status_code == 422
    text = refused.content.decode()
    assert "o prazo passaria a 181 dias; o limite é o dobro do prazo original, 180 dias" in text
    assert "art. 31" in text
    assert extend(30, number="AI-0000-999").status_code == 422  # not a notice of the company in the period
    assert extend(60).status_code == 302
    assert list(crc.repeat_items(today)) == []
    assert extend(30).status_code == 302
    sanction.refresh_from_db()
    assert sanction.days == 180 and sanction.ends_on == sanction.starts_on + dt.timedelta(days=179)  # type: ignore[operator]
    assert len(sanction.extensions) == 2 and repeat.number in sanction.extensions[0]["grounds"]
    refused = extend(1)
    assert refused.status_code == 422 and "O prazo já chegou ao limite" in refused.content.decode()
    sanction.refresh_from_db()
    assert sanction.days == 180

    # only the manager acts; other staff see the page without the forms
    client.force_login(pe.users["atendente"])
    assert "Majorar o prazo" not in client.get(url).content.decode()
    assert extend(1).status_code == 403 or extend(1).status_code == 404


def test_the_end_needs_the_term_served_and_the_proof_of_cure(pe: Any, client: Any) -> None:  # noqa: F811
    _, sanction, today = _suspended_company(pe, client)
    with pytest.raises(ValidationError, match="só termina depois do prazo"):
        crc.end(actor=None, sanction=sanction, cure_proof="Rastreadores instalados", on=today, reason="fim")
    assert sanction.ends_on is not None
    after = sanction.ends_on + dt.timedelta(days=1)
    with pytest.raises(ValidationError, match="comprovação de que a irregularidade foi sanada"):
        crc.end(actor=None, sanction=sanction, cure_proof=" ", on=after, reason="fim")
    ended = crc.end(
        actor=None, sanction=sanction, cure_proof="Rastreadores instalados", on=after, reason="fim"
    )
    assert ended.status == Sanction.Status.ENDED and ended.cure_proof == "Rastreadores instalados"


def test_a_crc_sanction_is_refused_where_the_law_has_no_crc(world: Any) -> None:
    notice = InfractionNotice.objects.create(
        jurisdiction=world.a,
        number="AI-CRC-1",
        drawn_up_at=at("2025-06-02"),
        infraction_code="G2-a",
        offender_kind="permit_holder",
        holder=world.objects["recife"]["registry.holder"],
        penalty={"penalties": [{"type": "fine", "amount": "100.00"}]},
    )
    assert crc.choices("recife", dt.date(2025, 6, 2)) == []
    with pytest.raises(ValidationError, match="não tem cadastro de fretamento"):
        decisions.resulting_penalty(notice, "changed", {"penalties": [{"type": "crc_suspension"}]})
