"""Permits and agents the agency granted before this system (its current register)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.permits import rules
from lotacao.permits.eligibility import active_bans
from lotacao.permits.models import Permit, PermitAgent
from lotacao.permits.services.common import law_has_permits, lock_counter, require_reason, same_jurisdiction
from lotacao.permits.services.lifecycle import permit_started
from lotacao.registry.models import Holder, Line, Person, Vehicle

S = Permit.Status


@transaction.atomic
def import_existing_permit(
    *,
    actor: Any,
    holder: Holder,
    line: Line,
    vehicle: Vehicle,
    number: str,
    granted_on: dt.date,
    valid_until: dt.date,
    reason: str,
    kind: str = Permit.Kind.REGULAR,
    existing_operator: bool = False,
) -> Permit:
    """Record a permit the agency granted before this system (its current register): no eligibility
    check — the grant already happened — but the register's own invariants (number, vehicle) hold."""
    require_reason(reason)
    code = holder.jurisdiction_id
    law_has_permits(code, granted_on)
    lock_counter(code)  # serialized with the grants of the jurisdiction
    if valid_until <= granted_on:
        raise ValidationError("A validade deve ser posterior à outorga.")
    if Permit.unscoped.filter(jurisdiction_id=code, number=number).exclude(status=S.TRANSFERRED).exists():
        raise ValidationError(f"Já existe a permissão nº {number}.")
    same_jurisdiction(code, line, vehicle)
    if Permit.unscoped.filter(vehicle=vehicle, status__in=Permit.LIVE).exists():
        raise ValidationError(
            f"O veículo {vehicle.plate_display} já está vinculado a outra permissão vigente."
        )
    permit = Permit(
        jurisdiction_id=code,
        number=number,
        holder=holder,
        line=line,
        vehicle=vehicle,
        status=S.ACTIVE,
        kind=kind,
        applied_on=granted_on,
        granted_on=granted_on,
        valid_until=valid_until,
        term_citation=rules.cite(code, "permit.term", granted_on),
        existing_operator=existing_operator,
    )
    permit = create_audited(actor=actor, instance=permit, reason=reason, action="permit.imported")
    permit_started(
        actor=actor,
        permit=permit,
        on=granted_on,
        act=f"Outorga da permissão nº {number} em {br_date(granted_on)}",
        reason=reason,
        what="O registro da permissão",
    )
    return permit


@transaction.atomic
def import_existing_agent(
    *, actor: Any, permit: Permit, person: Person, role: str, starts_on: dt.date, reason: str
) -> PermitAgent:
    """Record an agent registered before this system (limits, age and bans still apply)."""
    require_reason(reason)
    code = permit.jurisdiction_id
    limits = rules.value(code, "agents.limits", starts_on) or {}
    current = [a for a in PermitAgent.unscoped.filter(permit=permit, role=role) if a.is_current(starts_on)]
    if len(current) >= int(limits.get(role, 0)):
        raise ValidationError(
            f"A lei não admite mais alguém como {lower_first(PermitAgent.Role(role).label)} nesta permissão."
        )
    min_age = rules.value(code, "agents.min_age", starts_on)
    if min_age is not None and (
        person.birth_date is None or rules.age_on(person.birth_date, starts_on) < min_age
    ):
        raise ValidationError(f"O preposto deve ter ao menos {min_age} anos.")
    if active_bans(person=person, on=starts_on):
        raise ValidationError(f"{person} está em período de impedimento.")
    agent = PermitAgent(jurisdiction_id=code, permit=permit, person=person, role=role, starts_on=starts_on)
    return create_audited(actor=actor, instance=agent, reason=reason, action="agent.imported")
