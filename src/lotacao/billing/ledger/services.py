"""Write services of the ledger: issue a charge (directly, or a fee of the law through the engine),
record its payment, cancel it, mark it contested, open and close a holder's billing register."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing import lawdata
from lotacao.billing.ledger.models import Account, Charge, Payment
from lotacao.core import law
from lotacao.core.formats import br_date, brl
from lotacao.core.providers import providers
from lotacao.registry.models import Holder

CENT = Decimal("0.01")


def _money(amount: Decimal | str | int) -> Decimal:
    try:
        value = Decimal(str(amount))
    except InvalidOperation as error:
        raise ValidationError(f"Valor inválido: {amount}.") from error
    if not value.is_finite():
        raise ValidationError(f"Valor inválido: {amount}.")
    return value.quantize(CENT, ROUND_HALF_UP)


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
    fee: str = "",
    citation: str = "",
    competence: dt.date | None = None,
    fund: str | None = None,
    fiscal_unit: str = "",
    units: Decimal | None = None,
    unit_value: Decimal | None = None,
) -> Charge:
    """A charge of the holder. The fund is the law's earmark of the fee (or of fines) unless
    given; `fiscal_unit`, `units` and `unit_value` record an amount stated in a fiscal unit."""
    if kind not in Charge.Kind.values:
        raise ValidationError(f"Natureza de cobrança desconhecida: {kind}.")
    value = _money(amount)
    if value <= 0:
        raise ValidationError("O valor da cobrança deve ser positivo.")
    if fund is None:
        source = lawdata.FINES if kind == Charge.Kind.FINE else fee
        fund = lawdata.fund_of(holder.jurisdiction_id, source, due_on) if source else ""
    charge = Charge(
        jurisdiction_id=holder.jurisdiction_id,
        holder=holder,
        kind=kind,
        fee=fee,
        description=description.strip(),
        amount=value,
        due_on=due_on,
        reference=reference.strip(),
        citation=citation[:500],
        competence=competence,
        fund=fund,
        fiscal_unit=fiscal_unit,
        units=units,
        unit_value=unit_value,
    )
    return create_audited(actor=actor, instance=charge, reason=reason, action="charge.issued")


def evaluate_fee(code: str, fee_id: str, on: dt.date, **inputs: Any) -> dict[str, Any]:
    """The engine's answer for one fee of the law on `on` (refuses a fee the law does not have)."""
    if fee_id not in lawdata.fee_ids(code):
        raise ValidationError(f"A lei desta jurisdição não tem a taxa pedida ({fee_id}).")
    case = {"jurisdiction": code, "kind": "fee", "fee": fee_id, "date": on.isoformat(), **inputs}
    result = law.evaluate_case(case)
    if "error" in result:
        raise ValidationError(str(result["error"]["message"]))
    return result


@transaction.atomic
def issue_fee(
    *,
    actor: Any,
    holder: Holder,
    fee: str,
    on: dt.date,
    due_on: dt.date | None = None,
    reason: str,
    reference: str = "",
    months: int | None = None,
) -> Charge:
    """A fixed fee of the law (second copy, certificate, re-registration, advertising per month…),
    valued by the engine on `on` with the agency's dated values (readjustments included)."""
    code = holder.jurisdiction_id
    inputs: dict[str, Any] = {"months": months} if months is not None else {}
    result = evaluate_fee(code, fee, on, **inputs)
    label = lawdata.description(code, f"fee.{fee}")
    if result.get("amount") is None:
        raise ValidationError(f"{label}: a lei não fixa o valor em {br_date(on)} — {result['explanation']}")
    amount = Decimal(str(result["amount"]))
    if amount <= 0:
        raise ValidationError(f"{label}: não é devida ({result['explanation']}).")
    return issue_charge(
        actor=actor,
        holder=holder,
        kind=Charge.Kind.FEE,
        fee=fee,
        description=f"{label} — {brl(amount)}",
        amount=amount,
        due_on=due_on or on,
        reason=reason,
        reference=reference,
        citation="; ".join(result.get("citations", [])),
    )


def late_amount(charge: Charge, paid_on: dt.date) -> tuple[Decimal, str]:
    """Late penalty and interest owed when `charge` is paid on `paid_on`: only where the agency
    recorded the act that sets them (`billing.late_charges`); interest per month or part of a
    month after the due date."""
    if paid_on <= charge.due_on:
        return Decimal("0.00"), ""
    rule = lawdata.late_charges(charge.jurisdiction_id, paid_on)
    if rule is None:
        return Decimal("0.00"), ""
    penalty, interest, cite = rule
    months = ((paid_on - charge.due_on).days + 29) // 30
    extra = charge.amount * (penalty + interest * months) / 100
    word = "mês" if months == 1 else "meses"
    text = f"multa de mora de {penalty}% e juros de {interest}% ao mês por {months} {word} de atraso ({cite})"
    return extra.quantize(CENT, ROUND_HALF_UP), text


def paid_so_far(charge: Charge) -> Decimal:
    """What earlier (partial) payments of the charge already brought in."""
    return sum((p.amount for p in Payment.unscoped.filter(charge_id=charge.pk)), Decimal("0.00"))


def outstanding(charge: Charge, on: dt.date) -> Decimal:
    """What is still owed on `on`: the amount and its late charges, less what was paid before."""
    extra, _ = late_amount(charge, on)
    return charge.amount + extra - paid_so_far(charge)


@transaction.atomic
def record_payment(
    *,
    actor: Any,
    charge: Charge,
    paid_on: dt.date,
    reason: str,
    payment_reference: str = "",
    amount: Decimal | str | None = None,
    method: str = Payment.Method.SYSTEM,
    bank_transaction: str = "",
    bank_import: Any = None,
    accept_difference: bool = False,
) -> Charge:
    """Record the payment of a charge: the amount due on `paid_on` (late charges included where
    the agency's act sets them), less earlier partial payments; the fine's own module hears of it
    through `charge_paid` when the charge is paid whole.

    A different value is refused unless `accept_difference` (the bank's credits: money that came
    in is recorded, never dropped): less than due is a partial payment that leaves the charge open
    for the rest; more than due pays it and the excess is the caller's to queue for refund."""
    charge = Charge.unscoped.select_for_update().get(pk=charge.pk)
    if charge.cancelled:
        raise ValidationError("Cobrança cancelada não pode ser paga.")
    if charge.paid_on is not None:
        raise ValidationError(f"Cobrança já paga em {br_date(charge.paid_on)}.")
    extra, _ = late_amount(charge, paid_on)
    due = outstanding(charge, paid_on)
    paid = due if amount is None else _money(amount)
    if paid <= 0:
        raise ValidationError("O valor pago deve ser positivo.")
    if paid != due and not accept_difference:
        raise ValidationError(
            f"Valor pago ({brl(paid)}) diferente do devido em {br_date(paid_on)} ({brl(due)})."
        )
    payment = Payment(
        jurisdiction_id=charge.jurisdiction_id,
        charge=charge,
        paid_on=paid_on,
        amount=paid,
        late_amount=extra,
        due_amount=due,
        method=method,
        reference=payment_reference.strip()[:100],
        bank_transaction=bank_transaction.strip()[:100],
        bank_import=bank_import,
    )
    try:
        with transaction.atomic():
            create_audited(actor=actor, instance=payment, reason=reason, action="payment.recorded")
    except (IntegrityError, ValidationError) as error:
        raise ValidationError("Pagamento já registrado para esta transação bancária.") from error
    if paid < due:  # partial: the charge stays open for the rest
        return charge
    charge = update_audited(
        actor=actor,
        instance=charge,
        changes={"paid_on": paid_on, "payment_reference": payment_reference.strip()[:100]},
        reason=reason,
        action="charge.paid",
    )
    if method != Payment.Method.SYSTEM:  # a payment another module recorded is already known there
        for _, hook in providers("charge_paid"):
            hook(charge=charge, paid_on=paid_on, actor=actor, reason=reason)
    return charge


@transaction.atomic
def cancel_charge(*, actor: Any, charge: Charge, reason: str) -> Charge:
    charge = Charge.unscoped.select_for_update().get(pk=charge.pk)
    if charge.paid_on is not None:
        raise ValidationError("Cobrança paga não pode ser cancelada.")
    if charge.cancelled:
        raise ValidationError("Cobrança já cancelada.")
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


# ------------------------------------------------------------------------- the billing register


@transaction.atomic
def open_account(
    *, actor: Any, holder: Holder, on: dt.date, reason: str, modalities: list[str] | None = None
) -> Account:
    """Enrol a holder for the monthly fees from `on` (permits call it at the grant, chartering at
    the CRC); reopening a closed account starts it again from `on`."""
    account = Account.unscoped.select_for_update().filter(holder=holder).first()
    if account is None:
        account = Account(
            jurisdiction_id=holder.jurisdiction_id, holder=holder, opened_on=on, modalities=modalities or []
        )
        return create_audited(actor=actor, instance=account, reason=reason, action="billing_account.opened")
    if account.closed_on is None:
        raise ValidationError(f"{holder} já está inscrito desde {br_date(account.opened_on)}.")
    changes: dict[str, Any] = {"opened_on": on, "closed_on": None}
    if modalities is not None:
        changes["modalities"] = modalities
    return update_audited(
        actor=actor, instance=account, changes=changes, reason=reason, action="billing_account.opened"
    )


@transaction.atomic
def close_account(*, actor: Any, holder: Holder, on: dt.date, reason: str) -> Account:
    """Stop the monthly fees from the day after `on` (revocation, expiry, withdrawal, transfer)."""
    account = Account.unscoped.select_for_update().filter(holder=holder).first()
    if account is None or account.closed_on is not None:
        raise ValidationError(f"{holder} não tem inscrição de cobrança aberta.")
    if on < account.opened_on:
        raise ValidationError(
            f"O encerramento ({br_date(on)}) não pode ser anterior à inscrição "
            f"({br_date(account.opened_on)})."
        )
    return update_audited(
        actor=actor,
        instance=account,
        changes={"closed_on": on},
        reason=reason,
        action="billing_account.closed",
    )


@transaction.atomic
def set_account_modalities(*, actor: Any, holder: Holder, modalities: list[str], reason: str) -> Account:
    """The modalities of an open account (a chartering company's renewed CRC may hold others);
    the monthly run reads them for exemptions (Pernambuco's social modality)."""
    account = Account.unscoped.select_for_update().filter(holder=holder, closed_on__isnull=True).first()
    if account is None:
        raise ValidationError(f"{holder} não tem inscrição de cobrança aberta.")
    if list(account.modalities) == list(modalities):
        return account
    return update_audited(
        actor=actor,
        instance=account,
        changes={"modalities": list(modalities)},
        reason=reason,
        action="billing_account.modalities",
    )
