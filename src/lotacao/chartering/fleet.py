"""The chartering fleet (arts. 1, 3, 9 to 11, 15 and 18): own and leased vehicles, the engine's
fleet and vehicle checks on every change, insurance, FUSP-LV before the inspection.

Counting (the reading recorded in docs/chartering.md):
- the lease cap (art. 18, § 1º) counts every leased, loaned or rented vehicle except those whose
  lessor is of the company's economic group (§ 3º) and the 7-seat cars of a tourism company (§ 2º);
- the minimum of own vehicles (art. 3º, § 4º) counts own buses;
- a change is refused for the limits it would break (a leased vehicle above the cap, a vehicle of
  the regular fleet above 10 %); the minimum of own buses is checked when the CRC is issued.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing import selectors as billing_selectors
from lotacao.billing import services as billing_services
from lotacao.billing.models import Charge
from lotacao.chartering import rules
from lotacao.chartering.models import CharteringCompany, CrcApplication, FleetVehicle
from lotacao.chartering.status import current_crc
from lotacao.core import law
from lotacao.core.validators import normalize_cnpj
from lotacao.inspections import services as inspections_services
from lotacao.registry import services as registry_services
from lotacao.registry.models import Vehicle

ENGINE_RULES = {"max_leased", "max_chartering_from_regular"}


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def company_modalities(company: CharteringCompany, on: dt.date) -> list[str]:
    """The modalities of the company's CRC and of its request in analysis."""
    found: list[str] = []
    crc = current_crc(company, on)
    if crc is not None:
        found += list(crc.modalities)
    for application in CrcApplication.unscoped.filter(company=company, status__in=CrcApplication.OPEN):
        found += list(application.modalities)
    return list(dict.fromkeys(found))


def live_fleet(company: CharteringCompany) -> list[FleetVehicle]:
    return list(
        FleetVehicle.unscoped.filter(company=company, removed_on__isnull=True).select_related("vehicle")
    )


def _counts(entries: list[FleetVehicle], modalities: list[str]) -> dict[str, int]:
    tourism = "tourism" in modalities
    own = [e for e in entries if not e.leased]
    capped = [
        e
        for e in entries
        if e.leased and not e.lessor_same_group and not (tourism and e.vehicle.category == "car7")
    ]
    return {
        "own": len(own),
        "own_buses": sum(1 for e in own if e.vehicle.category == "bus"),
        "leased": len(capped),
        "from_regular": sum(1 for e in entries if e.from_regular),
    }


def fleet_case(
    code: str, on: dt.date, modality: str, category: str, counts: dict[str, int], regular: int
) -> dict[str, Any]:
    own = counts["own_buses"] if category == "bus" else counts["own"]
    result = law.evaluate_case(
        {
            "jurisdiction": code,
            "kind": "fleet",
            "date": on.isoformat(),
            "modality": modality,
            "vehicle_category": category,
            "own_vehicles": own,
            "leased_vehicles": counts["leased"],
            "regular_fleet": regular,
            "chartering_from_regular": counts["from_regular"],
        }
    )
    if "error" in result:
        raise ValidationError(result["error"]["message"])
    # The lease cap is on the whole own fleet (art. 18, § 1º), not on own buses: recompute it.
    if category == "bus" and counts["own"] != own:
        whole = {**counts, "own_buses": counts["own"]}
        again = fleet_case(code, on, modality, "microbus", whole, regular)
        result["violations"] = [v for v in result["violations"] if v["rule"] != "max_leased"] + [
            v for v in again["violations"] if v["rule"] == "max_leased"
        ]
    return result


def _text(violation: dict[str, str]) -> str:
    return (
        f"{violation['message']} ({violation['citation']})"
        if violation.get("citation")
        else violation["message"]
    )


def fleet_problems(company: CharteringCompany, modalities: list[str], on: dt.date) -> list[str]:
    """Every limit of the fleet the law sets for these modalities (the CRC's issue checks it)."""
    entries = live_fleet(company)
    counts = _counts(entries, modalities)
    code = company.jurisdiction_id
    problems: list[str] = []
    categories = sorted({e.vehicle.category for e in entries}) or ["bus"]
    for modality in modalities:
        for category in categories:
            result = fleet_case(code, on, modality, category, counts, company.regular_fleet)
            problems += [_text(v) for v in result["violations"]]
    return list(dict.fromkeys(problems))


def vehicle_check(code: str, on: dt.date, vehicle: Any, modalities: list[str]) -> tuple[list[str], list[str]]:
    """The engine's `vehicle` kind (art. 11 inspection request) for the modalities the company
    holds: the vehicle must be admissible in at least one. Returns (problems, citations)."""
    problems: list[str] = []
    citations: list[str] = []
    for modality in modalities:
        result = law.evaluate_case(
            {
                "jurisdiction": code,
                "kind": "vehicle",
                "action": "inspection",
                "date": on.isoformat(),
                "modality": modality,
                "vehicle": {
                    "category": vehicle.category,
                    "manufacture_year": int(vehicle.manufacture_year),
                    "seats": int(vehicle.seats),
                    "doors": int(vehicle.doors),
                },
            }
        )
        if "error" in result:
            raise ValidationError(result["error"]["message"])
        citations += result.get("citations", [])
        if result["eligible"] is not False:
            return [], citations
        problems += [_text(v) for v in result["violations"]]
    return list(dict.fromkeys(problems)), citations


def _draft(code: str, vehicle: Vehicle | None, fields: dict[str, Any]) -> Vehicle:
    """The vehicle to check: the registered one, or one not saved yet from the form's fields."""
    if vehicle is not None:
        return vehicle
    if any(not fields.get(k) for k in ("plate", "category", "manufacture_year", "seats", "doors")):
        raise ValidationError("Informe placa, categoria, ano de fabricação, lugares e portas do veículo.")
    return Vehicle(
        jurisdiction_id=code, **{k: fields[k] for k in ("category", "manufacture_year", "seats", "doors")}
    )


def _check_admission(
    code: str, day: dt.date, draft: Vehicle, modalities: list[str], rental: bool
) -> list[str]:
    """Age and category for the modalities held (art. 11; art. 3º, § 3º) and the aluguel category
    (art. 1º, §§ 2º-3º); returns the engine's citations."""
    problems, citations = vehicle_check(code, day, draft, modalities)
    if problems:
        names = rules.modality_names(code, modalities, day)
        raise ValidationError([f"Veículo recusado para {names}:", *problems])
    exempt = rules.value(code, "chartering.rental_category_exempt", day) or []
    if not rental and any(m not in exempt for m in modalities):
        cite = rules.citation(code, "chartering.rental_category_exempt", day)
        raise ValidationError(
            f"O fretamento intermunicipal só admite veículos da categoria aluguel ({cite})."
        )
    return citations


def _set_lessor(entry: FleetVehicle, name: str, cnpj: str, same_group: bool, proof: str) -> None:
    """Who leases, lends or rents the vehicle (art. 18) and, for the same economic group, the proof
    of a common partner (§ 3º)."""
    if not entry.leased:
        return
    if not name.strip() or not cnpj.strip():
        raise ValidationError(
            "Informe o nome e o CNPJ de quem arrenda, empresta ou aluga o veículo (art. 18)."
        )
    entry.lessor_name, entry.lessor_cnpj = name.strip(), normalize_cnpj(cnpj)
    if same_group and not proof.strip():
        raise ValidationError(
            "Para o mesmo grupo econômico, informe o contrato social que comprova o sócio em comum "
            f"({rules.cite(entry.jurisdiction_id, 'art. 18, § 3º')})."
        )
    entry.lessor_same_group, entry.group_proof = same_group, proof.strip()


def _check_caps(company: CharteringCompany, entry: FleetVehicle, modalities: list[str], day: dt.date) -> None:
    """The limits the new entry would break: leases above the cap (art. 18, § 1º), the regular
    fleet's share (art. 3º, § 5º) — the engine's `fleet` kind, per modality held."""
    after = _counts([*live_fleet(company), entry], modalities)
    for modality in modalities:
        result = fleet_case(
            company.jurisdiction_id, day, modality, entry.vehicle.category, after, company.regular_fleet
        )
        broken = [v for v in result["violations"] if v["rule"] in ENGINE_RULES]
        if broken and (entry.leased or entry.from_regular):
            raise ValidationError(["Frota acima do limite da lei:", *[_text(v) for v in broken]])
        entry.citations = list(dict.fromkeys([*entry.citations, *result.get("citations", [])]))


@transaction.atomic
def add_vehicle(
    *,
    actor: Any,
    company: CharteringCompany,
    reason: str,
    vehicle: Vehicle | None = None,
    tenure: str = FleetVehicle.Tenure.OWN,
    lessor_name: str = "",
    lessor_cnpj: str = "",
    lessor_same_group: bool = False,
    group_proof: str = "",
    rental_category: bool = True,
    from_regular: bool = False,
    on: dt.date | None = None,
    **vehicle_fields: Any,
) -> FleetVehicle:
    """Put a vehicle in the fleet (a registered one, or registered now from `vehicle_fields`),
    after the engine's vehicle and fleet checks for the modalities the company holds."""
    day = _today(on)
    code = company.jurisdiction_id
    company = CharteringCompany.unscoped.select_for_update().get(pk=company.pk)
    modalities = company_modalities(company, day)
    if not modalities:
        raise ValidationError("Requeira o CRC com as modalidades antes de cadastrar a frota (art. 35, § 1º).")
    if tenure not in FleetVehicle.Tenure.values:
        raise ValidationError("Posse do veículo desconhecida.")
    draft = _draft(code, vehicle, vehicle_fields)
    citations = _check_admission(code, day, draft, modalities, rental_category)
    entry = FleetVehicle(
        jurisdiction_id=code,
        company=company,
        vehicle=draft,
        tenure=tenure,
        rental_category=rental_category,
        from_regular=from_regular,
        added_on=day,
        citations=list(dict.fromkeys(citations)),
    )
    _set_lessor(entry, lessor_name, lessor_cnpj, lessor_same_group, group_proof)
    if (
        vehicle is not None
        and FleetVehicle.unscoped.filter(vehicle=vehicle, removed_on__isnull=True).exists()
    ):
        raise ValidationError(f"O veículo {vehicle} já está numa frota de fretamento.")
    if vehicle is not None and vehicle.holder_id not in (None, company.holder_id):
        raise ValidationError(f"O veículo {vehicle} está vinculado a outro permissionário.")
    _check_caps(company, entry, modalities, day)
    if vehicle is None:
        vehicle = registry_services.create_vehicle(
            actor=actor,
            jurisdiction=company.jurisdiction,
            holder=company.holder,
            reason=reason,
            **vehicle_fields,
        )
    entry.vehicle = vehicle
    return create_audited(actor=actor, instance=entry, reason=reason, action="chartering.fleet_added")


@transaction.atomic
def remove_vehicle(
    *, actor: Any, entry: FleetVehicle, reason: str, on: dt.date | None = None
) -> FleetVehicle:
    """Take a vehicle out of the fleet, unless the leases left would exceed the cap."""
    day = _today(on)
    entry = FleetVehicle.unscoped.select_for_update().select_related("company", "vehicle").get(pk=entry.pk)
    if entry.removed_on is not None:
        raise ValidationError(f"O veículo já foi retirado da frota em {rules.pt(entry.removed_on)}.")
    company = entry.company
    modalities = company_modalities(company, day)
    rest = [e for e in live_fleet(company) if e.pk != entry.pk]
    counts = _counts(rest, modalities)
    if not entry.leased:
        for modality in modalities:
            result = fleet_case(
                company.jurisdiction_id, day, modality, "microbus", counts, company.regular_fleet
            )
            broken = [v for v in result["violations"] if v["rule"] == "max_leased"]
            if broken:
                raise ValidationError(
                    [
                        "Sem este veículo próprio, os arrendados excedem o limite: retire antes um arrendado.",  # noqa: E501
                        *[_text(v) for v in broken],
                    ]
                )
    return update_audited(
        actor=actor,
        instance=entry,
        changes={"removed_on": day},
        reason=reason,
        action="chartering.fleet_removed",
    )


def register_insurance(*, actor: Any, entry: FleetVehicle, reason: str, **policy: Any) -> Any:
    """The vehicle's policy, checked by the inspections app against art. 15's minimums."""
    return inspections_services.register_insurance(
        actor=actor, vehicle=entry.vehicle, reason=reason, **policy
    )


# --------------------------------------------------------------------------- FUSP-LV and inspection


def fusp_lv_reference(entry: FleetVehicle, year: int) -> str:
    return f"fusp-lv:{entry.vehicle_id}:{year}"


@transaction.atomic
def issue_fusp_lv(*, actor: Any, entry: FleetVehicle, reason: str, on: dt.date | None = None) -> Charge:
    """Charge the FUSP-LV of the vehicle's yearly inspection (Lei 15.177/2013, art. 10); its amount
    is the agency's (the law's Anexo is not in the available text)."""
    day = _today(on)
    code = entry.jurisdiction_id
    amount = rules.require(code, "fee.fusp_lv", day, "o valor da taxa FUSP-LV")
    reference = fusp_lv_reference(entry, day.year)
    if Charge.unscoped.filter(
        holder_id=entry.company.holder_id, reference=reference, cancelled=False
    ).exists():
        raise ValidationError(f"A FUSP-LV de {day.year} do veículo {entry.vehicle} já foi emitida.")
    return billing_services.issue_charge(
        actor=actor,
        holder=entry.company.holder,
        kind=Charge.Kind.FEE,
        description=f"Taxa FUSP-LV — vistoria {day.year} do veículo {entry.vehicle}",
        amount=Decimal(str(amount["amount"])),
        due_on=day,
        reason=reason,
        reference=reference,
    )


def fusp_lv_paid(entry: FleetVehicle, on: dt.date) -> bool:
    """The vehicle's FUSP-LV of the year is paid by `on` (billing's `fee_paid`)."""
    return billing_selectors.fee_paid(entry.company.holder, fusp_lv_reference(entry, on.year), on)


@transaction.atomic
def request_inspection(
    *,
    actor: Any,
    entry: FleetVehicle,
    scheduled_for: dt.date,
    reason: str,
    place: str = "",
    on: dt.date | None = None,
) -> Any:
    """Schedule the yearly inspection, only after the FUSP-LV is paid (art. 9º)."""
    day = _today(on)
    code = entry.jurisdiction_id
    if entry.removed_on is not None:
        raise ValidationError("O veículo foi retirado da frota.")
    if rules.value(code, "fee.paid_before_inspection", day) and not fusp_lv_paid(entry, day):
        cite = rules.citation(code, "fee.paid_before_inspection", day)
        raise ValidationError(f"Vistoria recusada: a taxa FUSP-LV de {day.year} não está paga ({cite}).")
    return inspections_services.schedule_inspection(
        actor=actor, vehicle=entry.vehicle, scheduled_for=scheduled_for, reason=reason, place=place, on=day
    )
