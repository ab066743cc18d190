"""Read-side of the inspections app: current seal and insurance, the public status of a vehicle.

`public_vehicle_info` is merged by lotacao.public.selectors into the public plate page: no personal
data (no holder, insurer or policy number) ever leaves it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core.bulk import among
from lotacao.inspections import rules
from lotacao.inspections.models import (
    Inspection,
    InsurancePolicy,
    IrregularityNotice,
    ProvisionalAuthorization,
    Seal,
)


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
    previous = last_seal(vehicle) if seal is None else None
    provisional = provisional_in_force(vehicle, on)
    return _public_part(
        vehicle,
        on,
        seal.valid_until if seal else None,
        insurance.valid_until if insurance else None,
        previous.valid_until if previous else None,
        {},
        provisional=provisional,
        accident_hold=accident_hold(vehicle),
    )


def provisional_in_force(vehicle: Any, on: dt.date) -> ProvisionalAuthorization | None:
    """The provisional authorization of an over-age vehicle in force on `on` (Maricá art. 25, § 6º)."""
    return (
        ProvisionalAuthorization.unscoped.filter(
            vehicle_id=vehicle.pk,
            status=ProvisionalAuthorization.Status.IN_FORCE,
            granted_on__lte=on,
            valid_until__gte=on,
        )
        .order_by("-valid_until")
        .first()
    )


def accident_hold(vehicle: Any) -> Inspection | None:
    """The inspection after an accident the vehicle awaits before it operates again (Maricá
    art. 40, IX): the latest one scheduled that keeps it out of operation, unless it passed."""
    latest = (
        Inspection.unscoped.filter(
            vehicle_id=vehicle.pk, kind=Inspection.Kind.POST_ACCIDENT, blocks_operation=True
        )
        .exclude(status=Inspection.Status.CANCELLED)
        .order_by("-id")
        .first()
    )
    if latest is None or latest.status == Inspection.Status.PASSED:
        return None
    return latest


def public_vehicle_info_many(vehicles: list[Any], on: dt.date) -> dict[int, dict[str, Any]]:
    """`public_vehicle_info` of many vehicles with two queries (the read model's rebuild), each
    part with `changes_on`: the first day after `on` its answer may differ by the date alone (a seal
    or a policy starting or running out, the age limit or its replacement term reached)."""
    ids = [v.pk for v in vehicles]
    seals: dict[int, list[tuple[dt.date, dt.date, int]]] = {}
    for vehicle_id, issued, until, pk in Seal.unscoped.filter(among("vehicle_id", ids)).values_list(
        "vehicle_id", "issued_on", "valid_until", "id"
    ):
        seals.setdefault(vehicle_id, []).append((issued, until, pk))
    policies: dict[int, list[tuple[dt.date, dt.date, int]]] = {}
    for vehicle_id, start, until, pk in InsurancePolicy.unscoped.filter(among("vehicle_id", ids)).values_list(
        "vehicle_id", "valid_from", "valid_until", "id"
    ):
        policies.setdefault(vehicle_id, []).append((start, until, pk))
    provisionals: dict[int, ProvisionalAuthorization] = {}
    for grant in ProvisionalAuthorization.unscoped.filter(
        among("vehicle_id", ids),
        status=ProvisionalAuthorization.Status.IN_FORCE,
        granted_on__lte=on,
        valid_until__gte=on,
    ).order_by("valid_until"):
        provisionals[grant.vehicle_id] = grant
    holds: dict[int, Inspection] = {}
    for row in (
        Inspection.unscoped.filter(
            among("vehicle_id", ids), kind=Inspection.Kind.POST_ACCIDENT, blocks_operation=True
        )
        .exclude(status=Inspection.Status.CANCELLED)
        .order_by("id")
    ):
        holds[row.vehicle_id] = row  # the latest wins
    holds = {k: v for k, v in holds.items() if v.status != Inspection.Status.PASSED}
    memo: dict[Any, Any] = {}
    out: dict[int, dict[str, Any]] = {}
    for vehicle in vehicles:
        changes: list[dt.date] = []
        own = sorted(seals.get(vehicle.pk, ()), key=lambda row: (row[1], row[2]), reverse=True)
        current = next((row for row in own if row[0] <= on <= row[1]), None)
        previous = own[0] if own and current is None else None
        cover = sorted(policies.get(vehicle.pk, ()), key=lambda row: (row[1], row[2]), reverse=True)
        insurance = next((row for row in cover if row[0] <= on <= row[1]), None)
        for first, last, _pk in (*own, *cover):
            changes.extend((first, last + dt.timedelta(days=1)))
        provisional = provisionals.get(vehicle.pk)
        part = _public_part(
            vehicle,
            on,
            current[1] if current else None,
            insurance[1] if insurance else None,
            previous[1] if previous else None,
            memo,
            provisional=provisional,
            accident_hold=holds.get(vehicle.pk),
        )
        if provisional is not None:
            changes.append(provisional.valid_until + dt.timedelta(days=1))
        age = memo[("age", vehicle.jurisdiction_id, vehicle.category, vehicle.manufacture_year)]
        if age.reached_on is not None:
            changes.append(age.reached_on)
        if age.replacement_due is not None:
            changes.append(age.replacement_due + dt.timedelta(days=1))
        later = [day for day in changes if day > on]
        if later:
            part["changes_on"] = min(later)
        out[vehicle.pk] = part
    return out


def _public_part(
    vehicle: Any,
    on: dt.date,
    seal_until: dt.date | None,
    insurance_until: dt.date | None,
    previous_until: dt.date | None,
    memo: dict[Any, Any],
    *,
    provisional: ProvisionalAuthorization | None = None,
    accident_hold: Inspection | None = None,
) -> dict[str, Any]:
    """The part from the dates found; `memo` keeps the law's answers for many vehicles of one day."""
    reasons: list[str] = []
    info: dict[str, Any] = {
        "seal_valid_until": seal_until.isoformat() if seal_until else None,
        "insurance_valid_until": insurance_until.isoformat() if insurance_until else None,
    }
    code = vehicle.jurisdiction_id
    if seal_until is None:
        if previous_until is not None and previous_until < on:
            reasons.append(f"Selo de vistoria vencido em {rules.pt(previous_until)}.")
        else:
            reasons.append("Sem selo de vistoria válido.")
        key: tuple[Any, ...] = ("seal_required", code)
        if key not in memo:
            memo[key] = rules.entry(code, "inspection.valid_seal_required", on)
        required = memo[key]
        if required is not None and required.status == "value" and required.value:
            info["authorized"] = False
            reasons[-1] = reasons[-1][:-1] + f" — exigido para operar ({required.citation})."
    if insurance_until is None:
        reasons.append("Sem seguro em vigor registrado.")
    key = ("age", code, vehicle.category, vehicle.manufacture_year)
    if key not in memo:
        memo[key] = rules.age_limit(vehicle, on)
    age = memo[key]
    if age.reached_on is not None and age.reached_on <= on:
        text = f"Veículo acima da idade limite de {age.limit_years} anos ({age.citation})"
        if age.replacement_due is not None and on <= age.replacement_due:
            text += f"; prazo de substituição até {rules.pt(age.replacement_due)}"
            if provisional is not None:
                text += _provisional_words(provisional)
        elif provisional is not None:
            text += (
                f"; autorização provisória até {rules.pt(provisional.valid_until)} ({provisional.citation})"
            )
        else:
            info["authorized"] = False
        reasons.append(text + ".")
    if accident_hold is not None:
        info["authorized"] = False
        cite = "; ".join(accident_hold.citations)
        reasons.append(
            "Veículo envolvido em acidente: não volta à operação antes de aprovado na vistoria ("
            + (
                f"reprovado na vistoria de {rules.pt(accident_hold.performed_on)}"
                if accident_hold.status == Inspection.Status.FAILED
                else f"vistoria marcada para {rules.pt(accident_hold.scheduled_for)}"
            )
            + (f"; {cite}" if cite else "")
            + ")."
        )
    info["reasons"] = reasons
    return info


def _provisional_words(provisional: ProvisionalAuthorization) -> str:
    return f"; autorização provisória até {rules.pt(provisional.valid_until)} ({provisional.citation})"
