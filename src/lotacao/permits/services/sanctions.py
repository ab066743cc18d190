"""Sanctions on the permit: suspension and its end, revocation (cassação) and the re-entry bans the
law attaches to a revocation or to the loss of a service; and their undoing where a decision took
effect before its appeal was judged and the appeal annulled or reduced it (Recife art. 43,
parágrafo único): the suspension shortened or ended, the permit restored, the ban lifted."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import update_audited
from lotacao.core.formats import br_date
from lotacao.permits import rules
from lotacao.permits.models import Ban, Permit, PermitAgent
from lotacao.permits.services.common import end_agents, fresh, record_ban, require_reason, today, transition
from lotacao.permits.services.lifecycle import permit_ended, permit_started
from lotacao.permits.states import require
from lotacao.registry.models import Company, Person

S = Permit.Status


@transaction.atomic
def suspend_permit(
    *, actor: Any, permit: Permit, until: dt.date, reason: str, on: dt.date | None = None
) -> Permit:
    require_reason(reason)
    day = today(on)
    permit = fresh(permit)
    require(permit, "suspend", day)
    if until <= day:
        raise ValidationError("A suspensão precisa de uma data final posterior a hoje.")
    if permit.valid_until is not None and until > permit.valid_until:
        raise ValidationError(
            f"A suspensão não pode passar do vencimento da permissão ({br_date(permit.valid_until)})."
        )
    return transition(
        actor=actor,
        permit=permit,
        changes={"status": S.SUSPENDED, "suspended_until": until},
        reason=reason,
        action="permit.suspended",
    )


@transaction.atomic
def reinstate_permit(*, actor: Any, permit: Permit, reason: str, on: dt.date | None = None) -> Permit:
    require_reason(reason)
    day = today(on)
    permit = fresh(permit)
    require(permit, "reinstate", day)
    if permit.suspended_until is not None and permit.suspended_until >= day:
        raise ValidationError(
            f"A suspensão vai até {br_date(permit.suspended_until)}: reative a partir do dia seguinte."
        )
    return transition(
        actor=actor,
        permit=permit,
        changes={"status": S.ACTIVE, "suspended_until": None},
        reason=reason,
        action="permit.reinstated",
    )


@transaction.atomic
def revoke_permit(*, actor: Any, permit: Permit, reason: str, on: dt.date | None = None) -> Permit:
    """Revoke (cassação): the permit ends, its agents leave, and the holder's re-entry ban is recorded."""
    require_reason(reason)
    day = today(on)
    permit = fresh(permit)
    require(permit, "revoke", day)
    transition(
        actor=actor,
        permit=permit,
        changes={"status": S.REVOKED, "ends_on": day, "suspended_until": None},
        reason=reason,
        action="permit.revoked",
    )
    end_agents(actor=actor, permit=permit, day=day, reason=f"Cassação da {permit}.")
    permit_ended(actor=actor, permit=permit, on=day, reason=f"Cassação da {permit}: {reason}")
    holder = permit.holder
    record_ban(
        actor=actor,
        code=permit.jurisdiction_id,
        parameter="permit.ban_after_revocation",
        cause=Ban.Cause.REVOCATION,
        day=day,
        reason=f"Cassação da {permit}: {reason}",
        person=holder.person,
        company=holder.company,
        permit=permit,
    )
    return permit


@transaction.atomic
def record_lost_service_ban(
    *, actor: Any, person: Person | None = None, company: Company | None = None, lost_on: dt.date, reason: str
) -> Ban:
    """Record that a person or company lost a service of the municipal system (entry ban, where the law
    has one)."""
    require_reason(reason)
    party = person or company
    if party is None:
        raise ValidationError("Informe a pessoa ou a empresa.")
    ban = record_ban(
        actor=actor,
        code=party.jurisdiction_id,
        parameter="permit.ban_after_lost_service",
        cause=Ban.Cause.LOST_SERVICE,
        day=lost_on,
        reason=reason,
        person=person,
        company=company,
    )
    if ban is None:
        raise ValidationError(f"A {rules.law_name(party.jurisdiction_id)} não prevê esse impedimento.")
    return ban


@transaction.atomic
def set_suspension_end(
    *, actor: Any, permit: Permit, until: dt.date, reason: str, on: dt.date | None = None
) -> Permit:
    """A suspension changed on appeal ends on `until`: the permit is active again from the day
    after, at once when `until` is already past. A permit no longer suspended is left alone."""
    require_reason(reason)
    day = today(on)
    permit = fresh(permit)
    if permit.status != S.SUSPENDED:
        return permit
    if until < day:
        return transition(
            actor=actor,
            permit=permit,
            changes={"status": S.ACTIVE, "suspended_until": None},
            reason=reason,
            action="permit.reinstated",
        )
    return transition(
        actor=actor,
        permit=permit,
        changes={"suspended_until": until},
        reason=reason,
        action="permit.suspension_reduced",
    )


@transaction.atomic
def restore_permit(*, actor: Any, permit: Permit, reason: str, on: dt.date | None = None) -> Permit:
    """Undo a revocation annulled or reduced on appeal: the permit is active again, the agents it
    ended leave no gap (their link is restored) and the ban it caused is lifted."""
    require_reason(reason)
    day = today(on)
    permit = fresh(permit)
    require(permit, "restore", day)
    revoked_on = permit.ends_on
    transition(
        actor=actor,
        permit=permit,
        changes={"status": S.ACTIVE, "ends_on": None},
        reason=reason,
        action="permit.restored",
    )
    if revoked_on is not None:
        for agent in PermitAgent.unscoped.filter(permit=permit, ends_on=revoked_on):
            update_audited(
                actor=actor, instance=agent, changes={"ends_on": None}, reason=reason, action="agent.restored"
            )
    for ban in Ban.unscoped.filter(permit=permit, cause=Ban.Cause.REVOCATION, lifted_on__isnull=True):
        lift_ban(actor=actor, ban=ban, reason=reason, on=day)
    permit_started(
        actor=actor,
        permit=permit,
        on=revoked_on or day,
        act=reason.strip(),
        reason=reason,
        what="O restabelecimento",
    )
    return permit


@transaction.atomic
def lift_ban(*, actor: Any, ban: Ban, reason: str, on: dt.date | None = None) -> Ban:
    """Lift a re-entry ban whose cause was undone (kept on record with the date and why)."""
    require_reason(reason)
    day = today(on)
    ban = Ban.unscoped.select_for_update().get(pk=ban.pk)
    if ban.lifted_on is not None:
        raise ValidationError(f"O impedimento já foi levantado em {br_date(ban.lifted_on)}.")
    return update_audited(
        actor=actor,
        instance=ban,
        changes={"lifted_on": max(day, ban.starts_on), "lift_reason": reason.strip()},
        reason=reason,
        action="ban.lifted",
    )
