"""API authentication: a bearer token, or the browser session (with CSRF), same scope as screens."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer, SessionAuth

from lotacao.accounts.middleware import activate_access
from lotacao.accounts.tokens import user_for_token


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = user_for_token(token)
        if user is None:
            return None
        request.user = user
        activate_access(request, user)
        return user


class StaffOrHolderSession(SessionAuth):
    """The signed-in session; its scope was activated by TenancyMiddleware."""


AUTH = [BearerToken(), StaffOrHolderSession()]
