"""Reads of the authorizations: what an authorization's page, its API answer and the plate check
show beside its data."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.authorizations import rules, services
from lotacao.authorizations.models import Authorization


def conditions(row: Authorization) -> dict[str, Any]:
    """The conditions of the service: the taxi's fare in force (art. 14, p.ú.), no fare at
    boarding (art. 17, p.ú.), the doors (art. 52), and the provisions of the kind."""
    code = row.jurisdiction_id
    day = row.starts_on or row.requested_on
    today = timezone.localdate()
    return {
        "fare": rules.taxi_fare(code, max(day, today)) if row.is_taxi else {},
        "boarding": rules.boarding_condition(code, row.kind, day),
        "doors": services.doors_note(row),
        "kind_citation": rules.law_kinds(code, day).get(row.kind, ""),
        "authorizing_citation": rules.cited(code, "art. 17"),
    }


def in_force(vehicle: Any, on: dt.date | None = None) -> Authorization | None:
    """The authorization in force for a vehicle today (granted, within its validity)."""
    return services.valid_for_vehicle(vehicle, on or timezone.localdate())
