"""Esteio's CIP (due_process/judging.py): its deadline, members, quorum, votes by simple majority with
the president only breaking ties, diligences first and watched for four sessions."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.enforcement.due_process import decisions, filings, judging, minutes, settle
from lotacao.enforcement.models import (
    Decision,
    Session,
)
from tests.enforcement.due_process.process_helpers import (
    _members,
    _moment,
    _notice,
)

pytestmark = pytest.mark.django_db


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
        decisions.decide(
            **kwargs, votes={president: "annul", m1: "uphold", m2: "uphold", m3: "annul", m4: "uphold"}
        )
    with pytest.raises(ValidationError, match="Falta o voto de Membro 4"):
        decisions.decide(**kwargs, votes={m1: "uphold", m2: "uphold", m3: "annul"})
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
    minutes.generate(actor=None, session=first)
    minutes.sign(actor=None, session=first)
    judging.close_session(actor=None, session=first)
    sessions = []
    for n in range(4):
        s = judging.schedule_session(
            actor=None, body=first.body, held_on=dt.date(2025, 4, 8 + 7 * n), reason="c"
        )
        sessions.append(s)
    items = judging.build_agenda(actor=None, session=sessions[0])
    assert items[0].filing == second_filing and items[0].priority  # diligence first (art. 25 § 4º)
    assert not [i for i in settle.pending_items(dt.date(2025, 5, 1)) if i.kind == settle.DILIGENCE_KIND]
    for s in sessions:
        judging.open_session(actor=None, session=s, present=cip["members"][:3], reason="Abertura")
        minutes.generate(actor=None, session=s)
        minutes.sign(actor=None, session=s)
        judging.close_session(actor=None, session=s)
    overdue = [i for i in settle.pending_items(dt.date(2025, 5, 1)) if i.kind == settle.DILIGENCE_KIND]
    assert len(overdue) == 1 and "até 4" in overdue[0].title
