"""The demo: Recife and Cabo have an approved roster on a line; Recife and Esteio duty logs, one
above the limit (Esteio's suggesting III-16); a second run adds nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command

from lotacao.rosters.models import DutyLog, Roster


def test_the_demo_has_rosters_and_duty_logs(db: Any) -> None:
    call_command("load_demo", stdout=StringIO())
    for code in ("recife", "cabo"):
        assert Roster.unscoped.filter(jurisdiction_id=code, status="approved").exists(), code
    for code in ("esteio", "marica", "pernambuco"):
        assert not Roster.unscoped.filter(jurisdiction_id=code).exists(), code
    assert DutyLog.unscoped.filter(jurisdiction_id="recife", within_limits=False).exists()
    esteio = DutyLog.unscoped.get(jurisdiction_id="esteio", within_limits=False)
    assert [i["code"] for i in esteio.suggested_infractions] == ["III-16"]
    before = (Roster.unscoped.count(), DutyLog.unscoped.count())
    call_command("load_demo", stdout=StringIO())
    assert (Roster.unscoped.count(), DutyLog.unscoped.count()) == before
