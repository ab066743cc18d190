"""The holder's agents (prepostos: auxiliary and relief drivers, fare collectors): registration
within the law's limits, its end, its suspension and its revocation (cassação do cadastro), and
their undoing when an appeal annuls or reduces the decision that imposed them."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing.selectors import clearance
from lotacao.core.formats import br_date, lower_first
from lotacao.law.packs import Entry
from lotacao.permits import rules
from lotacao.permits.eligibility import _documents_module, active_bans, ban_reason
from lotacao.permits.models import Ban, Permit, PermitAgent
from lotacao.permits.services.common import fresh, record_ban, require_reason, today
from lotacao.permits.services.sanctions import lift_ban
from lotacao.permits.states import require
from lotacao.registry.models import Person


@transaction.atomic
def add_agent(
    *, actor: Any, permit: Permit, person: Person, role: str, reason: str, starts_on: dt.date | None = None
) -> PermitAgent:
    """Register an agent (condutor auxiliar, eventual, cobrador) within the limits the law sets."""
    require_reason(reason)
    day = today(starts_on)
    code = permit.jurisdiction_id
    permit = fresh(permit)
    require(permit, "agent", day)
    if role not in PermitAgent.Role.values:
        raise ValidationError(f"Função desconhecida: {role}.")
    label = lower_first(PermitAgent.Role(role).label)
    if person.jurisdiction_id != code:
        raise ValidationError("A pessoa pertence a outra jurisdição.")
    if permit.holder.person_id == person.pk:
        raise ValidationError("O próprio permissionário não é preposto da sua permissão.")
    _room_for(permit=permit, person=person, role=role, label=label, day=day)
    _old_enough(code=code, person=person, label=label, day=day)
    _not_barred(code=code, person=person, day=day)
    check = _documents_module().document_check(jurisdiction_code=code, role=role, person=person, on=day)
    if not check.complete:
        detail = " ".join(getattr(check, "explanation", []) or []) or "documentos incompletos"
        raise ValidationError(f"Cadastro do {label} incompleto: {detail}")
    clear = clearance(holder=permit.holder, on=day, procedure="agent")
    if not clear.clear:
        raise ValidationError(" ".join(clear.reasons))
    agent = PermitAgent(jurisdiction_id=code, permit=permit, person=person, role=role, starts_on=day)
    return create_audited(actor=actor, instance=agent, reason=reason, action="agent.added")


def _limits(code: str, day: dt.date) -> Entry:
    limits = rules.entry(code, "agents.limits", day)
    if limits is None:
        raise ValidationError(f"A {rules.law_name(code)} não prevê prepostos do permissionário.")
    if limits.status != "value":
        raise ValidationError(f"Número de prepostos não definido: {limits.reason} ({limits.citation}).")
    return limits


def _room_for(*, permit: Permit, person: Person, role: str, label: str, day: dt.date) -> None:
    """The law has this role, the person is not already in it, and the limit is not reached."""
    limits = _limits(permit.jurisdiction_id, day)
    limit = int(limits.value.get(role, 0))
    if limit == 0:
        raise ValidationError(f"A lei não prevê {label} nesta permissão ({limits.citation}).")
    current = [a for a in PermitAgent.unscoped.filter(permit=permit, role=role) if a.is_current(day)]
    if any(a.person_id == person.pk for a in current):
        raise ValidationError(f"{person} já é {label} desta permissão.")
    if len(current) >= limit:
        raise ValidationError(f"Limite de {limit} {label}(es) por permissão já atingido ({limits.citation}).")


def _old_enough(*, code: str, person: Person, label: str, day: dt.date) -> None:
    min_age = rules.entry(code, "agents.min_age", day)
    if min_age is None or min_age.status != "value":
        return
    if person.birth_date is None:
        raise ValidationError("Informe a data de nascimento do preposto.")
    if rules.age_on(person.birth_date, day) < int(min_age.value):
        raise ValidationError(f"O {label} deve ter ao menos {min_age.value} anos ({min_age.citation}).")


def _not_barred(*, code: str, person: Person, day: dt.date) -> None:
    """No re-entry ban in force, and no suspension of the person's registration as an agent."""
    for ban in active_bans(person=person, on=day):
        reason = ban_reason(ban, "CPF")
        raise ValidationError(f"{reason.message}, {reason.citation}.")
    suspended = PermitAgent.unscoped.filter(
        jurisdiction_id=code, person=person, suspended_until__gte=day
    ).order_by("-suspended_until")
    if suspended.exists():
        until = suspended[0].suspended_until
        assert until is not None
        raise ValidationError(
            f"O cadastro de {person} como preposto está suspenso até {br_date(until)} por decisão definitiva."
        )


@transaction.atomic
def end_agent(*, actor: Any, agent: PermitAgent, reason: str, ends_on: dt.date | None = None) -> PermitAgent:
    require_reason(reason)
    day = today(ends_on)
    agent = PermitAgent.unscoped.select_for_update().get(pk=agent.pk)
    if agent.ends_on is not None and agent.ends_on <= day:
        raise ValidationError("O vínculo deste preposto já terminou.")
    if day < agent.starts_on:
        raise ValidationError("O fim do vínculo não pode ser anterior ao início.")
    return update_audited(
        actor=actor, instance=agent, changes={"ends_on": day}, reason=reason, action="agent.ended"
    )


@transaction.atomic
def suspend_agent(
    *, actor: Any, agent: PermitAgent, until: dt.date, reason: str, on: dt.date | None = None
) -> PermitAgent:
    """Suspend an agent's registration until a date (a final decision's penalty)."""
    require_reason(reason)
    day = today(on)
    agent = PermitAgent.unscoped.select_for_update().get(pk=agent.pk)
    if not agent.is_current(day):
        raise ValidationError("O vínculo deste preposto não está em vigor nesta data.")
    if until < day:
        raise ValidationError("A suspensão precisa terminar depois do seu início.")
    if agent.suspended_until is not None and agent.suspended_until >= until:
        raise ValidationError(f"O cadastro já está suspenso até {br_date(agent.suspended_until)}.")
    return update_audited(
        actor=actor,
        instance=agent,
        changes={"suspended_until": until},
        reason=reason,
        action="agent.suspended",
    )


@transaction.atomic
def revoke_agent(*, actor: Any, agent: PermitAgent, reason: str, on: dt.date | None = None) -> Ban | None:
    """Revoke an agent's registration (cassação do cadastro); records the ban where the law sets one."""
    day = today(on)
    agent = end_agent(actor=actor, agent=agent, reason=f"Cassação do cadastro: {reason}", ends_on=day)
    return record_ban(
        actor=actor,
        code=agent.jurisdiction_id,
        parameter="agents.ban_after_revocation",
        cause=Ban.Cause.AGENT_REVOCATION,
        day=day,
        reason=f"Cassação do cadastro de {agent}: {reason}",
        person=agent.person,
        permit=agent.permit,
    )


@transaction.atomic
def shorten_agent_suspension(
    *, actor: Any, agent: PermitAgent, until: dt.date | None, reason: str
) -> PermitAgent:
    """A suspension of the registration reduced (`until`) or lifted (None) on appeal."""
    require_reason(reason)
    agent = PermitAgent.unscoped.select_for_update().get(pk=agent.pk)
    if agent.suspended_until is None or (until is not None and until >= agent.suspended_until):
        return agent
    return update_audited(
        actor=actor,
        instance=agent,
        changes={"suspended_until": until},
        reason=reason,
        action="agent.suspension_reduced",
    )


@transaction.atomic
def restore_agent(*, actor: Any, agent: PermitAgent, reason: str, on: dt.date | None = None) -> PermitAgent:
    """Undo the revocation of an agent's registration (annulled or reduced on appeal): the link
    runs again while the permit is live, and the ban it caused is lifted."""
    require_reason(reason)
    day = today(on)
    agent = PermitAgent.unscoped.select_for_update().get(pk=agent.pk)
    revoked_on = agent.ends_on
    if revoked_on is None:
        raise ValidationError("O vínculo deste preposto está em vigor.")
    permit = Permit.unscoped.get(pk=agent.permit_id)
    if permit.effective_status(day) in Permit.LIVE:
        agent = update_audited(
            actor=actor, instance=agent, changes={"ends_on": None}, reason=reason, action="agent.restored"
        )
    bans = Ban.unscoped.filter(
        person_id=agent.person_id,
        cause=Ban.Cause.AGENT_REVOCATION,
        starts_on=revoked_on,
        lifted_on__isnull=True,
    )
    for ban in bans:
        lift_ban(actor=actor, ban=ban, reason=reason, on=day)
    return agent
