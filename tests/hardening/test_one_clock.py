"""One clock for the tests (tests/clock.py): no test reads the machine's date, none fixes today at
import time. The application's "today" is the local date of TIME_ZONE (America/Recife); a test
that reads `date.today()` (UTC on the CI machine) fails every evening from 21:00, and one that
computes `TODAY` at import fails after local midnight."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from django.utils import timezone

from tests import clock

TESTS = Path(__file__).resolve().parents[1]
MACHINE_DATE = re.compile(r"\b(?:dt\.|datetime\.)?date\.today\(\)|datetime\.(?:now|utcnow)\(\)")
AT_IMPORT = re.compile(
    r"^[A-Z_][A-Z0-9_]* *(?::[^=]+)?= *.*(?:localdate\(\)|timezone\.now\(\)|today\(\))", re.M
)


def _sources() -> list[Path]:
    return [p for p in TESTS.rglob("*.py") if p.name not in (Path(__file__).name, "clock.py")]


def test_no_test_reads_the_machines_date() -> None:
    found = [
        f"{path.relative_to(TESTS)}:{n}"
        for path in _sources()
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if MACHINE_DATE.search(line) and not line.lstrip().startswith("#")
    ]
    assert not found, "use tests.clock.today() (the local date), not the machine's: " + ", ".join(found)


def test_no_test_fixes_today_at_import_time() -> None:
    found = [
        f"{path.relative_to(TESTS)}: {match.group(0)}"
        for path in _sources()
        for match in AT_IMPORT.finditer(path.read_text())
    ]
    assert not found, "read tests.clock.today() inside the test, not at import: " + ", ".join(found)


def test_the_clock_is_the_local_date_read_when_asked(settings: object) -> None:
    assert clock.today() == timezone.localdate()
    assert clock.days_from_today(-1) == timezone.localdate() - dt.timedelta(days=1)
    # 23:30 in Recife is already tomorrow in UTC: the clock follows TIME_ZONE, not UTC.
    late = dt.datetime(2025, 6, 16, 2, 30, tzinfo=dt.UTC)
    assert timezone.localdate(late) == dt.date(2025, 6, 15)
