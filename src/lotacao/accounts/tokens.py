"""API tokens: created once (the secret is shown only then), stored as SHA-256, revocable."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.utils import timezone

from lotacao.accounts.models import ApiToken, User
from lotacao.audit.services import record

PREFIX = "ltc_"


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_token(*, actor: Any, user: User, label: str, scope: str = "", jurisdiction: Any = None) -> str:
    """A token for the whole API (as the user's screens), or a scoped one (`pix_webhook`) bound
    to one jurisdiction that opens only that door."""
    if bool(scope) != (jurisdiction is not None):
        raise ValueError("a scoped token needs its jurisdiction, and only a scoped one has it")
    key = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, label=label, key_hash=_hash(key), scope=scope, jurisdiction=jurisdiction
    )
    record(actor=actor, action="api_token.created", instance=token, reason=f"Token de API: {label}")
    return key


def scoped_token(key: str, scope: str) -> ApiToken | None:
    """The live token of `key` if it was made for `scope` ("" is the whole API)."""
    if not key.startswith(PREFIX):
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=_hash(key), revoked_at__isnull=True, scope=scope)
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token


def user_for_token(key: str) -> User | None:
    """The user of a whole-API token (a scoped token opens nothing else)."""
    token = scoped_token(key, "")
    return token.user if token is not None else None
