"""Reads of the authorizations: what an authorization's page, its API answer and the plate check
show beside its data."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.authorizations import rules, services
from lotacao.authorizations.models import Authorization
from lotacao.core.bulk import among
from lotacao.core.formats import br_date, lower_first


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


# --------------------------------------------------------------------------- the plate check


def _chosen(rows: list[Authorization], on: dt.date) -> Authorization | None:
    """The authorization the plate check speaks of: the one in force, else the latest decided."""
    decided = [
        r for r in rows if r.status not in (Authorization.Status.REQUESTED, Authorization.Status.REFUSED)
    ]
    for row in decided:
        if row.effective_status(on) == Authorization.Status.GRANTED and row.starts_on and row.starts_on <= on:
            return row
    return decided[0] if decided else None


def _part(row: Authorization | None, on: dt.date) -> dict[str, Any]:
    """The seam's answer for one vehicle (no personal data): nothing where the vehicle has no
    decided authorization (another regime answers for it)."""
    if row is None or not rules.applies(row.jurisdiction_id, on):
        return {}
    status = row.effective_status(on)
    kind = lower_first(row.get_kind_display())
    authorized = status == Authorization.Status.GRANTED and row.starts_on is not None and row.starts_on <= on
    reasons: list[str] = []
    if not authorized:
        words = lower_first(Authorization.Status(status).label)
        if status == Authorization.Status.SUSPENDED and row.suspended_until:
            words += f" até {br_date(row.suspended_until)}"
        elif status == Authorization.Status.EXPIRED:
            words = f"vencida em {br_date(row.valid_until)}"
        reasons.append(f"Autorização de {kind} {words}.")
    part: dict[str, Any] = {
        "regime": "authorization",
        "service_kind": str(row.get_kind_display()),
        "service_number": row.number,
        "service_status": str(Authorization.Status(status).label),
        "service_valid_until": row.valid_until,
        "authorized": authorized,
        "reasons": reasons,
    }
    if row.is_taxi:  # the taxi's fare in force, as the municipality fixed it (art. 14, p.ú.)
        fare = rules.taxi_fare(row.jurisdiction_id, on)
        part["service_fare"] = f"{fare['words']} ({fare['citation']})" if fare.get("words") else ""
    if row.status in Authorization.LIVE and row.valid_until and row.valid_until >= on:
        part["changes_on"] = row.valid_until + dt.timedelta(days=1)
    return part


def public_vehicle_info(vehicle: Any, on: dt.date) -> dict[str, Any]:
    """For the plate checks (public and the inspector's): the vehicle's authorization of táxi,
    escolar or fretado, authorized for its kind while in force (Esteio art. 36, III)."""
    rows = list(Authorization.unscoped.filter(vehicle_id=vehicle.pk).order_by("-starts_on", "-pk"))
    part = _part(_chosen(rows, on), on)
    part.pop("changes_on", None)
    return part


def public_vehicle_info_many(vehicles: list[Any], on: dt.date) -> dict[int, dict[str, Any]]:
    ids = [v.pk for v in vehicles]
    by_vehicle: dict[int, list[Authorization]] = {}
    for row in Authorization.unscoped.filter(among("vehicle_id", ids)).order_by(
        "vehicle_id", "-starts_on", "-pk"
    ):
        by_vehicle.setdefault(row.vehicle_id, []).append(row)
    return {pk: _part(_chosen(by_vehicle.get(pk, []), on), on) for pk in ids}


def unauthorized_suggestion(code: str, on: dt.date) -> str:
    """What the inspector may do with a táxi, escolar or fretado service without an authorization
    in force (art. 36, III; art. 18), the fine read from the pack ("" where the law has none)."""
    if not rules.law_kinds(code, on):
        return ""
    from lotacao.core.law import value

    fine = value(code, "penalty.fine.unlicensed", on) or {}
    amount = f"multa de {fine['units']} {fine['unit']}" if fine.get("units") else "multa"
    return (
        "Táxi, transporte escolar ou fretado sem autorização em vigor: cabe a retenção do veículo "
        f"({rules.cited(code, 'art. 36, III')}) e as sanções do art. 18 — apreensão do veículo, {amount} e "
        "ressarcimento das despesas de remoção e estadia; na reincidência, a multa em dobro e multa de igual "
        "valor às despesas. Lavre o auto como transporte clandestino."
    )
