"""Public endpoints: no authentication, no personal data."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from ninja import Router
from ninja.errors import HttpError

from lotacao.chartering.selectors import public_companies
from lotacao.public.selectors import vehicle_status

router = Router(tags=["público"], auth=None)


@router.get("/vehicles/{plate}")
def public_vehicle(request: HttpRequest, plate: str) -> Any:
    """Is this vehicle authorized? Permit number, line, seal validity — never personal data."""
    result = vehicle_status(plate)
    if not result["valid_plate"]:
        raise HttpError(422, result["error"])
    return result


@router.get("/chartering/companies")
def chartering_companies(request: HttpRequest, jurisdiction: str | None = None) -> Any:
    """The register of chartering companies with a CRC: cnpj, name (trade name), crc_status
    (valid, suspended, cancelled, expired), modalities and valid_until — no personal data."""
    keys = ("cnpj", "name", "crc_status", "modalities", "valid_until", "crc_number", "jurisdiction")
    return [{k: row[k] for k in keys} for row in public_companies(timezone.localdate(), jurisdiction)]
