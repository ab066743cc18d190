"""One clock for the tests: the agency's local date (America/Recife, `TIME_ZONE`), read when a test
asks for it — never at import time, never the machine's (UTC) date.

A module-level `TODAY = dt.date.today()` was wrong twice: in UTC it is already tomorrow in Recife
from 21:00, and fixed at import it is yesterday for a test that runs after local midnight. The
application reads `timezone.localdate()` when it works; so does this. `tests/hardening` checks
that no test goes back to either.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone


def today() -> dt.date:
    """The local date now, as the application sees it."""
    return timezone.localdate()


def days_from_today(days: int) -> dt.date:
    """`days` after today (before, when negative)."""
    return today() + dt.timedelta(days=days)
