"""The inspection seal (selo de vistoria): issued for a passed inspection not yet sealed and, where
the law says so, only after the vehicle's re-registration for the year."""

from __future__ import annotations

import datetime as dt
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited
from lotacao.inspections import rules
from lotacao.inspections.models import Inspection, Reregistration, Seal
from lotacao.law.packs import Entry
from lotacao.registry.models import Vehicle


@transaction.atomic
def issue_seal(*, actor: Any, vehicle: Vehicle, reason: str, on: dt.date | None = None) -> Seal:
    """Issue the seal: needs a passed inspection not yet sealed and, where the law says so
    (`inspection.seal.requires_reregistration`), the vehicle's re-registration for the year."""
    day = on or timezone.localdate()
    code = vehicle.jurisdiction_id
    Vehicle.unscoped.select_for_update().filter(pk=vehicle.pk).first()
    rule, found = rules.seal_rule(code, day)
    if rule is None:
        why = f" — {found.reason} ({found.citation})" if found is not None else ""
        raise ValidationError(
            f"A lei não define a validade do selo de vistoria{why}. O órgão gestor precisa informá-la."
        )
    assert found is not None
    if vehicle.deregistered_on is not None:
        raise ValidationError(f"O veículo {vehicle} foi baixado do serviço.")
    inspection = _inspection_to_seal(vehicle, day, found)
    reregistration = _reregistration_for(vehicle, day, found) if rule.get("requires_reregistration") else None
    year = day.year
    count = Seal.unscoped.filter(jurisdiction_id=code, issued_on__year=year).count() + 1
    seal = Seal(
        jurisdiction_id=code,
        vehicle=vehicle,
        inspection=inspection,
        reregistration=reregistration,
        number=f"S-{year}-{count:05d}",
        issued_on=day,
        valid_until=_seal_until(rule, day, inspection.performed_on or day),
        citations=[found.citation],
    )
    return create_audited(actor=actor, instance=seal, reason=reason, action="seal.issued")


def _inspection_to_seal(vehicle: Vehicle, day: dt.date, found: Entry) -> Inspection:
    """The latest passed inspection of the vehicle that has no seal yet."""
    inspection = (
        Inspection.unscoped.filter(
            vehicle=vehicle, status=Inspection.Status.PASSED, seal__isnull=True, performed_on__lte=day
        )
        .order_by("-performed_on", "-id")
        .first()
    )
    if inspection is None:
        raise ValidationError(
            f"Selo recusado: o veículo {vehicle} não tem vistoria aprovada pendente de selo "
            f"({found.citation})."
        )
    return inspection


def _reregistration_for(vehicle: Vehicle, day: dt.date, found: Entry) -> Reregistration:
    reregistration = (
        Reregistration.unscoped.filter(vehicle=vehicle, campaign__year=day.year)
        .select_related("campaign")
        .first()
    )
    if reregistration is None:
        raise ValidationError(
            f"Selo recusado: o selo do exercício {day.year} só é emitido após o recadastramento do "
            f"veículo ({found.citation})."
        )
    return reregistration


def _seal_until(rule: dict[str, Any], day: dt.date, inspected: dt.date) -> dt.date:
    if rule.get("fiscal_year"):
        return dt.date(day.year, 12, 31)
    months = int(rule.get("valid_for_months") or 12)
    return inspected + relativedelta(months=months) - dt.timedelta(days=1)
