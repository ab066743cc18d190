"""Due process: filing against the engine's deadline (late filings recorded and flagged), the
instances of each law, judging bodies (members, quorum, votes, the president's tie-break,
diligences first), decisions, and finality (only final decisions count as history)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from lotacao.audit.models import AuditEvent
from lotacao.enforcement.due_process import decisions, filings, judging, settle
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import (
    BodyMember,
    Decision,
    Filing,
    Fine,
    InfractionNotice,
    JudgingBody,
    Session,
)
from lotacao.enforcement.notices.penalty import offender_history
from tests.enforcement.conftest import at, make_jurisdiction

pytestmark = pytest.mark.django_db
FINE = {"penalties": [{"type": "fine", "amount": "100.00"}], "measures": []}


def _notice(
    j: Any, *, served: dt.date | None, day: str, penalty: dict[str, Any] | None = None, **over: Any
) -> Any:
    data: dict[str, Any] = {
        "jurisdiction": j,
        "number": f"AI-P-{j.code}-{InfractionNotice.unscoped.count() + 1}",
        "drawn_up_at": at(day),
        "infraction_code": "teste",
        "offender_kind": "permit_holder",
        "penalty": penalty if penalty is not None else FINE,
        "served_on": served,
        "status": InfractionNotice.Status.NOTIFIED if served else InfractionNotice.Status.DRAWN_UP,
    }
    data.update(over)
    return InfractionNotice.objects.create(**data)


def _moment(day: dt.date, hour: int = 11) -> dt.datetime:
    return at(day.isoformat(), hour)


def _members(body: JudgingBody, names: list[str], on: dt.date) -> list[BodyMember]:
    out = []
    for i, name in enumerate(names):
        role = BodyMember.Role.PRESIDENT if i == 0 else BodyMember.Role.MEMBER
        out.append(
            judging.add_member(actor=None, body=body, name=name, role=role, starts_on=on, reason="Portaria 1")
        )
    return out


# ------------------------------------------------------------------------------------- deadlines


def test_recife_defense_deadline_counts_from_the_first_business_day_after_service(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")  # Friday
    stage = current_stage(notice, dt.date(2025, 5, 10))
    assert stage.instance is not None and stage.instance["id"] == "defense"
    # day 1 = Monday 12/05; 30 days → 10/06 (Tuesday)
    assert stage.due == dt.date(2025, 6, 10)
    assert any("art. 41" in c for c in stage.citations)


def test_a_filing_in_time_gets_a_receipt_and_is_audited(world: Any) -> None:
    notice = _notice(
        world.a,
        served=dt.date(2025, 5, 9),
        day="2025-05-05",
        holder=world.objects["recife"]["registry.holder"],
    )
    pdf = SimpleUploadedFile("defesa.pdf", b"%PDF-1.4\n%test\n", content_type="application/pdf")
    filing = filings.file_defense(
        actor=world.users["atendente.recife"],
        notice=notice,
        text="O veículo estava em manutenção.",
        channel=Filing.Channel.COUNTER,
        reason="Protocolo no órgão",
        filed_at=_moment(dt.date(2025, 6, 2)),
        attachments=[pdf],
    )
    assert filing.receipt == f"{notice.number}/DEF-1"
    assert not filing.late and filing.due_on == dt.date(2025, 6, 10)
    assert filing.body is not None and filing.body.key == "cdtc"
    assert filing.attachments.get().content_type == "application/pdf"
    assert AuditEvent.objects.filter(action="enforcement.filing_recorded").count() == 1


def test_a_late_filing_is_recorded_and_flagged_with_the_deadline_and_article(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="Razões",
        channel=Filing.Channel.COUNTER,
        reason="Protocolo",
        filed_at=_moment(dt.date(2025, 6, 11)),
    )
    assert filing.late
    assert "10/06/2025" in filing.due_explanation and "art. 41" in filing.due_explanation
    assert AuditEvent.objects.filter(action="enforcement.filing_late").count() == 1


@pytest.mark.parametrize(
    ("text", "attachment", "message"),
    [
        ("  ", None, "razões"),
        (
            "Razões",
            SimpleUploadedFile("x.exe", b"MZ\x90\x00", content_type="application/pdf"),
            "PDF, PNG ou JPEG",
        ),
        ("Razões", SimpleUploadedFile("vazio.pdf", b"", content_type="application/pdf"), "vazio"),
    ],
)
def test_bad_filings_are_refused_and_change_nothing(
    world: Any, text: str, attachment: Any, message: str
) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    with pytest.raises(ValidationError, match=message):
        filings.file_defense(
            actor=None,
            notice=notice,
            text=text,
            channel=Filing.Channel.COUNTER,
            reason="x",
            filed_at=_moment(dt.date(2025, 6, 2)),
            attachments=[attachment] if attachment else [],
        )
    assert not Filing.unscoped.filter(notice=notice).exists()


def test_a_second_filing_at_the_same_instance_is_refused(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    kwargs = {"actor": None, "notice": notice, "text": "R", "channel": "counter", "reason": "x"}
    filings.file_defense(**kwargs, filed_at=_moment(dt.date(2025, 6, 2)))
    with pytest.raises(ValidationError, match="aguardando julgamento"):
        filings.file_defense(**kwargs, filed_at=_moment(dt.date(2025, 6, 3)))


def test_an_archived_notice_takes_no_filing(world: Any) -> None:
    notice = _notice(world.a, served=None, day="2025-05-05", status=InfractionNotice.Status.ARCHIVED)
    with pytest.raises(ValidationError, match="arquivado"):
        filings.file_defense(actor=None, notice=notice, text="R", channel="counter", reason="x")


# ------------------------------------------------------------------- Recife: CDTC, then the CRA


def test_recife_defense_rejected_then_appeal_deadline_from_the_decision_notice(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 6, 2)),
    )
    body = filing.body
    assert body is not None and body.collegiate
    members = _members(body, ["Ana", "Bruno", "Carla"], dt.date(2025, 1, 1))
    assert members[0].ends_on == dt.date(2025, 12, 31)  # one-year mandate (art. 39 § 3º)
    session = judging.schedule_session(
        actor=None, body=body, held_on=dt.date(2025, 6, 20), reason="Convocação"
    )
    with pytest.raises(ValidationError, match="Abra a sessão"):
        decisions.decide(
            actor=None,
            filing=filing,
            session=session,
            outcome="upheld",
            reasons="R",
            decided_on=dt.date(2025, 6, 20),
        )
    judging.open_session(actor=None, session=session, present=members, reason="Abertura")
    decision = decisions.decide(
        actor=None,
        filing=filing,
        session=session,
        outcome="upheld",
        reasons="Sem prova do alegado.",
        decided_on=dt.date(2025, 6, 20),
    )
    assert not decision.final  # the CRA remains
    assert decision.notify_due == dt.date(2025, 7, 7)  # 15 days (art. 42, par. único); 05/07 is a Saturday
    stage = current_stage(notice, dt.date(2025, 6, 21))
    assert stage.instance is not None and stage.instance["id"] == "appeal" and stage.due is None
    decisions.record_decision_service(actor=None, decision=decision, served_on=dt.date(2025, 6, 25))
    stage = current_stage(notice, dt.date(2025, 6, 26))
    assert stage.due == dt.date(2025, 7, 10)  # 15 days from the AR (art. 43)
    # nothing filed: the day after the deadline the decision is final and the notice counts
    assert settle.settle_due_process(today=dt.date(2025, 7, 10)).final == []
    result = settle.settle_due_process(today=dt.date(2025, 7, 11))
    assert result.final == [notice.number]
    decision.refresh_from_db()
    notice.refresh_from_db()
    assert decision.final and decision.final_on == dt.date(2025, 7, 11)
    assert notice.status == InfractionNotice.Status.DECIDED_FINAL


def test_recife_cdtc_has_no_quorum_in_the_law_and_takes_the_proclaimed_result(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 6, 2)),
    )
    assert filing.body is not None
    member = _members(filing.body, ["Ana"], dt.date(2025, 1, 1))
    session = judging.schedule_session(actor=None, body=filing.body, held_on=dt.date(2025, 6, 20), reason="c")
    judging.open_session(actor=None, session=session, present=member, reason="Abertura")
    decision = decisions.decide(
        actor=None,
        filing=filing,
        session=session,
        outcome="annulled",
        reasons="Auto sem assinatura.",
        decided_on=dt.date(2025, 6, 20),
    )
    notice.refresh_from_db()
    assert decision.final and notice.status == InfractionNotice.Status.ANNULLED
    assert decision.notify_due is None  # art. 42, par. único: only a rejected defense


def test_recife_late_defense_can_only_be_declared_late(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 6, 12)),
    )
    assert filing.body is not None
    member = _members(filing.body, ["Ana"], dt.date(2025, 1, 1))
    session = judging.schedule_session(actor=None, body=filing.body, held_on=dt.date(2025, 6, 20), reason="c")
    judging.open_session(actor=None, session=session, present=member, reason="Abertura")
    with pytest.raises(ValidationError, match="intempestividade"):
        decisions.decide(
            actor=None,
            filing=filing,
            session=session,
            outcome="annulled",
            reasons="R",
            decided_on=dt.date(2025, 6, 20),
        )
    decision = decisions.decide(
        actor=None,
        filing=filing,
        session=session,
        outcome="not_known",
        reasons="Intempestiva.",
        decided_on=dt.date(2025, 6, 20),
    )
    assert "10/06/2025" in decision.reasons
    filing.refresh_from_db()
    assert filing.status == Filing.Status.NOT_KNOWN


# ------------------------------------------------------------------------- Esteio: the CIP votes


@pytest.fixture
def cip(world: Any) -> dict[str, Any]:
    j = world.b
    notice = _notice(
        j,
        served=dt.date(2025, 3, 10),
        day="2025-03-03",
        penalty={"penalties": [{"type": "fine", "units": "50", "unit": "UFRM"}]},
    )
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 3, 20)),
    )
    assert filing.body is not None and filing.body.key == "cip"
    members = _members(
        filing.body, ["Presidente", "Membro 1", "Membro 2", "Membro 3", "Membro 4"], dt.date(2025, 1, 1)
    )
    session = judging.schedule_session(actor=None, body=filing.body, held_on=dt.date(2025, 4, 1), reason="c")
    return {"notice": notice, "filing": filing, "members": members, "session": session}


def test_esteio_cip_deadline_is_15_business_days(cip: dict[str, Any]) -> None:
    assert cip["filing"].due_on == dt.date(2025, 3, 31)
    assert "Anexo I, art. 20" in "; ".join(cip["filing"].citations)


def test_esteio_cip_has_five_members_at_most(cip: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="5 membros titulares"):
        judging.add_member(
            actor=None,
            body=cip["filing"].body,
            name="Sexto",
            role="member",
            starts_on=dt.date(2025, 1, 1),
            reason="x",
        )
    judging.add_member(
        actor=None,
        body=cip["filing"].body,
        name="Suplente",
        role="alternate",
        starts_on=dt.date(2025, 1, 1),
        reason="x",
    )


def test_esteio_cip_needs_three_present(cip: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="Sem quórum: presentes 2, a lei exige pelo menos 3"):
        judging.open_session(
            actor=None, session=cip["session"], present=cip["members"][:2], reason="Abertura"
        )
    cip["session"].refresh_from_db()
    assert cip["session"].status == Session.Status.SCHEDULED


def test_esteio_cip_votes_by_simple_majority_and_the_president_only_breaks_ties(cip: dict[str, Any]) -> None:
    president, m1, m2, m3, m4 = cip["members"]
    session = cip["session"]
    judging.open_session(actor=None, session=session, present=[president, m1, m2, m3, m4], reason="Abertura")
    kwargs = {
        "actor": None,
        "filing": cip["filing"],
        "session": session,
        "reasons": "R",
        "decided_on": dt.date(2025, 4, 1),
    }
    with pytest.raises(ValidationError, match="só vota para desempatar"):
        decisions.decide(**kwargs, votes={president: "annul", m1: "uphold", m2: "uphold", m3: "annul"})
    with pytest.raises(ValidationError, match="o presidente vota para desempatar"):
        decisions.decide(**kwargs, votes={m1: "uphold", m2: "uphold", m3: "annul", m4: "annul"})
    with pytest.raises(ValidationError, match="registre os votos"):
        decisions.decide(**kwargs, outcome="upheld")
    decision = decisions.decide(
        **kwargs, votes={president: "annul", m1: "uphold", m2: "uphold", m3: "annul", m4: "annul"}
    )
    assert decision.outcome == Decision.Outcome.ANNULLED
    assert decision.votes["tie_break"] and decision.votes["counts"] == {"uphold": 2, "annul": 3}
    assert decision.final  # the CIP is the only instance


def test_esteio_diligences_come_first_and_are_watched_for_four_sessions(cip: dict[str, Any]) -> None:
    first = cip["session"]
    later = _notice(first.body.jurisdiction, served=dt.date(2025, 3, 12), day="2025-03-04")
    second_filing = filings.file_defense(
        actor=None,
        notice=later,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 3, 21)),
    )
    judging.open_session(actor=None, session=first, present=cip["members"][:3], reason="Abertura")
    items = judging.build_agenda(actor=None, session=first)
    assert [i.filing for i in items] == [cip["filing"], second_filing]  # protocol order
    judging.request_diligence(actor=None, item=items[1], description="Ouvir o fiscal", reason="x")
    judging.close_session(actor=None, session=first, minutes="Ata")
    sessions = []
    for n in range(4):
        s = judging.schedule_session(
            actor=None, body=first.body, held_on=dt.date(2025, 4, 8 + 7 * n), reason="c"
        )
        sessions.append(s)
    items = judging.build_agenda(actor=None, session=sessions[0])
    assert items[0].filing == second_filing and items[0].priority  # diligence first (art. 25 § 4º)
    assert not list(settle.pending_items(dt.date(2025, 5, 1)))
    for s in sessions:
        judging.open_session(actor=None, session=s, present=cip["members"][:3], reason="Abertura")
        judging.close_session(actor=None, session=s)
    overdue = [i for i in settle.pending_items(dt.date(2025, 5, 1)) if i.kind == settle.DILIGENCE_KIND]
    assert len(overdue) == 1 and "até 4" in overdue[0].title


# ------------------------------------------------------------- Maricá: pay first, then appeal


def test_marica_appeal_against_a_fine_only_after_paying_it(world: Any) -> None:
    j = make_jurisdiction("marica")
    notice = _notice(
        j,
        served=dt.date(2025, 5, 5),
        day="2025-05-02",
        penalty={"penalties": [{"type": "fine", "units": "1", "unit": "UFIMA"}]},
    )
    kwargs = {
        "actor": None,
        "notice": notice,
        "text": "R",
        "channel": "counter",
        "reason": "x",
        "filed_at": _moment(dt.date(2025, 5, 8)),
    }
    with pytest.raises(ValidationError, match=r"art\. 70, parágrafo único"):
        filings.file_defense(**kwargs)
    Fine.objects.create(
        jurisdiction=j,
        notice=notice,
        payer_name="X",
        units=1,
        unit="UFIMA",
        status="paid",
        paid_on=dt.date(2025, 5, 7),
    )
    filing = filings.file_defense(**kwargs)
    assert filing.due_on == dt.date(2025, 5, 12)  # 5 business days (art. 70)
    assert filing.body is not None and not filing.body.collegiate and filing.body.key == "transport_head"
    with pytest.raises(ValidationError, match="não há sessões"):
        judging.schedule_session(actor=None, body=filing.body, held_on=dt.date(2025, 5, 20), reason="c")
    decision = decisions.decide(
        actor=None, filing=filing, outcome="upheld", reasons="Mantida.", decided_on=dt.date(2025, 5, 20)
    )
    assert decision.final


def test_marica_suspension_goes_to_the_ept_president_in_ten_business_days(world: Any) -> None:
    j = make_jurisdiction("marica")
    notice = _notice(
        j,
        served=dt.date(2025, 5, 5),
        day="2025-05-02",
        penalty={"penalties": [{"type": "suspension", "days": 15}]},
    )
    stage = current_stage(notice, dt.date(2025, 5, 6))
    assert stage.due == dt.date(2025, 5, 19)  # 10 business days (art. 71)
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 5, 9)),
    )
    assert filing.body is not None and filing.body.key == "ept_president"


# ------------------------------------------- Pernambuco: an annulled notice never counts later


def test_pernambuco_annulled_notice_does_not_count_as_history(world: Any) -> None:
    j = make_jurisdiction("pernambuco")
    first = _notice(
        j,
        served=dt.date(2025, 5, 5),
        day="2025-05-02",
        plate="ABC1D23",
        offender_kind="unlicensed",
        offender_document="12345678000195",
    )
    filing = filings.file_defense(
        actor=None,
        notice=first,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 5, 10)),
    )
    assert filing.due_on == dt.date(2025, 5, 20)
    decisions.decide(
        actor=None,
        filing=filing,
        outcome="annulled",
        reasons="Placa clonada.",
        decided_on=dt.date(2025, 5, 30),
    )
    later = _notice(
        j,
        served=None,
        day="2025-06-02",
        plate="ABC1D23",
        offender_kind="unlicensed",
        offender_document="12345678000195",
    )
    assert [h["status"] for h in offender_history(later)] == ["annulled"]


# --------------------------------------------------- Cabo: no appeal in time → final, counts


def test_cabo_penalty_becomes_final_when_the_appeal_deadline_passes(world: Any) -> None:
    j = make_jurisdiction("cabo")
    notice = _notice(
        j, served=dt.date(2025, 5, 5), day="2025-05-02", penalty={"penalties": [{"type": "warning"}]}
    )
    assert settle.settle_due_process(today=dt.date(2025, 5, 15)).lapsed == []
    result = settle.settle_due_process(today=dt.date(2025, 5, 16))
    assert result.lapsed == [notice.number]
    notice.refresh_from_db()
    decision = notice.decisions.get()
    assert notice.status == InfractionNotice.Status.DECIDED_FINAL
    assert decision.outcome == Decision.Outcome.LAPSED and decision.final
    assert "15/05/2025" in decision.reasons
    with pytest.raises(ValidationError, match="decisão definitiva"):
        filings.file_defense(actor=None, notice=notice, text="R", channel="counter", reason="x")
    # a second run changes nothing
    assert settle.settle_due_process(today=dt.date(2025, 5, 17)).lapsed == []


def test_decision_service_date_is_checked(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    decision = Decision.objects.create(
        jurisdiction=world.a,
        notice=notice,
        instance="defense",
        decided_on=dt.date(2025, 6, 1),
        outcome="upheld",
        reasons="R",
    )
    with pytest.raises(ValidationError, match="entre a decisão e hoje"):
        decisions.record_decision_service(actor=None, decision=decision, served_on=dt.date(2025, 5, 30))
    with pytest.raises(ValidationError, match="entre a decisão e hoje"):
        decisions.record_decision_service(
            actor=None, decision=decision, served_on=timezone.localdate() + dt.timedelta(days=1)
        )


def test_esteio_fine_is_suspended_the_day_after_its_due_date_if_the_cip_has_not_judged(world: Any) -> None:
    from lotacao.enforcement.sanctions import fines

    notice = _notice(
        world.b,
        served=dt.date(2025, 3, 10),
        day="2025-03-03",
        holder=world.objects["esteio"]["registry.holder"],
        penalty={"penalties": [{"type": "fine", "amount": "80.00"}]},
    )
    fine = fines.issue_fine(
        actor=None,
        notice=notice,
        reason="Lançamento",
        due_on=dt.date(2025, 4, 10),
        today=dt.date(2025, 3, 11),
    )
    assert fine is not None
    filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 3, 20)),
    )
    assert settle.settle_due_process(today=dt.date(2025, 4, 10)).fines == []
    assert settle.settle_due_process(today=dt.date(2025, 4, 11)).fines == [notice.number]
    fine.refresh_from_db()
    assert fine.status == Fine.Status.SUSPENDED  # Anexo I, art. 22 § 1º
