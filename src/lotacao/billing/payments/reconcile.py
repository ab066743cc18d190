"""Reconciliation: what each bank credit pays, and the queue of the credits that paid nothing.

A credit matches its charges by the slip's code wherever the bank carried it (`statements.Credit
.codes`: OFX MEMO/NAME/REFNUM, CNAB "uso da empresa"/"seu número"/"nosso número", the Pix txid).
Then:
- a credit whose bank id was already seen (a payment or a queued credit with the same id) is a
  duplicate and creates nothing;
- the value due that day (late charges included where the agency's act sets them, less earlier
  partial payments) is paid: the charge is paid and the seam `charge_paid` tells the debt's module;
- less than due is a partial payment, recorded with the difference visible; the charge stays open
  for the rest (a month's slip pays its charges oldest first, the last one partly);
- more than due pays the charge and the excess goes to the queue as "valor pago a maior", for
  the agency to refund or offset by its own act;
- no code, an unknown code, a charge already paid or cancelled, a refusal of the debt's module:
  the credit goes to the queue with the reason in Portuguese.
A clerk assigns a queued credit to a charge (the same rules, audited) or dismisses it with a reason.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing.ledger.models import Charge, Payment
from lotacao.billing.ledger.services import outstanding, record_payment
from lotacao.billing.payments.models import BankImport, ReconciliationItem
from lotacao.billing.payments.slips import CHARGE_CODE, MONTH_CODE, month_charges
from lotacao.billing.payments.statements import Credit
from lotacao.core.formats import br_date, brl, lower_first
from lotacao.registry.models import Holder


def targets(code: str, slip: str) -> list[Charge]:
    """The charges a slip code of jurisdiction `code` pays (one charge, or a holder's open charges
    of a month); a code of another jurisdiction pays nothing here."""
    prefix = code[:3].upper()
    if (found := CHARGE_CODE.match(slip)) and found.group(1) == prefix:
        charge = Charge.unscoped.filter(jurisdiction_id=code, pk=int(found.group(2))).first()
        return [charge] if charge is not None else []
    if (found := MONTH_CODE.match(slip)) and found.group(1) == prefix:
        holder = Holder.unscoped.filter(jurisdiction_id=code, pk=int(found.group(2))).first()
        if holder is None:
            return []
        return month_charges(holder, dt.date(int(found.group(3)), int(found.group(4)), 1))
    return []


def already_seen(code: str, bank_id: str) -> bool:
    return (
        Payment.unscoped.filter(jurisdiction_id=code, bank_transaction=bank_id).exists()
        or ReconciliationItem.unscoped.filter(jurisdiction_id=code, bank_id=bank_id).exists()
    )


def _queue(
    *,
    jurisdiction: Any,
    credit: Credit,
    reason: str,
    actor: Any,
    why: str,
    bank_import: BankImport | None,
    kind: str = ReconciliationItem.Kind.UNMATCHED,
    amount: Decimal | None = None,
    bank_id: str | None = None,
) -> ReconciliationItem:
    item = ReconciliationItem(
        jurisdiction=jurisdiction,
        kind=kind,
        source=credit.source,
        bank_id=(bank_id or credit.bank_id)[:120],
        bank_import=bank_import,
        paid_on=credit.paid_on,
        amount=amount if amount is not None else credit.amount,
        code=credit.shown_code[:60],
        payer=credit.payer[:140],
        bank_text=" · ".join(t.strip() for t in credit.texts if t.strip())[:300],
        reason=reason[:300],
    )
    return create_audited(actor=actor, instance=item, reason=why, action="reconciliation.queued")


def pay(
    *,
    charges: list[Charge],
    credit: Credit,
    actor: Any,
    why: str,
    reference: str,
    bank_import: BankImport | None,
) -> tuple[str, Decimal]:
    """Apply a credit to charges (oldest first): (note, excess). Raises ValidationError (the
    caller's savepoint undoes it) when a charge is closed or the debt's module refuses."""
    closed = [c for c in charges if c.cancelled or c.paid_on is not None]
    if closed:
        c = closed[0]
        state = "cancelada" if c.cancelled else f"já paga em {br_date(c.paid_on)}"
        raise ValidationError(f"a cobrança {c.slip_code} está {state}")
    left = credit.amount
    excess = Decimal("0.00")
    notes: list[str] = []
    for n, charge in enumerate(charges):
        if left <= 0:
            break
        due = outstanding(charge, credit.paid_on)
        part = left if n == len(charges) - 1 or left < due else due
        part = min(part, left)
        record_payment(
            actor=actor,
            charge=charge,
            paid_on=credit.paid_on,
            reason=why,
            payment_reference=reference,
            amount=part,
            method=Payment.Method.BANK,
            bank_transaction=credit.bank_id if n == 0 else f"{credit.bank_id}#{n}",
            bank_import=bank_import,
            accept_difference=True,
        )
        left -= part
        if part < due:
            notes.append(
                f"pagamento parcial da cobrança {charge.slip_code}: {brl(part)} de {brl(due)} "
                f"(faltam {brl(due - part)})"
            )
        elif part > due:
            excess += part - due
            notes.append(f"cobrança {charge.slip_code} quitada; pago {brl(part - due)} a maior")
        else:
            notes.append(f"cobrança {charge.slip_code} quitada")
    return "; ".join(notes), excess


def apply(
    *,
    jurisdiction: Any,
    credit: Credit,
    actor: Any,
    why: str,
    reference: str,
    bank_import: BankImport | None = None,
    seen: set[str] | None = None,
) -> tuple[str, str]:
    """(section, note) for one credit: matched, partial, queued or duplicate."""
    code = jurisdiction.code
    if (seen is not None and credit.bank_id in seen) or already_seen(code, credit.bank_id):
        return "duplicates", "crédito já importado (mesmo identificador do banco): nada foi gravado"
    if seen is not None:
        seen.add(credit.bank_id)
    codes = credit.codes
    charges: list[Charge] = []
    for slip in codes:
        if charges := targets(code, slip):
            break
    if not charges:
        why_queued = (
            f"nenhuma guia em aberto com o código {', '.join(codes)}"
            if codes
            else "o crédito não traz o código de nenhuma guia"
        )
        _queue(
            jurisdiction=jurisdiction,
            credit=credit,
            reason=why_queued,
            actor=actor,
            why=why,
            bank_import=bank_import,
        )
        return "unmatched", f"{why_queued}: enviado à fila de conciliação"
    try:
        with transaction.atomic():
            note, excess = pay(
                charges=charges,
                credit=credit,
                actor=actor,
                why=why,
                reference=reference,
                bank_import=bank_import,
            )
    except ValidationError as error:
        refusal = "; ".join(error.messages)
        _queue(
            jurisdiction=jurisdiction,
            credit=credit,
            reason=refusal,
            actor=actor,
            why=why,
            bank_import=bank_import,
        )
        return "unmatched", f"{refusal}: enviado à fila de conciliação"
    if excess > 0:
        _queue(
            jurisdiction=jurisdiction,
            credit=credit,
            reason=f"valor pago a maior ({brl(excess)}): restituir ou compensar por ato do órgão",
            actor=actor,
            why=why,
            bank_import=bank_import,
            kind=ReconciliationItem.Kind.EXCESS,
            amount=excess,
            bank_id=f"{credit.bank_id}#excedente",
        )
        return "matched", f"{note}; o excedente foi para a fila de conciliação"
    return ("partial" if "parcial" in note else "matched"), note


# ----------------------------------------------------------------------------- the queue


def _pending(item: ReconciliationItem) -> ReconciliationItem:
    item = ReconciliationItem.unscoped.select_for_update().get(pk=item.pk)
    if item.status != ReconciliationItem.Status.PENDING:
        raise ValidationError(f"Este crédito já foi resolvido ({lower_first(item.get_status_display())}).")
    return item


@transaction.atomic
def assign_credit(*, actor: Any, item: ReconciliationItem, slip_code: str, reason: str) -> ReconciliationItem:
    """Pay the charge(s) of `slip_code` with a queued credit (partial and excess as on import)."""
    item = _pending(item)
    if not reason.strip():
        raise ValidationError("Informe o motivo da atribuição.")
    if item.kind == ReconciliationItem.Kind.EXCESS:
        raise ValidationError(
            "Um valor pago a maior não paga outra cobrança aqui: restitua-o ou compense-o por ato do "
            "órgão e descarte-o com a referência do ato."
        )
    slip = slip_code.strip().upper().replace(" ", "")
    charges = targets(item.jurisdiction_id, slip)
    if not charges:
        raise ValidationError(f"Nenhuma guia em aberto com o código {slip or '(vazio)'} nesta jurisdição.")
    credit = Credit(
        where="fila", bank_id=item.bank_id, paid_on=item.paid_on, amount=item.amount, source=item.source
    )
    try:
        note, excess = pay(
            charges=charges,
            credit=credit,
            actor=actor,
            why=reason,
            reference=f"conciliação manual ({item.get_source_display()})",
            bank_import=item.bank_import,
        )
    except IntegrityError as error:
        raise ValidationError("Este crédito já foi usado em um pagamento.") from error
    if excess > 0:
        _queue(
            jurisdiction=item.jurisdiction,
            credit=credit,
            reason=f"valor pago a maior ({brl(excess)}): restituir ou compensar por ato do órgão",
            actor=actor,
            why=reason,
            bank_import=item.bank_import,
            kind=ReconciliationItem.Kind.EXCESS,
            amount=excess,
            bank_id=f"{item.bank_id}#excedente",
        )
    return update_audited(
        actor=actor,
        instance=item,
        changes={
            "status": ReconciliationItem.Status.ASSIGNED,
            "charge": charges[0],
            "resolution": note[:300],
            "resolved_by": actor if getattr(actor, "pk", None) else None,
            "resolved_at": timezone.now(),
        },
        reason=reason,
        action="reconciliation.assigned",
    )


@transaction.atomic
def dismiss_credit(*, actor: Any, item: ReconciliationItem, reason: str) -> ReconciliationItem:
    """Close a queued credit without paying a charge (returned to the payer, refunded, not ours)."""
    item = _pending(item)
    if len(reason.strip()) < 5:
        raise ValidationError("Informe o motivo do descarte (por exemplo, a devolução ao pagador).")
    return update_audited(
        actor=actor,
        instance=item,
        changes={
            "status": ReconciliationItem.Status.DISMISSED,
            "resolution": reason.strip()[:300],
            "resolved_by": actor if getattr(actor, "pk", None) else None,
            "resolved_at": timezone.now(),
        },
        reason=reason,
        action="reconciliation.dismissed",
    )


# ----------------------------------------------------------------------------- Pix notifications

END_TO_END = re.compile(r"^[EeDd]\d{8}\d{12}[A-Za-z0-9]{11}$")
TXID = re.compile(r"^[A-Za-z0-9]{1,35}$")
VALUE = re.compile(r"^\d{1,10}\.\d{2}$")


def pix_credit(item: dict[str, Any], n: int) -> Credit:
    """One `pix[]` entry of the Banco Central's Pix API webhook as a credit (refused whole on a bad
    field, naming the entry)."""
    where = f"pix[{n}]"
    e2e = str(item.get("endToEndId") or "")
    if not END_TO_END.match(e2e):
        raise ValidationError(f"{where}.endToEndId: identificador fim a fim inválido (32 caracteres, E…).")
    txid = str(item.get("txid") or "")
    if txid and not TXID.match(txid):
        raise ValidationError(f"{where}.txid: até 35 letras e dígitos.")
    value = str(item.get("valor") or "")
    if not VALUE.match(value) or Decimal(value) <= 0:
        raise ValidationError(f"{where}.valor: valor positivo com duas casas decimais, como 50.00.")
    when = str(item.get("horario") or "")
    try:
        moment = dt.datetime.fromisoformat(when.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"{where}.horario: data e hora ISO 8601, como 2027-03-16T10:00:00Z.") from None
    if moment.tzinfo is None:
        raise ValidationError(f"{where}.horario: informe o fuso (Z ou -03:00).")
    return Credit(
        where=f"endToEndId {e2e}",
        bank_id=f"pix:{e2e}",
        paid_on=timezone.localtime(moment).date(),
        amount=Decimal(value),
        texts=[txid, str(item.get("infoPagador") or "")[:140]],
        payer=str(item.get("infoPagador") or "")[:140],
        source=ReconciliationItem.Source.PIX,
    )


@transaction.atomic
def receive_pix(*, actor: Any, jurisdiction: Any, items: list[dict[str, Any]]) -> dict[str, int]:
    """The bank's Pix notification: each credit reconciled, idempotent on endToEndId (a replay
    creates nothing). A bad entry refuses the whole notification (the bank sends it again)."""
    credits = [pix_credit(item, n) for n, item in enumerate(items)]
    counts = {"received": len(credits), "matched": 0, "partial": 0, "queued": 0, "duplicates": 0}
    seen: set[str] = set()
    for credit in credits:
        section, _ = apply(
            jurisdiction=jurisdiction,
            credit=credit,
            actor=actor,
            why="Notificação Pix do banco",
            reference=f"Pix {credit.bank_id[4:]}",
            seen=seen,
        )
        counts["queued" if section == "unmatched" else section] += 1
    return counts
