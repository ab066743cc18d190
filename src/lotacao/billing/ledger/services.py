"""Write services of billing: issue a charge, record its payment, cancel it (audited)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing.models import Charge
from lotacao.core.formats import br_date
from lotacao.registry.models import Holder


@transaction.atomic
def issue_charge(
    *,
    actor: Any,
    holder: Holder,
    kind: str,
    description: str,
    amount: Decimal | str,
    due_on: dt.date,
    reason: str,
    reference: str = "",
) -> Charge:
    if kind not in Charge.Kind.values:
        raise ValidationError(f"Natureza de cobrança desconhecida: {kind}.")
    try:
        value = Decimal(str(amount))
    except InvalidOperation as error:
        raise ValidationError(f"Valor inválido: {amount}.") from error
    if value <= 0:
        raise ValidationError("O valor da cobrança deve ser positivo.")
    charge = Charge(
        jurisdiction_id=holder.jurisdiction_id,
        holder=holder,
        kind=kind,
        description=description.strip(),
        amount=value.quantize(Decimal("0.01")),
        due_on=due_on,
        reference=reference.strip(),
    )
    return create_audited(actor=actor, instance=charge, reason=reason, action="charge.issued")


@transaction.atomic
def record_payment(
    *, actor: Any, charge: Charge, paid_on: dt.date, reason: str, payment_reference: str = ""
) -> Charge:
    charge = Charge.unscoped.select_for_update().get(pk=charge.pk)
    if charge.cancelled:
        raise ValidationError("Cobrança cancelada não pode ser paga.")
    if charge.paid_on is not None:
        raise ValidationError(f"Cobrança já paga em {br_date(charge.paid_on)}.")
    return update_audited(
        actor=actor,
        instance=charge,
        changes={"paid_on": paid_on, "payment_reference": payment_reference.strip()},
        reason=reason,
        action="charge.paid",
    )


@transaction.atomic
def cancel_charge(*, actor: Any, charge: Charge, reason: str) -> Charge:
    charge = Charge.unscoped.select_for_update().get(pk=charge.pk)
    if charge.paid_on is not None:
        raise ValidationError("Cobrança paga não pode ser cancelada.")
    return update_audited(
        actor=actor, instance=charge, changes={"cancelled": True}, reason=reason, action="charge.cancelled"
    )


@transaction.atomic
def set_contested(*, actor: Any, charge: Charge, contested: bool, reason: str) -> Charge:
    """Mark a fine as under defense or appeal (or no longer), as the judging workflow decides."""
    charge = Charge.unscoped.select_for_update().get(pk=charge.pk)
    return update_audited(
        actor=actor,
        instance=charge,
        changes={"contested": contested},
        reason=reason,
        action="charge.contested",
    )
