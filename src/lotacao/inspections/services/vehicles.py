"""Vehicles in the service: admission, changes, replacement — each assessed by the engine (`vehicle`
kind) and the assessment kept beside the vehicle."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import update_audited
from lotacao.core import providers
from lotacao.core.models import Jurisdiction
from lotacao.inspections import rules
from lotacao.inspections.models import ProvisionalAuthorization, VehicleAssessment
from lotacao.inspections.services.provisional import end_provisional
from lotacao.registry import services as registry_services
from lotacao.registry.models import Vehicle

VEHICLE_FIELDS = ("category", "manufacture_year", "seats", "doors")


class _Draft:
    """What the engine needs of a vehicle that does not exist yet."""

    def __init__(self, category: str, manufacture_year: int, seats: int, doors: int) -> None:
        self.category = category
        self.manufacture_year = int(manufacture_year)
        self.seats = int(seats)
        self.doors = int(doors)


def _refuse(result: dict[str, Any], head: str) -> None:
    if not result["eligible"]:
        raise ValidationError([head, *rules.violations_text(result)])


def _assessment(
    *,
    vehicle: Vehicle,
    action: str,
    on: dt.date,
    result: dict[str, Any],
    replaced: Vehicle | None = None,
    proof: str = "",
) -> VehicleAssessment:
    row = VehicleAssessment(
        jurisdiction_id=vehicle.jurisdiction_id,
        vehicle=vehicle,
        replaced=replaced,
        action=action,
        on=on,
        eligible=bool(result["eligible"]),
        violations=result.get("violations", []),
        citations=result.get("citations", []),
        explanation=result.get("explanation", ""),
        decharacterization_proof=proof,
    )
    row.save()
    return row


@transaction.atomic
def admit_vehicle(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    plate: str,
    manufacture_year: int,
    category: str,
    seats: int,
    doors: int,
    reason: str,
    on: dt.date | None = None,
    **fields: Any,
) -> Vehicle:
    """Register a vehicle after the engine admits it (`vehicle` kind, action `entry`)."""
    day = on or timezone.localdate()
    draft = _Draft(category, manufacture_year, seats, doors)
    result = rules.assess(jurisdiction.code, "entry", day, draft)
    _refuse(result, f"Veículo não admitido em {jurisdiction.name}:")
    vehicle = registry_services.create_vehicle(
        actor=actor,
        jurisdiction=jurisdiction,
        plate=plate,
        manufacture_year=manufacture_year,
        category=category,
        seats=seats,
        doors=doors,
        reason=reason,
        **fields,
    )
    _assessment(vehicle=vehicle, action="entry", on=day, result=result)
    return vehicle


@transaction.atomic
def update_vehicle(
    *, actor: Any, vehicle: Vehicle, changes: dict[str, Any], reason: str, on: dt.date | None = None
) -> Vehicle:
    """Edit a vehicle; a change of category, year, seats or doors is checked for its stay (`keep`)."""
    day = on or timezone.localdate()
    vehicle = Vehicle.unscoped.select_for_update().get(pk=vehicle.pk)
    if any(k in changes and changes[k] != getattr(vehicle, k) for k in VEHICLE_FIELDS):
        draft = _Draft(*(changes.get(k, getattr(vehicle, k)) for k in VEHICLE_FIELDS))
        result = rules.assess(vehicle.jurisdiction_id, "keep", day, draft)
        _refuse(result, "Alteração recusada: o veículo deixaria de atender à lei:")
        updated = update_audited(actor=actor, instance=vehicle, changes=changes, reason=reason)
        _assessment(vehicle=updated, action="keep", on=day, result=result)
        return updated
    return update_audited(actor=actor, instance=vehicle, changes=changes, reason=reason)


# --------------------------------------------------------------------------- replacement


@transaction.atomic
def replace_vehicle(
    *,
    actor: Any,
    replaced: Vehicle,
    plate: str,
    manufacture_year: int,
    category: str,
    seats: int,
    doors: int,
    reason: str,
    decharacterization_proof: str = "",
    on: dt.date | None = None,
    **fields: Any,
) -> Vehicle:
    """Replace a vehicle: the engine checks the substitute (`replace`), the replaced one is
    deregistered (with proof of its decharacterization where the law requires it), the new one
    takes its holder and, where a permit exists, its place on the permit."""
    day = on or timezone.localdate()
    replaced = Vehicle.unscoped.select_for_update().get(pk=replaced.pk)
    if replaced.deregistered_on is not None:
        raise ValidationError(
            f"O veículo {replaced} já foi baixado do serviço em {rules.pt(replaced.deregistered_on)}."
        )
    result = rules.assess(
        replaced.jurisdiction_id,
        "replace",
        day,
        _Draft(category, manufacture_year, seats, doors),
        replaced=replaced,
    )
    _refuse(result, "Substituição recusada:")
    citations = list(result.get("citations", []))
    citations += _decharacterization_proven(replaced.jurisdiction_id, day, decharacterization_proof)
    new = registry_services.create_vehicle(
        actor=actor,
        jurisdiction=replaced.jurisdiction,
        plate=plate,
        manufacture_year=manufacture_year,
        category=category,
        seats=seats,
        doors=doors,
        holder=replaced.holder,
        reason=reason,
        **fields,
    )
    update_audited(
        actor=actor,
        instance=replaced,
        changes={"deregistered_on": day},
        reason=f"Baixa por substituição pelo veículo {new}: {reason}",
        action="vehicle.deregistered",
    )
    result = {**result, "citations": citations}
    proof = decharacterization_proof.strip()
    _assessment(vehicle=new, action="replace", on=day, result=result, replaced=replaced, proof=proof)
    _move_permit(actor=actor, replaced=replaced, new=new, reason=reason)
    _end_provisional(actor=actor, replaced=replaced, new=new, day=day)
    return new


def _end_provisional(*, actor: Any, replaced: Vehicle, new: Vehicle, day: dt.date) -> None:
    """The provisional authorization of the replaced vehicle ends with its replacement (Maricá
    art. 25, § 6º: "até a sua efetiva substituição")."""
    for row in ProvisionalAuthorization.unscoped.filter(
        vehicle=replaced, status=ProvisionalAuthorization.Status.IN_FORCE
    ):
        end_provisional(actor=actor, authorization=row, reason=f"Veículo substituído pelo {new}", on=day)


def _decharacterization_proven(code: str, day: dt.date, proof: str) -> list[str]:
    """Where the law requires it, the replaced vehicle's decharacterization (and the end of its
    rental plate) must be proven; returns the rule's citation when it applies."""
    rule = rules.entry(code, "inspection.replaced_vehicle_decharacterization", day)
    if rule is None or rule.status != "value" or not rule.value:
        return []
    if not proof.strip():
        raise ValidationError(
            f"Substituição recusada: o cadastro do novo veículo exige comprovar a descaracterização do "
            f"veículo substituído, inclusive a baixa da placa de aluguel ({rule.citation})."
        )
    return [rule.citation]


def _permit_of(vehicle: Vehicle) -> Any:
    """The live permit the vehicle serves (asked of the permits app through its seam)."""
    ((_name, permit_of),) = providers.providers("vehicle_permit")
    return permit_of(vehicle)


def _move_permit(*, actor: Any, replaced: Vehicle, new: Vehicle, reason: str) -> None:
    permit = _permit_of(replaced)
    if permit is not None:
        update_audited(
            actor=actor,
            instance=permit,
            changes={"vehicle": new},
            reason=f"Substituição do veículo {replaced} por {new}: {reason}",
            action="permit.vehicle_replaced",
        )
