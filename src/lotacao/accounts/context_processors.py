from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def tenancy(request: HttpRequest) -> dict[str, Any]:
    return {"access": getattr(request, "access", None)}
