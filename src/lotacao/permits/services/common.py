"""Steps every stage of a permit's life shares: the reason, the date, the locked row, the audit,
the agents leaving with the permit and the re-entry bans the law attaches to an ending."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.permits import rules
from lotacao.permits.models import Ban, Permit, PermitAgent, PermitCounter
from lotacao.registry.models import Company, Line, Person, Vehicle


def today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def require_reason(reason: str) -> None:
    if not reason or not reason.strip():
        raise ValidationError("Informe o motivo.")


def law_has_permits(code: str, on: dt.date) -> None:
    if rules.entry(code, "permit.term", on) is None:
        raise ValidationError(f"A {rules.law_name(code)} não regula permissões deste serviço.")


def same_jurisdiction(code: str, line: Line | None, vehicle: Vehicle | None) -> None:
    for obj, label in ((line, "linha"), (vehicle, "veículo")):
        if obj is not None and obj.jurisdiction_id != code:
            raise ValidationError(f"A {label} pertence a outra jurisdição.")


def fresh(permit: Permit) -> Permit:
    """Re-read and lock the permit row (the caller's copy may be stale)."""
    return Permit.unscoped.select_for_update().get(pk=permit.pk)


def lock_counter(code: str) -> PermitCounter:
    """The jurisdiction's counter row, locked until the end of the transaction: grants (and the
    register's imports) of one jurisdiction run one at a time, so quotas and numbers hold."""
    try:
        with transaction.atomic():
            PermitCounter.unscoped.get_or_create(jurisdiction_id=code)
    except IntegrityError:  # a concurrent grant created it first
        pass
    return PermitCounter.unscoped.select_for_update().get(jurisdiction_id=code)


def transition(*, actor: Any, permit: Permit, changes: dict[str, Any], reason: str, action: str) -> Permit:
    return update_audited(actor=actor, instance=permit, changes=changes, reason=reason, action=action)


def end_agents(*, actor: Any, permit: Permit, day: dt.date, reason: str) -> None:
    """The permit's agents leave with it (those still registered, or registered beyond `day`)."""
    for agent in PermitAgent.unscoped.filter(permit=permit, ends_on__isnull=True):
        update_audited(
            actor=actor, instance=agent, changes={"ends_on": day}, reason=reason, action="agent.ended"
        )
    for agent in PermitAgent.unscoped.filter(permit=permit, ends_on__gt=day):
        update_audited(
            actor=actor, instance=agent, changes={"ends_on": day}, reason=reason, action="agent.ended"
        )


def record_ban(
    *,
    actor: Any,
    code: str,
    parameter: str,
    cause: str,
    day: dt.date,
    reason: str,
    person: Person | None = None,
    company: Company | None = None,
    permit: Permit | None = None,
) -> Ban | None:
    """The re-entry ban the law's `parameter` sets from `day`; None where the law sets none."""
    duration = rules.entry(code, parameter, day)
    if duration is None or duration.status != "value":
        return None
    ban = Ban(
        jurisdiction_id=code,
        person=person,
        company=company,
        permit=permit,
        cause=cause,
        starts_on=day,
        ends_on=rules.add(day, duration.value),
        citation=str(duration.citation),
    )
    return create_audited(actor=actor, instance=ban, reason=reason, action="ban.recorded")
