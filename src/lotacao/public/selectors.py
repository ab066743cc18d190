"""What the public may know about a vehicle: authorized or not, permit number, line, seal validity.

No personal data of anyone (no name, CPF or CNPJ) ever leaves this module. Each app that knows
part of the answer provides `public_vehicle_info(vehicle, on) -> dict` through the seam of that
name (lotacao.core.providers); this module merges them (permits: permit number, line, status;
inspections: seal validity; enforcement: measures and effects in force; chartering: the company,
its CRC status and modalities — a company's CNPJ and trade name are public).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.core.vehicle_verdict import clean_plate, merged_verdict
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
        info = merged_verdict(vehicle, day)
        record = {k: v for k, v in info.items() if k in PUBLIC_KEYS}
        place = lines_selectors.vehicle_place(vehicle, day)  # the line the vehicle operates today
        if place is not None:
            record.update(line_code=place.line.code, line_name=place.line.name)
        record["line_public"] = lines_selectors.public_line_exists(
            vehicle.jurisdiction_id, record.get("line_code"), day
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
