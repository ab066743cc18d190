"""Rate limits of the public ombudsman (filing and following), counted in Django's shared cache.

`LOTACAO_COMPLAINT_RATE_LIMIT` (default "10/h") bounds the manifestations one client address may
file; `LOTACAO_COMPLAINT_FOLLOW_RATE_LIMIT` (default "30/m") the lookups by protocol and code, so
that guessing access codes is hopeless (32⁸ codes). django-ninja's throttle keeps the count; the
client's address is REMOTE_ADDR or, behind `LOTACAO_PROXY_COUNT` proxies, the address they
appended to X-Forwarded-For — the same rule as the plate check's limit.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.throttling import AnonRateThrottle


def _address(request: HttpRequest) -> str:
    proxies = int(getattr(settings, "LOTACAO_PROXY_COUNT", 0) or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return str(hops[-proxies] if len(hops) >= proxies else hops[0])
    return str(request.META.get("REMOTE_ADDR") or "")


class _Limit(AnonRateThrottle):
    setting = ""
    default = ""

    def __init__(self) -> None:
        super().__init__(str(getattr(settings, self.setting, self.default)))

    def allow_request(self, request: HttpRequest) -> bool:
        # the setting is read on every request (a deployment or a test may change it)
        self.rate = str(getattr(settings, self.setting, self.default))
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return bool(super().allow_request(request))

    def get_ident(self, request: HttpRequest) -> str:
        return _address(request)

    def get_cache_key(self, request: HttpRequest) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class FilingLimit(_Limit):
    scope = "complaint-file"
    setting = "LOTACAO_COMPLAINT_RATE_LIMIT"
    default = "10/h"


class FollowLimit(_Limit):
    scope = "complaint-follow"
    setting = "LOTACAO_COMPLAINT_FOLLOW_RATE_LIMIT"
    default = "30/m"


def over(limit: Any, request: HttpRequest) -> int | None:
    """None when the request may go on; otherwise the seconds to wait (a page's 429)."""
    if limit.allow_request(request):
        return None
    return max(1, int(limit.wait() or 60))
