"""Recife art. 42 and art. 40, II: the CDTC has up to 30 days from receiving the defense to judge
it — a work item due that day while it waits — and a judgment after it is reviewed once: the delay
justified, or the members who missed it lose their mandate."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.enforcement.due_process import decisions, filings, judging, settle
from lotacao.enforcement.due_process.procedure import judgment_due
from tests.enforcement.due_process.process_helpers import _members, _moment, _notice

pytestmark = pytest.mark.django_db


def _judge(world: Any, filed: dt.date, held: dt.date) -> tuple[Any, Any, list[Any]]:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    filing = filings.file_defense(
        actor=None, notice=notice, text="R", channel="counter", reason="x", filed_at=_moment(filed)
    )
    assert filing.body is not None
    members = _members(filing.body, ["Ana", "Bruno", "Carla"], dt.date(2025, 1, 1))
    due, cites = judgment_due(filing)
    assert due == filed + dt.timedelta(days=30) and any("art. 42" in c for c in cites)
    items = [i for i in settle.judgment_items(filed) if i.key == f"filing:{filing.pk}"]
    assert len(items) == 1 and items[0].due_on == due and "art. 42" in items[0].title
    session = judging.schedule_session(actor=None, body=filing.body, held_on=held, reason="Convocação")
    judging.open_session(actor=None, session=session, present=members, reason="Abertura")
    decision = decisions.decide(
        actor=None, filing=filing, session=session, outcome="upheld", reasons="Mantida.", decided_on=held
    )
    assert not [i for i in settle.judgment_items(held) if i.key == f"filing:{filing.pk}"]
    return filing, decision, members


def test_a_judgment_in_the_30_days_leaves_nothing_to_review(world: Any) -> None:
    _filing, decision, members = _judge(world, dt.date(2025, 6, 2), dt.date(2025, 6, 20))
    assert not [i for i in settle.judgment_items(dt.date(2025, 6, 21)) if i.key == f"decision:{decision.pk}"]
    with pytest.raises(ValidationError, match="no prazo da lei"):
        judging.review_judgment_delay(actor=None, decision=decision, members_lost=members[1:], reason="r")


def test_a_late_judgment_without_justification_ends_the_mandates(world: Any) -> None:
    _filing, decision, members = _judge(world, dt.date(2025, 6, 2), dt.date(2025, 7, 10))
    review = [i for i in settle.judgment_items(dt.date(2025, 7, 11)) if i.key == f"decision:{decision.pk}"]
    assert len(review) == 1 and "art. 40, II" in review[0].title and "02/07/2025" in review[0].title
    with pytest.raises(ValidationError, match="não os dois"):
        judging.review_judgment_delay(actor=None, decision=decision, reason="r")
    judging.review_judgment_delay(
        actor=None,
        decision=decision,
        members_lost=members[1:2],
        reason="Sem justificativa",
        on=dt.date(2025, 7, 15),
    )
    members[1].refresh_from_db()
    members[2].refresh_from_db()
    assert members[1].ends_on == dt.date(2025, 7, 15) and members[2].ends_on == dt.date(2025, 12, 31)
    assert AuditEvent.objects.filter(action="enforcement.mandate_lost").count() == 2  # member + decision
    assert not [i for i in settle.judgment_items(dt.date(2025, 7, 16)) if i.key == f"decision:{decision.pk}"]
    with pytest.raises(ValidationError, match="já foi verificado"):
        judging.review_judgment_delay(actor=None, decision=decision, justification="x", reason="r")


def test_a_justified_delay_is_recorded_and_keeps_the_mandates(world: Any) -> None:
    _filing, decision, members = _judge(world, dt.date(2025, 6, 2), dt.date(2025, 7, 10))
    judging.review_judgment_delay(
        actor=None, decision=decision, justification="Diligência pericial pendente", reason="r"
    )
    decision.refresh_from_db()
    assert decision.mandate_reviewed and decision.delay_justification == "Diligência pericial pendente"
    assert all(m.ends_on == dt.date(2025, 12, 31) for m in members)


def test_a_body_without_a_judging_deadline_has_no_item(world: Any) -> None:
    notice = _notice(world.b, served=dt.date(2025, 5, 9), day="2025-05-05")
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 5, 12)),
    )
    assert judgment_due(filing) == (None, [])
    assert not [i for i in settle.judgment_items(dt.date(2025, 5, 12)) if i.key == f"filing:{filing.pk}"]
