"""Context processor: `govbr_enabled`, so the sign-in page shows "Entrar com gov.br" only when the
installation configured it (web's templates include govbr's without importing it)."""

from __future__ import annotations

from typing import Any

from lotacao.govbr.client import enabled


def govbr(request: Any) -> dict[str, Any]:
    return {"govbr_enabled": enabled()}
