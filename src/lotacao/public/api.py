"""Public endpoints: no authentication, no personal data."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router
from ninja.errors import HttpError

from lotacao.public.selectors import vehicle_status

router = Router(tags=["público"], auth=None)


@router.get("/vehicles/{plate}")
def public_vehicle(request: HttpRequest, plate: str) -> Any:
    """Is this vehicle authorized? Permit number, line, seal validity — never personal data."""
    result = vehicle_status(plate)
    if not result["valid_plate"]:
        raise HttpError(422, result["error"])
    return result
