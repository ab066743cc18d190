"""Demo data of vehicles and inspections (called by lotacao.demo.base after permits and documents).

For each jurisdiction's demo vehicles: an insurance policy (the first one expires within 30 days),
a passed inspection with its seal where the law defines the seal, a failed inspection with its
irregularity notice on the second vehicle, and a vehicle at its age limit this year (Maricá: with
the 90-day replacement deadline). Recife gets this year's re-registration campaign. Idempotent:
rows are found by their natural keys before anything is created; all writes go through services.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.core.models import Jurisdiction
from lotacao.inspections import rules, services
from lotacao.inspections.models import Inspection, InsurancePolicy, Reregistration, ReregistrationCampaign
from lotacao.registry.models import Vehicle

REASON = "Dados de demonstração"
# Pernambuco's minimums (art. 15) are met by every demo policy; elsewhere the law sets none.
COVER = {
    "civil_liability": Decimal("500000.00"),
    "death_per_passenger": Decimal("13000.00"),
    "disability_per_passenger": Decimal("5000.00"),
    "third_party": Decimal("50000.00"),
}


def load(today: dt.date, summary: Any) -> None:
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        vehicles = list(
            Vehicle.unscoped.filter(jurisdiction=jurisdiction, deregistered_on__isnull=True).order_by(
                "plate"
            )[:3]
        )
        if not vehicles:
            continue
        _campaign(jurisdiction, today, summary)
        for n, vehicle in enumerate(vehicles):
            _insurance(vehicle, n, today, summary)
            if n == 1:
                _failed(vehicle, today, summary)
            else:
                _passed(vehicle, today, summary)
        _reregister(vehicles[0], today, summary)
        _near_age_limit(jurisdiction, vehicles[0], today, summary)


def _count(summary: Any, created: bool) -> None:
    if created:
        summary.created += 1
    else:
        summary.existing += 1


def _insurance(vehicle: Vehicle, n: int, today: dt.date, summary: Any) -> None:
    number = f"DEMO-{vehicle.plate}"
    if InsurancePolicy.unscoped.filter(vehicle=vehicle, number=number).exists():
        return _count(summary, False)
    until = today + dt.timedelta(days=20 if n == 0 else 200)
    services.register_insurance(
        actor=None,
        vehicle=vehicle,
        insurer="Seguradora Demonstração S.A.",
        number=number,
        valid_from=until - dt.timedelta(days=364),
        valid_until=until,
        reason=REASON,
        **COVER,
    )
    _count(summary, True)


def _passed(vehicle: Vehicle, today: dt.date, summary: Any) -> None:
    done = (Inspection.Status.PASSED, Inspection.Status.FAILED)
    if Inspection.unscoped.filter(vehicle=vehicle, status__in=done).exists():
        return _count(summary, False)  # an over-age vehicle fails: it stays failed in the demo
    day = today - dt.timedelta(days=30)
    inspection = Inspection.unscoped.filter(vehicle=vehicle, status=Inspection.Status.SCHEDULED).first()
    if inspection is None:
        inspection = services.schedule_inspection(
            actor=None,
            vehicle=vehicle,
            scheduled_for=day,
            place="Pátio do órgão gestor",
            reason=REASON,
            on=day,
        )
    items, _cite, _why = services.checklist_for(vehicle.jurisdiction_id, day)
    try:
        services.record_inspection(
            actor=None,
            inspection=inspection,
            performed_on=day,
            checklist={item["id"]: True for item in items or []},
            representation_due=today + dt.timedelta(days=15),
            reason=REASON,
        )
    except ValidationError:
        return  # e.g. clearance blocks it: the demo leaves the inspection scheduled
    _count(summary, True)


def _failed(vehicle: Vehicle, today: dt.date, summary: Any) -> None:
    if Inspection.unscoped.filter(vehicle=vehicle, status=Inspection.Status.FAILED).exists():
        return _count(summary, False)
    day = today - dt.timedelta(days=3)
    inspection = services.schedule_inspection(
        actor=None, vehicle=vehicle, scheduled_for=day, place="Pátio do órgão gestor", reason=REASON, on=day
    )
    items, _cite, _why = services.checklist_for(vehicle.jurisdiction_id, day)
    answers = {item["id"]: True for item in items or []}
    if answers:
        answers[next(iter(answers))] = False
    try:
        services.record_inspection(
            actor=None,
            inspection=inspection,
            performed_on=day,
            checklist=answers,
            faults=["Pneus dianteiros com desgaste acima do limite", "Extintor de incêndio vencido"],
            representation_due=today + dt.timedelta(days=12),
            reason=REASON,
        )
    except ValidationError:
        return
    _count(summary, True)


def _near_age_limit(jurisdiction: Jurisdiction, model: Vehicle, today: dt.date, summary: Any) -> None:
    """A vehicle whose age limit is reached on 1 January next year (age = the limit today)."""
    years, _cite = rules.max_age_years(jurisdiction.code, model.category, today)
    if years is None:
        return
    plate = f"{model.plate[:3]}9Z{years:02d}"[:7]
    if Vehicle.unscoped.filter(jurisdiction=jurisdiction, plate=plate).exists():
        return _count(summary, False)
    from lotacao.registry import services as registry_services

    registry_services.create_vehicle(
        actor=None,
        jurisdiction=jurisdiction,
        plate=plate,
        manufacture_year=today.year - years,
        category=model.category,
        seats=model.seats,
        doors=model.doors,
        make_model=model.make_model,
        holder=None,
        reason=f"{REASON}: veículo próximo da idade limite",
    )
    _count(summary, True)


def _reregister(vehicle: Vehicle, today: dt.date, summary: Any) -> None:
    campaign = ReregistrationCampaign.unscoped.filter(
        jurisdiction_id=vehicle.jurisdiction_id, year=today.year
    ).first()
    if campaign is None or today < campaign.starts_on:
        return
    if Reregistration.unscoped.filter(campaign=campaign, vehicle=vehicle).exists():
        return _count(summary, False)
    try:
        services.reregister_vehicle(actor=None, campaign=campaign, vehicle=vehicle, on=today, reason=REASON)
    except ValidationError:
        return
    _count(summary, True)


def _campaign(jurisdiction: Jurisdiction, today: dt.date, summary: Any) -> None:
    if rules.value(jurisdiction.code, "reregistration.yearly", today) is not True:
        return
    if ReregistrationCampaign.unscoped.filter(jurisdiction=jurisdiction, year=today.year).exists():
        return _count(summary, False)
    services.open_campaign(
        actor=None,
        jurisdiction=jurisdiction,
        year=today.year,
        starts_on=dt.date(today.year, 1, 2),
        ends_on=dt.date(today.year, 12, 30),
        reason=REASON,
        notes="Calendário de demonstração.",
    )
    _count(summary, True)
