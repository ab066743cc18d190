"""Read-only selectors of the permits app, for other apps and the public page.

`public_vehicle_info` never returns personal data (no name, CPF or CNPJ): only the permit's
number, status, validity and line.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q, QuerySet

from lotacao.core.formats import br_date, lower_first
from lotacao.permits.models import Permit


def live_permits(on: dt.date) -> QuerySet[Permit]:
    """Permits in force on `on` (active or suspended, within their term, not withdrawn) — unscoped."""
    return (
        Permit.unscoped.filter(status__in=Permit.LIVE)
        .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=on))
        .exclude(withdrawal_notice_on__isnull=False, ends_on__lte=on)
    )


def active_permit_for_vehicle(vehicle: Any, on: dt.date) -> Permit | None:
    """The permit the vehicle serves on `on` (active or suspended and within its term), if any."""
    return (
        live_permits(on).filter(vehicle=vehicle).select_related("line").order_by("-granted_on", "-id").first()
    )


def last_permit_for_vehicle(vehicle: Any) -> Permit | None:
    return (
        Permit.unscoped.filter(vehicle=vehicle)
        .exclude(status__in=Permit.OPEN)
        .select_related("line")
        .order_by("-granted_on", "-id")
        .first()
    )


def vehicle_permit(vehicle: Any) -> Permit | None:
    """The live (active or suspended) permit a vehicle serves, the newest if several."""
    return Permit._base_manager.filter(vehicle=vehicle, status__in=Permit.LIVE).order_by("-pk").first()


def public_vehicle_info(vehicle: Any, on: dt.date) -> dict[str, Any]:
    """What the public may know about a vehicle's permit on `on` (no personal data)."""
    permit = active_permit_for_vehicle(vehicle, on) or last_permit_for_vehicle(vehicle)
    if permit is None:
        return {
            "authorized": False,
            "permit_number": None,
            "permit_status": None,
            "permit_valid_until": None,
            "line_code": None,
            "line_name": None,
            "reasons": ["Veículo sem permissão vigente."],
        }
    status = permit.effective_status(on)
    reasons: list[str] = []
    authorized = status == Permit.Status.ACTIVE
    if status == Permit.Status.SUSPENDED:
        until = f" até {br_date(permit.suspended_until)}" if permit.suspended_until else ""
        reasons.append(f"Permissão suspensa{until}.")
    elif status == Permit.Status.EXPIRED:
        reasons.append(f"Permissão vencida em {br_date(permit.valid_until)}.")
    elif not authorized:
        reasons.append(f"Permissão {lower_first(Permit.Status(status).label)}.")
    line = permit.line
    return {
        "authorized": authorized,
        "permit_number": permit.number or None,
        "permit_status": str(Permit.Status(status).label),
        "permit_valid_until": permit.valid_until,
        "line_code": line.code if line else None,
        "line_name": line.name if line else None,
        "reasons": reasons,
    }


def permits_of_holder(holder: Any) -> QuerySet[Permit]:
    return Permit.unscoped.filter(holder=holder)
