"""What the public may know about a vehicle: authorized or not, permit number, line, seal validity.

No personal data of anyone (no name, CPF or CNPJ) ever leaves this module. Each app that knows
part of the answer provides `public_vehicle_info(vehicle, on) -> dict` through the seam of that
name (lotacao.core.providers); this module merges them (permits: permit number, line, status;
inspections: seal validity; enforcement: measures and effects in force; chartering: the company,
its CRC status and modalities — a company's CNPJ and trade name are public).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.core import providers
from lotacao.core.law import pack_for
from lotacao.core.validators import normalize_plate
from lotacao.lines import selectors as lines_selectors
from lotacao.registry.models import Vehicle

PUBLIC_KEYS = {
    "authorized",
    "permit_number",
    "permit_status",
    "permit_valid_until",
    "line_code",
    "line_name",
    "seal_valid_until",
    "insurance_valid_until",
    "reasons",
    "company_name",
    "company_cnpj",
    "crc_status",
    "crc_valid_until",
    "modalities",
}
# The provider that answers whether a vehicle holds a permit is asked only where the law has
# permits (`permit.term` in the pack); elsewhere another regime (chartering's CRC) authorizes.
PERMIT_PROVIDER = "permits"
PERMIT_REGIME = "permit.term"


def clean_plate(raw: str) -> str:
    return normalize_plate(re.sub(r"[^A-Za-z0-9]", "", raw or ""))


def vehicle_status(raw_plate: str, on: dt.date | None = None) -> dict[str, Any]:
    """The public status of a plate in every jurisdiction where it is registered."""
    day = on or timezone.localdate()
    try:
        plate = clean_plate(raw_plate)
    except ValidationError as error:
        return {
            "plate": (raw_plate or "").upper(),
            "valid_plate": False,
            "error": error.messages[0],
            "records": [],
        }
    records = []
    vehicles = Vehicle.unscoped.filter(plate=plate).select_related("jurisdiction")
    for vehicle in vehicles:
        info: dict[str, Any] = {}
        verdicts: list[bool] = []
        reasons: list[str] = []
        has_permits = pack_for(vehicle.jurisdiction_id).has(PERMIT_REGIME)
        for name, provider in providers.providers("public_vehicle_info"):
            if name == PERMIT_PROVIDER and not has_permits:
                continue
            part = dict(provider(vehicle, day))
            if "authorized" in part:
                verdicts.append(bool(part.pop("authorized")))
            reasons.extend(part.pop("reasons", []))
            info.update(part)
        # Authorized only when some provider (the permit) says so and none finds a legal bar.
        info["authorized"] = bool(verdicts) and all(verdicts)
        info["reasons"] = reasons
        if vehicle.deregistered_on and vehicle.deregistered_on <= day:
            info["authorized"] = False
            info["reasons"].append("Veículo baixado do serviço.")
        record = {k: v for k, v in info.items() if k in PUBLIC_KEYS}
        record["line_public"] = lines_selectors.public_line_exists(
            vehicle.jurisdiction_id, info.get("line_code"), day
        )
        record.update(
            jurisdiction=vehicle.jurisdiction_id,
            jurisdiction_name=vehicle.jurisdiction.name,
            agency=vehicle.jurisdiction.official_name,
            category=vehicle.get_category_display(),
            manufacture_year=vehicle.manufacture_year,
        )
        records.append(record)
    return {"plate": plate, "valid_plate": True, "checked_on": day.isoformat(), "records": records}
