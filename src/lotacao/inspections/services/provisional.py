"""The provisional authorization of a vehicle over the age the law admits (Maricá art. 25, § 6º):
the holder selected in the tender whose vehicle is older than the law's years has the law's months,
counted from the selection, to replace it; meanwhile a provisional authorization lets it operate.

    in force --replace--> replaced (the vehicle was replaced)
    in force --expire---> expired (the term is over: the daily job `expire_provisionals`)
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import lower_first
from lotacao.core.law import pack_for
from lotacao.inspections import rules
from lotacao.inspections.models import ProvisionalAuthorization
from lotacao.registry.models import Vehicle

P = ProvisionalAuthorization.Status


def _need(text: str, message: str) -> str:
    if not (text or "").strip():
        raise ValidationError(message)
    return text.strip()


@transaction.atomic
def grant_provisional(
    *,
    actor: Any,
    vehicle: Vehicle,
    tender_act: str,
    selected_on: dt.date,
    reason: str,
    on: dt.date | None = None,
) -> ProvisionalAuthorization:
    """Issue the provisional authorization: refused where the law has none, when the vehicle is
    not older than the law's years at the selection, when the term is already over, and when one
    is in force."""
    _need(reason, "Informe o motivo.")
    day = on or timezone.localdate()
    code = vehicle.jurisdiction_id
    rule = rules.provisional_rule(code, day)
    if rule is None:
        raise ValidationError(
            f"A {pack_for(code).law} não prevê autorização provisória para veículo acima da idade."
        )
    tender_act = _need(
        tender_act,
        f"Informe o certame licitatório e o ato que selecionou o permissionário ({rule.citation}).",
    )
    if vehicle.holder_id is None:
        raise ValidationError("O veículo não está vinculado a um permissionário selecionado no certame.")
    if selected_on is None or selected_on > day:
        raise ValidationError("A data da seleção no certame não pode ser futura.")
    age = selected_on.year - int(vehicle.manufacture_year)
    if age <= rule.older_than_years:
        raise ValidationError(
            f"O veículo tinha {age} anos na seleção: a autorização provisória é para veículo com mais de "
            f"{rule.older_than_years} anos ({rule.citation})."
        )
    until = selected_on + relativedelta(months=rule.term_months)
    if until < day:
        raise ValidationError(
            f"O prazo de {rule.term_months} meses para a substituição, contado da seleção em "
            f"{rules.pt(selected_on)}, terminou em {rules.pt(until)} ({rule.citation})."
        )
    if ProvisionalAuthorization.unscoped.filter(vehicle=vehicle, status=P.IN_FORCE).exists():
        raise ValidationError("O veículo já tem autorização provisória em vigor.")
    authorization = ProvisionalAuthorization(
        jurisdiction_id=code,
        vehicle=vehicle,
        tender_act=tender_act[:200],
        selected_on=selected_on,
        granted_on=day,
        valid_until=until,
        citation=rule.citation[:300],
    )
    return create_audited(
        actor=actor, instance=authorization, reason=reason, action="inspections.provisional_granted"
    )


@transaction.atomic
def end_provisional(
    *, actor: Any, authorization: ProvisionalAuthorization, reason: str, on: dt.date | None = None
) -> ProvisionalAuthorization:
    """The vehicle was replaced: the provisional authorization ends."""
    _need(reason, "Informe o motivo (a substituição do veículo).")
    day = on or timezone.localdate()
    row = ProvisionalAuthorization.unscoped.select_for_update().get(pk=authorization.pk)
    if row.status != P.IN_FORCE:
        raise ValidationError(
            f"A autorização provisória não está em vigor ({lower_first(row.get_status_display())})."
        )
    return update_audited(
        actor=actor,
        instance=row,
        changes={"status": P.REPLACED, "ended_on": day},
        reason=reason,
        action="inspections.provisional_ended",
    )


def expire_provisionals(*, today: dt.date, actor: Any = None) -> int:
    """Daily: the provisional authorizations whose term is over expire."""
    count = 0
    for pk in list(
        ProvisionalAuthorization.unscoped.filter(status=P.IN_FORCE, valid_until__lt=today).values_list(
            "pk", flat=True
        )
    ):
        with transaction.atomic():
            row = ProvisionalAuthorization.unscoped.select_for_update().get(pk=pk)
            if row.status != P.IN_FORCE:
                continue
            update_audited(
                actor=actor,
                instance=row,
                changes={"status": P.EXPIRED, "ended_on": row.valid_until + dt.timedelta(days=1)},
                reason=(
                    f"Prazo da autorização provisória terminou em {rules.pt(row.valid_until)} "
                    f"({row.citation})"
                ),
                action="inspections.provisional_ended",
            )
            count += 1
    return count
