"""Login throttling per address across user names, on top of django-axes' per user and address.

django-axes counts failures per lockout parameter and applies one limit to all of them, so "5
failures of one user name from one address" and "20 failures of any user names from one address"
cannot both be written in its settings. `AddressAwareHandler` keeps axes' own count (user name and
address, `AXES_FAILURE_LIMIT`) and adds the address's failures within the cool-off, scaled so that
`LOTACAO_LOGIN_ADDRESS_FAILURE_LIMIT` of them (20 by default) reach the same limit: someone trying
25 user names from one address is locked out of every user name there, while a clerk who mistypes
a password behind the agency's shared address does not lock out the office.
"""

from __future__ import annotations

import math
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest
from django.utils import timezone

DEFAULT_ADDRESS_LIMIT = 20


def address_failure_limit() -> int:
    return int(getattr(settings, "LOTACAO_LOGIN_ADDRESS_FAILURE_LIMIT", DEFAULT_ADDRESS_LIMIT))


class AddressAwareHandler(AxesDatabaseHandler):  # type: ignore[misc]
    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        per_user: int = super().get_failures(request, credentials)
        address = getattr(request, "axes_ip_address", None)
        if not address:
            return per_user
        attempts = AccessAttempt.objects.filter(ip_address=address)
        cool_off = get_cool_off(request)
        if cool_off is not None:
            attempts = attempts.filter(attempt_time__gte=timezone.now() - cool_off)
        total = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
        limit = int(get_failure_limit(request, credentials))
        # `address_failure_limit()` failures from the address count as `limit` for the user name.
        scaled = math.floor(total * limit / max(address_failure_limit(), 1))
        return max(per_user, scaled)
