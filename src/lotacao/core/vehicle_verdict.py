"""Whether a vehicle may operate today: the one rule the public check and the inspector share.

Each domain answers through the `public_vehicle_info` seam (lotacao.core.providers). The answers
are merged here: authorized only when some provider (the permit, or chartering's CRC) says so and
none finds a legal bar; a deregistered vehicle never is. The permits provider is asked only where
the law has permits (`permit.term` in the pack); elsewhere another regime authorizes.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from lotacao.core import providers
from lotacao.core.law import pack_for
from lotacao.core.validators import normalize_plate

PERMIT_PROVIDER = "permits"
PERMIT_REGIME = "permit.term"


def has_permits(code: str) -> bool:
    """Whether the jurisdiction's law regulates the service by permits (chartering's does not)."""
    return pack_for(code).has(PERMIT_REGIME)


def clean_plate(raw: str) -> str:
    """`abc-1d23` → `ABC1D23`; refuses what is not a plate (Portuguese message)."""
    return normalize_plate(re.sub(r"[^A-Za-z0-9]", "", raw or ""))


def merged_verdict(vehicle: Any, day: dt.date) -> dict[str, Any]:
    """Every provider's part merged, with `authorized` and the `reasons` that bar it."""
    info: dict[str, Any] = {}
    verdicts: list[bool] = []
    reasons: list[str] = []
    permits = has_permits(vehicle.jurisdiction_id)
    for name, provider in providers.providers("public_vehicle_info"):
        if name == PERMIT_PROVIDER and not permits:
            continue
        part = dict(provider(vehicle, day))
        if "authorized" in part:
            verdicts.append(bool(part.pop("authorized")))
        reasons.extend(part.pop("reasons", []))
        info.update(part)
    info["authorized"] = bool(verdicts) and all(verdicts)
    info["reasons"] = reasons
    if vehicle.deregistered_on and vehicle.deregistered_on <= day:
        info["authorized"] = False
        info["reasons"].append("Veículo baixado do serviço.")
    return info
