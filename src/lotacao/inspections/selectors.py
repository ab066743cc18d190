"""Read-side of the inspections app: current seal and insurance, the public status of a vehicle.

`public_vehicle_info` is merged by lotacao.public.selectors into the public plate page: no personal
data (no holder, insurer or policy number) ever leaves it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.inspections import rules
from lotacao.inspections.models import InsurancePolicy, IrregularityNotice, Seal


def current_seal(vehicle: Any, on: dt.date) -> Seal | None:
    """The seal in force on `on` (issued on or before it, still valid), the longest-lived first."""
    return (
        Seal.unscoped.filter(vehicle_id=vehicle.pk, issued_on__lte=on, valid_until__gte=on)
        .order_by("-valid_until", "-id")
        .first()
    )


def last_seal(vehicle: Any) -> Seal | None:
    return Seal.unscoped.filter(vehicle_id=vehicle.pk).order_by("-valid_until", "-id").first()


def current_insurance(vehicle: Any, on: dt.date) -> InsurancePolicy | None:
    return (
        InsurancePolicy.unscoped.filter(vehicle_id=vehicle.pk, valid_from__lte=on, valid_until__gte=on)
        .order_by("-valid_until", "-id")
        .first()
    )


def open_notices(vehicle: Any) -> list[IrregularityNotice]:
    return list(
        IrregularityNotice.unscoped.filter(vehicle_id=vehicle.pk, resolved_on__isnull=True).order_by(
            "representation_due"
        )
    )


def public_vehicle_info(vehicle: Any, on: dt.date) -> dict[str, Any]:
    """Seal and insurance validity and the reasons (Portuguese) why the vehicle is not regular.

    Sets `authorized: False` only where the law forbids operating without a valid seal
    (`inspection.valid_seal_required`); whether the vehicle is authorized otherwise is the permits
    app's answer.
    """
    seal = current_seal(vehicle, on)
    insurance = current_insurance(vehicle, on)
    reasons: list[str] = []
    info: dict[str, Any] = {
        "seal_valid_until": seal.valid_until.isoformat() if seal else None,
        "insurance_valid_until": insurance.valid_until.isoformat() if insurance else None,
    }
    if seal is None:
        previous = last_seal(vehicle)
        if previous is not None and previous.valid_until < on:
            reasons.append(f"Selo de vistoria vencido em {rules.pt(previous.valid_until)}.")
        else:
            reasons.append("Sem selo de vistoria válido.")
        required = rules.entry(vehicle.jurisdiction_id, "inspection.valid_seal_required", on)
        if required is not None and required.status == "value" and required.value:
            info["authorized"] = False
            reasons[-1] = reasons[-1][:-1] + f" — exigido para operar ({required.citation})."
    if insurance is None:
        reasons.append("Sem seguro em vigor registrado.")
    age = rules.age_limit(vehicle, on)
    if age.reached_on is not None and age.reached_on <= on:
        text = f"Veículo acima da idade limite de {age.limit_years} anos ({age.citation})"
        if age.replacement_due is not None and on <= age.replacement_due:
            text += f"; prazo de substituição até {rules.pt(age.replacement_due)}"
        else:
            info["authorized"] = False
        reasons.append(text + ".")
    info["reasons"] = reasons
    return info
