"""Objects the shared test `world` needs for the rosters URLs (tests/conftest.py): in each
jurisdiction a roster of the world's line with one row, and a duty log of the holder (created
directly: the URL tests need a row, not the procedure's checks)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.rosters.models import DutyLog, Roster, RosterEntry


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        roster = Roster.objects.create(
            jurisdiction=jurisdiction, line=objects["registry.line"], starts_on=today, citation="teste"
        )
        entry = RosterEntry.objects.create(
            jurisdiction=jurisdiction,
            roster=roster,
            vehicle=objects["registry.vehicle"],
            driver=objects["registry.person"],
            weekdays="12345",
            starts_at=dt.time(6),
            ends_at=dt.time(12),
        )
        log = DutyLog.objects.create(
            jurisdiction=jurisdiction,
            holder=objects["registry.holder"],
            vehicle=objects["registry.vehicle"],
            driver=objects["registry.person"],
            role=DutyLog.Role.HOLDER,
            day=today,
            periods=[{"start": "06:00", "end": "12:00"}],
            driving_minutes=360,
        )
        objects["rosters.roster"] = roster
        objects["rosters.rosterentry"] = entry
        objects["rosters.dutylog"] = log
