"""The gov.br OpenID Connect client (authlib): configured from the LOTACAO_GOVBR_* settings.

Authorization code with PKCE (S256): authlib keeps the state, the nonce and the code verifier in
the session, checks the state on return, sends the verifier to the token endpoint and validates the
ID token (signature from the provider's keys, issuer, audience, expiry, nonce).
"""

from __future__ import annotations

from typing import Any

from authlib.integrations.django_client import OAuth
from django.conf import settings

NAME = "govbr"


def enabled() -> bool:
    return bool(
        (settings.LOTACAO_GOVBR_ISSUER or settings.LOTACAO_GOVBR_DISCOVERY_URL)
        and settings.LOTACAO_GOVBR_CLIENT_ID
        and settings.LOTACAO_GOVBR_CLIENT_SECRET
    )


def discovery_url() -> str:
    return (
        settings.LOTACAO_GOVBR_DISCOVERY_URL
        or f"{settings.LOTACAO_GOVBR_ISSUER}/.well-known/openid-configuration"
    )


def client() -> Any:
    """A client for this request (settings may change between tests; the metadata is small)."""
    oauth = OAuth()
    return oauth.register(
        name=NAME,
        client_id=settings.LOTACAO_GOVBR_CLIENT_ID,
        client_secret=settings.LOTACAO_GOVBR_CLIENT_SECRET,
        server_metadata_url=discovery_url(),
        client_kwargs={
            "scope": settings.LOTACAO_GOVBR_SCOPES,
            "code_challenge_method": "S256",
            "timeout": settings.LOTACAO_GOVBR_TIMEOUT,
        },
    )
