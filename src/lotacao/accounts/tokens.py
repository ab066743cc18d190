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


def create_token(*, actor: Any, user: User, label: str) -> str:
    key = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, label=label, key_hash=_hash(key))
    record(actor=actor, action="api_token.created", instance=token, reason=f"Token de API: {label}")
    return key


def user_for_token(key: str) -> User | None:
    if not key.startswith(PREFIX):
        return None
    token = (
        ApiToken.objects.select_related("user").filter(key_hash=_hash(key), revoked_at__isnull=True).first()
    )
    if token is None or not token.user.is_active:
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token.user
