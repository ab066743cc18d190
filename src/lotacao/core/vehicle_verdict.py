"""Whether a vehicle may operate today: the one rule the public check and the inspector share.

Each domain answers through the `public_vehicle_info` seam (lotacao.core.providers). The answers
are merged here: authorized only when some provider (the permit, or chartering's CRC) says so and
none finds a legal bar; a deregistered vehicle never is. The permits provider is asked only where
the law has permits (`permit.term` in the pack); elsewhere another regime authorizes.

`plate_verdict` turns the records of a plate (one per jurisdiction where it is registered) into
the one answer a passenger reads: authorized or not, and why — an unknown plate is not authorized.

`verdict_changed` is the signal a service sends when it changes what the public may read about a
vehicle by a path that saves no model (a queryset `update()`, raw SQL): the public read model
(lotacao.public.readmodel) listens and marks the answers affected, in the same transaction. Model
saves and deletes of what the answer is made of are followed without it.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.dispatch import Signal

from lotacao.core import providers
from lotacao.core.law import next_change, pack_for
from lotacao.core.validators import normalize_plate
from lotacao.law.words import join_pt

PERMIT_PROVIDER = "permits"
UNKNOWN_PLATE = "Não há veículo autorizado com esta placa."

# Sent with keyword arguments `using` (the database alias) and any of `vehicle_ids`, `holder_ids`,
# `plates` ((jurisdiction, plate) pairs), `line_ids` and `jurisdictions`.
verdict_changed = Signal()


def changed(
    *,
    using: str = "default",
    vehicle_ids: list[int] | None = None,
    holder_ids: list[int] | None = None,
    plates: list[tuple[str, str]] | None = None,
    line_ids: list[int] | None = None,
    jurisdictions: list[str] | None = None,
) -> None:
    """Tell the listeners that what the public may read about these vehicles changed."""
    verdict_changed.send(
        sender=None,
        using=using,
        vehicle_ids=vehicle_ids or [],
        holder_ids=holder_ids or [],
        plates=plates or [],
        line_ids=line_ids or [],
        jurisdictions=jurisdictions or [],
    )


def plate_verdict(records: list[dict[str, Any]]) -> tuple[bool, list[str]]:
    """The plate's verdict from its records: authorized where some jurisdiction authorizes it;
    otherwise every jurisdiction's reasons (named when there are several), or UNKNOWN_PLATE."""
    if not records:
        return False, [UNKNOWN_PLATE]
    if any(record.get("authorized") for record in records):
        return True, []
    several = len(records) > 1
    reasons: list[str] = []
    for record in records:
        own = record.get("reasons") or ["Não autorizado."]
        name = record.get("jurisdiction_name") or record.get("jurisdiction")
        reasons.extend(f"{name}: {text}" if several else text for text in own)
    return False, reasons


AUTHORIZED = "Veículo autorizado"
DEREGISTERED = "Veículo baixado do serviço."
_CRC_STATE = {
    "suspended": "empresa com CRC suspenso",
    "cancelled": "empresa com CRC cancelado",
    "expired": "empresa com CRC vencido",
    "none": "empresa sem CRC",
}


def record_state(record: dict[str, Any]) -> str:
    """Why one jurisdiction's record does not authorize the vehicle, in a few words for the
    headline ("veículo com permissão suspensa"); the record's reasons give the detail."""
    reasons = list(record.get("reasons") or [])
    if DEREGISTERED in reasons:
        return "veículo baixado do serviço"
    status = record.get("permit_status")
    if record.get("service_status") and not status:
        return (
            f"veículo com autorização de {str(record.get('service_kind', '')).lower()} "
            + str(record["service_status"]).lower()
        )
    if record.get("company_name") or record.get("crc_status"):
        crc = str(record.get("crc_status") or "none")
        return _CRC_STATE.get(crc, "veículo impedido de operar (CRC válido)")
    if status:
        if status == "Ativa":
            return "veículo com permissão ativa, mas impedido de operar"
        return f"veículo com permissão {str(status).lower()}"
    if reasons and "frota" in reasons[0]:
        return "veículo fora da frota de empresa de fretamento"
    return "veículo sem permissão"


def headline(records: list[dict[str, Any]]) -> str:
    """The plate check's first line, true to every record below it: "Veículo autorizado", or "Não
    autorizado: veículo com permissão suspensa" (each jurisdiction named when there are several),
    or, for a plate no agency registers, that no vehicle with it is authorized."""
    if not records:
        return "Não autorizado: " + UNKNOWN_PLATE[0].lower() + UNKNOWN_PLATE[1:].rstrip(".")
    allowed = [record for record in records if record.get("authorized")]
    if allowed and len(allowed) < len(records):
        names = (str(r.get("jurisdiction_name") or r.get("jurisdiction")) for r in allowed)
        return f"{AUTHORIZED} em " + join_pt(names)
    if allowed:
        return AUTHORIZED
    if len(records) == 1:
        return f"Não autorizado: {record_state(records[0])}"
    parts = [
        f"{record.get('jurisdiction_name') or record.get('jurisdiction')}, {record_state(record)}"
        for record in records
    ]
    return "Não autorizado — " + "; ".join(parts)


PERMIT_REGIME = "permit.term"


def has_permits(code: str) -> bool:
    """Whether the jurisdiction's law regulates the service by permits (chartering's does not)."""
    return pack_for(code).has(PERMIT_REGIME)


def clean_plate(raw: str) -> str:
    """`abc-1d23` → `ABC1D23`; refuses what is not a plate (Portuguese message)."""
    return normalize_plate(re.sub(r"[^A-Za-z0-9]", "", raw or ""))


def _without_permit_regime(parts: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """The parts to merge. A vehicle that another regime answers for (a part with `regime`: the
    authorization of a táxi, escolar or fretado service) and that never had a permit is not
    barred by the permits' "no permit" answer: that regime's verdict stands instead. The `regime`
    key itself is not part of the answer."""
    other = any(part.pop("regime", None) for _name, part in parts)
    if not other:
        return parts
    out = []
    for name, part in parts:
        if name == PERMIT_PROVIDER and not part.get("permit_status"):
            part = {k: v for k, v in part.items() if k not in ("authorized", "reasons")}
        out.append((name, part))
    return out


def merged_verdict(vehicle: Any, day: dt.date) -> dict[str, Any]:
    """Every provider's part merged, with `authorized` and the `reasons` that bar it."""
    info: dict[str, Any] = {}
    verdicts: list[bool] = []
    reasons: list[str] = []
    permits = has_permits(vehicle.jurisdiction_id)
    parts: list[tuple[str, dict[str, Any]]] = []
    for name, provider in providers.providers("public_vehicle_info"):
        if name == PERMIT_PROVIDER and not permits:
            continue
        parts.append((name, dict(provider(vehicle, day))))
    for _name, part in _without_permit_regime(parts):
        if "authorized" in part:
            verdicts.append(bool(part.pop("authorized")))
        reasons.extend(part.pop("reasons", []))
        info.update(part)
    info["authorized"] = bool(verdicts) and all(verdicts)
    info["reasons"] = reasons
    if vehicle.deregistered_on and vehicle.deregistered_on <= day:
        info["authorized"] = False
        info["reasons"].append(DEREGISTERED)
    return info


def merged_verdicts(vehicles: list[Any], day: dt.date) -> dict[int, dict[str, Any]]:
    """`merged_verdict` of many vehicles, each provider asked once for all of them (the seam
    `public_vehicle_info_many`), merged in the same order and the same way. Each answer also has
    `changes_on`: the first day after `day` it may differ by the date alone (the earliest any part,
    the deregistration or the jurisdiction's law gives), None when only a write changes it."""
    answered: list[tuple[str, dict[int, dict[str, Any]]]] = []
    for name, provider in providers.providers("public_vehicle_info_many"):
        asked = (
            vehicles if name != PERMIT_PROVIDER else [v for v in vehicles if has_permits(v.jurisdiction_id)]
        )
        answered.append((name, provider(asked, day) if asked else {}))
    laws: dict[str, dt.date | None] = {}
    out: dict[int, dict[str, Any]] = {}
    for vehicle in vehicles:
        info: dict[str, Any] = {}
        verdicts: list[bool] = []
        reasons: list[str] = []
        code = vehicle.jurisdiction_id
        if code not in laws:
            laws[code] = next_change(code, day)
        changes = [laws[code]]
        own = [(name, dict(parts[vehicle.pk])) for name, parts in answered if vehicle.pk in parts]
        for _name, part in _without_permit_regime(own):
            changes.append(part.pop("changes_on", None))
            if "authorized" in part:
                verdicts.append(bool(part.pop("authorized")))
            reasons.extend(part.pop("reasons", []))
            info.update(part)
        info["authorized"] = bool(verdicts) and all(verdicts)
        info["reasons"] = reasons
        if vehicle.deregistered_on and vehicle.deregistered_on <= day:
            info["authorized"] = False
            info["reasons"].append(DEREGISTERED)
        elif vehicle.deregistered_on:
            changes.append(vehicle.deregistered_on)
        found = [change for change in changes if change is not None]
        info["changes_on"] = min(found) if found else None
        out[vehicle.pk] = info
    return out
