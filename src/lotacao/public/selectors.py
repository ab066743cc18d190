"""What the public may know about a vehicle: authorized or not, permit number, line, seal validity.

No personal data of anyone (no name, CPF or CNPJ) ever leaves this module. Each app that knows
part of the answer provides `public_vehicle_info(vehicle, on) -> dict` through the seam of that
name (lotacao.core.providers); `core.vehicle_verdict` merges them (permits: permit number, line,
status; inspections: seal validity; enforcement: measures and effects in force; chartering: the
company, its CRC status and modalities — a company's CNPJ and trade name are public). Today's
answers are read from the read model (lotacao.public.readmodel), kept current on every change;
another day's are computed.

Every valid plate gets a verdict: `authorized` and the `reasons` at the top (an unknown plate is not
authorized: "Não há veículo autorizado com esta placa."), and one record per jurisdiction.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.core.vehicle_verdict import clean_plate, plate_verdict
from lotacao.public import readmodel
from lotacao.public.routing import with_fallback
from lotacao.registry.models import Vehicle


def vehicle_status(raw_plate: str, on: dt.date | None = None) -> dict[str, Any]:
    """The public status of a plate in every jurisdiction where it is registered."""
    today = timezone.localdate()
    day = on or today
    try:
        plate = clean_plate(raw_plate)
    except ValidationError as error:
        return {
            "plate": (raw_plate or "").upper(),
            "valid_plate": False,
            "error": error.messages[0],
            "authorized": False,
            "reasons": [error.messages[0]],
            "records": [],
        }

    def read() -> list[dict[str, Any]]:
        if day == today:
            return readmodel.records(plate, day)
        vehicles = Vehicle.unscoped.filter(plate=plate).select_related("jurisdiction").order_by("pk")
        return [readmodel.compute(vehicle, day) for vehicle in vehicles]

    records = with_fallback(read)
    authorized, reasons = plate_verdict(records)
    return {
        "plate": plate,
        "valid_plate": True,
        "checked_on": day.isoformat(),
        "authorized": authorized,
        "reasons": reasons,
        "records": records,
    }
