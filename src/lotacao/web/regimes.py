"""Which regimes the signed-in user's laws have, read from the packs (never from a name):
permits (and with them lines, auxiliary drivers and fare collectors) where a pack has
`permit.term`; chartering where it has `chartering.modalities`. Menus and the home page show what
the law regulates."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from lotacao.chartering.rules import regulates_chartering
from lotacao.core.vehicle_verdict import has_permits


def regimes(request: HttpRequest) -> dict[str, Any]:
    access = getattr(request, "access", None)
    if access is None:
        return {"regimes": {"permits": False, "chartering": False}}
    codes = list(access.jurisdictions)
    if access.operator:
        from lotacao.core.models import Jurisdiction

        codes = list(Jurisdiction.unscoped.filter(active=True).values_list("code", flat=True))
    return {
        "regimes": {
            "permits": any(has_permits(c) for c in codes) or not codes,
            "chartering": any(regulates_chartering(c) for c in codes),
        }
    }
