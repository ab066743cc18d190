"""The application (requerimento) and its assessment: who asks, for what, and whether they may."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited
from lotacao.permits import rules
from lotacao.permits.eligibility import Eligibility, check_eligibility
from lotacao.permits.models import Permit
from lotacao.permits.services.common import (
    fresh,
    law_has_permits,
    require_reason,
    same_jurisdiction,
    today,
    transition,
)
from lotacao.permits.states import require
from lotacao.registry.models import Holder, Line, Vehicle

S = Permit.Status


def _kind_exists(code: str, kind: str, day: dt.date) -> None:
    if kind not in Permit.Kind.values:
        raise ValidationError(f"Espécie de permissão desconhecida: {kind}.")
    if kind == Permit.Kind.PROVISIONAL and rules.entry(code, "permit.provisional_max_term", day) is None:
        raise ValidationError(f"A {rules.law_name(code)} não prevê permissão provisória.")


@transaction.atomic
def apply_for_permit(
    *,
    actor: Any,
    holder: Holder,
    reason: str,
    applied_on: dt.date | None = None,
    kind: str = Permit.Kind.REGULAR,
    line: Line | None = None,
    vehicle: Vehicle | None = None,
    existing_operator: bool = False,
    association_member: bool = False,
    service_months: int = 0,
    infraction_count: int = 0,
    residence_since: dt.date | None = None,
    other_service: str = "",
) -> Permit:
    """File an application (requerimento) for a permit."""
    require_reason(reason)
    day = today(applied_on)
    code = holder.jurisdiction_id
    law_has_permits(code, day)
    _kind_exists(code, kind, day)
    same_jurisdiction(code, line, vehicle)
    permit = Permit(
        jurisdiction_id=code,
        holder=holder,
        kind=kind,
        line=line,
        vehicle=vehicle,
        applied_on=day,
        existing_operator=existing_operator,
        association_member=association_member,
        service_months=service_months,
        infraction_count=infraction_count,
        residence_since=residence_since,
        other_service=other_service.strip(),
        status=S.APPLICATION,
    )
    return create_audited(actor=actor, instance=permit, reason=reason, action="permit.applied")


@transaction.atomic
def assess_application(*, actor: Any, permit: Permit, reason: str, on: dt.date | None = None) -> Eligibility:
    """Check the application's eligibility; it becomes eligible or ineligible (with every reason)."""
    day = today(on)
    permit = fresh(permit)
    require(permit, "assess", day)
    result = check_eligibility(holder=permit.holder, on=day, application=permit)
    transition(
        actor=actor,
        permit=permit,
        changes={"status": S.ELIGIBLE if result.eligible else S.INELIGIBLE, "eligibility": result.as_dict()},
        reason=reason if result.eligible else f"{reason} — {result.summary()}",
        action="permit.assessed",
    )
    return result
