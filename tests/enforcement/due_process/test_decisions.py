"""Decisions and finality, law by law (due_process/decisions.py, settle.py): Recife's two instances,
Maricá's appeal after paying and its authority by penalty, Pernambuco's annulment (no history),
Cabo's finality when the appeal deadline passes, the decision's service, Esteio's fine suspended
while the CIP has not judged."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.enforcement.due_process import decisions, filings, judging, settle
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import (
    Decision,
    Filing,
    Fine,
    InfractionNotice,
)
from lotacao.enforcement.notices.penalty import offender_history
from tests.enforcement.conftest import make_jurisdiction
from tests.enforcement.due_process.process_helpers import (
    _members,
    _moment,
    _notice,
)

pytestmark = pytest.mark.django_db


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


def _marica_fine_notice(j: Any, served: dt.date) -> InfractionNotice:
    return _notice(
        j,
        served=served,
        day=(served - dt.timedelta(days=3)).isoformat(),
        penalty={"penalties": [{"type": "fine", "units": "1", "unit": "UFIMA"}]},
    )


def _appeal(notice: InfractionNotice, on: dt.date) -> Filing:
    return filings.file_defense(
        actor=None, notice=notice, text="R", channel="counter", reason="x", filed_at=_moment(on)
    )


def _paid(j: Any, notice: InfractionNotice, on: dt.date) -> Fine:
    return Fine.objects.create(
        jurisdiction=j, notice=notice, payer_name="X", units=1, unit="UFIMA", status="paid", paid_on=on
    )


def test_marica_appeal_filed_before_paying_is_judged_once_the_fine_is_paid(world: Any) -> None:
    # Art. 70, p.ú., read with art. 75: "aceito" = admitted for judgment. The appeal filed in its 5
    # business days before paying is recorded and waits; paid within the 30 days, it is judged.
    j = make_jurisdiction("marica")
    notice = _marica_fine_notice(j, dt.date(2025, 5, 5))
    filing = _appeal(notice, dt.date(2025, 5, 8))
    assert filing.due_on == dt.date(2025, 5, 12)  # 5 business days (art. 70)
    assert not filing.late and "deserção" in filing.due_explanation and "art. 75" in filing.due_explanation
    assert filing.body is not None and not filing.body.collegiate and filing.body.key == "transport_head"
    with pytest.raises(ValidationError, match="não há sessões"):
        judging.schedule_session(actor=None, body=filing.body, held_on=dt.date(2025, 5, 20), reason="c")
    _paid(j, notice, dt.date(2025, 5, 20))  # within 30 days of the penalty
    decision = decisions.decide(
        actor=None, filing=filing, outcome="upheld", reasons="Mantida.", decided_on=dt.date(2025, 5, 22)
    )
    assert decision.final


def test_marica_appeal_waits_for_the_payment_then_is_deserted(world: Any) -> None:
    from tests import clock

    j = make_jurisdiction("marica")
    today = clock.today()
    recent = _marica_fine_notice(j, today - dt.timedelta(days=2))
    waiting = _appeal(recent, today - dt.timedelta(days=1))
    with pytest.raises(ValidationError, match="aguarda o pagamento da multa"):
        decisions.decide(actor=None, filing=waiting, outcome="upheld", reasons="M.", decided_on=today)
    old = _marica_fine_notice(j, today - dt.timedelta(days=60))
    deserted = _appeal(old, today - dt.timedelta(days=59))
    assert not deserted.late
    with pytest.raises(ValidationError, match=r"deserção.*art\. 75"):
        decisions.decide(actor=None, filing=deserted, outcome="upheld", reasons="M.", decided_on=today)
    decision = decisions.decide(
        actor=None, filing=deserted, outcome="not_known", reasons="Deserto: multa não paga.", decided_on=today
    )
    assert decision.outcome == Decision.Outcome.NOT_KNOWN


def test_marica_the_agency_may_refuse_before_payment_or_waive_it(world: Any) -> None:
    # Súmula Vinculante 21 weighs against a prior payment: the reading is the agency's value.
    from lotacao.web.agency_values import set_agency_value

    j = make_jurisdiction("marica")
    notice = _marica_fine_notice(j, dt.date(2025, 5, 5))
    for reading in ("refuse_until_paid", "not_required"):
        set_agency_value(
            actor=None,
            jurisdiction=j,
            parameter="process.appeal_payment",
            valid_from=dt.date(2025, 1, 1) if reading == "refuse_until_paid" else dt.date(2025, 1, 2),
            value=reading,
            cite="Portaria de teste",
            reason="t",
        )
        if reading == "refuse_until_paid":
            with pytest.raises(ValidationError, match=r"só pode ser aceito depois do pagamento"):
                _appeal(notice, dt.date(2025, 5, 8))
            assert not Filing.objects.filter(notice=notice).exists()
    filing = _appeal(notice, dt.date(2025, 5, 8))
    assert "deserção" not in filing.due_explanation
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


def test_cabo_penalty_becomes_final_when_the_appeal_deadline_passes(world: Any) -> None:
    """Cabo (art. 29): nothing lapses while the Council has not applied the penalty; the 10 days
    run from the notification of its application."""
    j = make_jurisdiction("cabo")
    notice = _notice(
        j, served=dt.date(2025, 5, 5), day="2025-05-02", penalty={"penalties": [{"type": "warning"}]}
    )
    assert settle.settle_due_process(today=dt.date(2025, 5, 30)).lapsed == []
    applied = Decision.objects.create(
        jurisdiction=j,
        notice=notice,
        instance="application",
        decided_on=dt.date(2025, 6, 2),
        outcome="upheld",
        reasons="Penalidade aplicada pelo Conselho.",
        penalty=notice.penalty,
    )
    decisions.record_decision_service(actor=None, decision=applied, served_on=dt.date(2025, 6, 3))
    assert settle.settle_due_process(today=dt.date(2025, 6, 13)).final == []  # 10 days: 13/06
    result = settle.settle_due_process(today=dt.date(2025, 6, 14))
    assert result.final == [notice.number]
    notice.refresh_from_db()
    applied.refresh_from_db()
    assert notice.status == InfractionNotice.Status.DECIDED_FINAL
    assert applied.final and applied.final_on == dt.date(2025, 6, 14)
    with pytest.raises(ValidationError, match="decisão definitiva"):
        filings.file_defense(actor=None, notice=notice, text="R", channel="counter", reason="x")
    # a second run changes nothing
    assert settle.settle_due_process(today=dt.date(2025, 6, 17)).final == []


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
