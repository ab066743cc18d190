from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone

from lotacao.accounts.access import Access, access_for
from lotacao.core.tenancy import _current, scoped


def activate_access(request: HttpRequest, user: object) -> Access:
    """Switch the current request to `user`'s scope (API token authentication does this).

    TenancyMiddleware's `scoped()` restores the previous scope when the request ends.
    """
    access = access_for(user)
    request.access = access  # type: ignore[attr-defined]
    _current.set(access.scope)
    return access


class TenancyMiddleware:
    """Activate the signed-in user's scope for the whole request (see lotacao.core.tenancy)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        access = access_for(getattr(request, "user", None))
        request.access = access  # type: ignore[attr-defined]
        zone = _zone_for(access.jurisdictions)
        with scoped(access.scope):
            if zone:
                timezone.activate(zone)
            try:
                return self.get_response(request)
            finally:
                timezone.deactivate()


def _zone_for(jurisdictions: list[str]) -> str | None:
    if len(jurisdictions) != 1:
        return None
    from lotacao.core.models import Jurisdiction

    return Jurisdiction.unscoped.filter(pk=jurisdictions[0]).values_list("timezone", flat=True).first()


class IdleTimeoutMiddleware:
    """Sign out staff after STAFF_IDLE_TIMEOUT seconds without activity (holders: HOLDER_IDLE_TIMEOUT)."""

    KEY = "_last_activity"

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            access = request.access  # type: ignore[attr-defined]
            limit = settings.HOLDER_IDLE_TIMEOUT if access.is_holder else settings.STAFF_IDLE_TIMEOUT
            now = int(time.time())
            last = request.session.get(self.KEY)
            if last is not None and now - int(last) > limit:
                logout(request)
                from django.contrib import messages

                messages.info(request, "Sua sessão expirou por inatividade. Entre novamente.")
                return redirect(settings.LOGIN_URL)
            request.session[self.KEY] = now
        return self.get_response(request)


class PasswordChangeMiddleware:
    """A user signed in with a one-time password (`User.must_change_password`) reaches nothing but
    the password change and signing out until the password is changed; the API answers 403."""

    ALLOWED = ("accounts:password_change", "accounts:logout")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and getattr(user, "must_change_password", False):
            from django.urls import reverse

            allowed = {reverse(name) for name in self.ALLOWED}
            if request.path not in allowed and not request.path.startswith(settings.STATIC_URL or "/static/"):
                if request.path.startswith("/api/"):
                    from django.http import JsonResponse

                    return JsonResponse(
                        {
                            "type": "about:blank",
                            "title": "Troque a senha provisória",
                            "status": 403,
                            "detail": "Troque a senha provisória em /conta/senha/ antes de usar o sistema.",
                        },
                        status=403,
                        content_type="application/problem+json",
                    )
                return redirect(reverse("accounts:password_change"))
        return self.get_response(request)
