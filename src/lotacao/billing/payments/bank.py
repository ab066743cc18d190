"""Bank statement import: a CSV of received payments, reconciled line by line with the slips.

The file has a header line with the columns `data`, `valor`, `codigo` (the slip's code, which the
PIX transaction id or the slip's barcode carries back) and, optionally, `id_transacao` (the bank's
own id of the credit; without it the line's date, value and code identify it). `;` or `,`
separate the columns; values as 1.234,56 or 1234.56; dates dd/mm/aaaa or aaaa-mm-dd.

Each line ends up in one section of the report: `matched` (payment recorded), `unmatched` (no
such slip, value different from what was due that day, slip already paid or cancelled: with the
reason) or `duplicates` (the same credit already imported, in this file or an earlier one).
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited
from lotacao.billing.ledger.models import Charge, Payment
from lotacao.billing.ledger.services import late_amount, record_payment
from lotacao.billing.payments.models import BankImport
from lotacao.billing.payments.slips import CHARGE_CODE, MONTH_CODE, month_charges
from lotacao.core.formats import br_date, brl
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Holder

REQUIRED = ("data", "valor", "codigo")
MAX_BYTES = 5 * 1024 * 1024


def _rows(content: bytes) -> list[dict[str, str]]:
    if len(content) > MAX_BYTES:
        raise ValidationError("Arquivo grande demais (máximo de 5 MB).")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = content.decode("latin-1")
    if "\x00" in text:
        raise ValidationError("O arquivo não é um CSV de texto.")
    first = text.splitlines()[0] if text.strip() else ""
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise ValidationError(
            f"Cabeçalho do extrato sem a coluna {', '.join(missing)} "
            "(esperado: data; valor; codigo; id_transacao)."
        )
    return [{(k or "").strip().lower(): (v or "").strip() for k, v in row.items()} for row in reader]


def _date(text: str) -> dt.date:
    try:
        if "/" in text:
            day, month, year = text.split("/")
            return dt.date(int(year), int(month), int(day))
        return dt.date.fromisoformat(text)
    except ValueError as error:
        raise ValueError(f"data inválida: {text!r}") from error


def _amount(text: str) -> Decimal:
    clean = text.replace("R$", "").replace(" ", "").replace("\xa0", "")
    if "," in clean:
        clean = clean.replace(".", "").replace(",", ".")
    try:
        value = Decimal(clean)
    except InvalidOperation as error:
        raise ValueError(f"valor inválido: {text!r}") from error
    if not value.is_finite() or value <= 0:
        raise ValueError(f"valor inválido: {text!r}")
    return value.quantize(Decimal("0.01"))


def _targets(code: str, slip: str) -> list[Charge]:
    """The charges a slip code pays (one charge, or a holder's open charges of a month)."""
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


def _reconcile(
    code: str, row: dict[str, str], bank_import: BankImport, actor: Any, reason: str
) -> tuple[str, str]:
    """(section, note) for one line; records the payments of a matched one."""
    paid_on, value = _date(row["data"]), _amount(row["valor"])
    slip = row["codigo"].upper().replace(" ", "")
    charges = _targets(code, slip)
    if not charges:
        return "unmatched", f"nenhuma guia em aberto com o código {slip or '(vazio)'}"
    closed = [c for c in charges if c.cancelled or c.paid_on is not None]
    if closed:
        c = closed[0]
        state = "cancelada" if c.cancelled else f"já paga em {br_date(c.paid_on)}"
        return "unmatched", f"a cobrança {c.slip_code} está {state}"
    due = sum((c.amount + late_amount(c, paid_on)[0] for c in charges), Decimal("0"))
    if due != value:
        return "unmatched", f"valor {brl(value)} diferente do devido em {br_date(paid_on)} ({brl(due)})"
    for n, charge in enumerate(charges):
        record_payment(
            actor=actor,
            charge=charge,
            paid_on=paid_on,
            reason=reason,
            payment_reference=f"extrato {bank_import.filename}",
            method=Payment.Method.BANK,
            bank_transaction=row["_id"] if n == 0 else f"{row['_id']}#{n}",
            bank_import=bank_import,
        )
    return "matched", "cobrança quitada" if len(charges) == 1 else f"{len(charges)} cobranças quitadas"


@transaction.atomic
def import_statement(
    *, actor: Any, jurisdiction: Jurisdiction, filename: str, content: bytes, reason: str
) -> BankImport:
    """Import a statement: every line reconciled, the report kept with the import (audited)."""
    rows = _rows(content)
    bank_import = BankImport(
        jurisdiction=jurisdiction,
        filename=filename[:200],
        sha256=hashlib.sha256(content).hexdigest(),
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    bank_import = create_audited(
        actor=actor, instance=bank_import, reason=reason, action="bank_import.reconciled"
    )
    report: dict[str, list[dict[str, str]]] = {"matched": [], "unmatched": [], "duplicates": []}
    seen: set[str] = set()
    code = jurisdiction.code
    for number, row in enumerate(rows, start=2):
        entry = {
            "linha": str(number),
            "data": row.get("data", ""),
            "valor": row.get("valor", ""),
            "codigo": row.get("codigo", ""),
        }
        row["_id"] = (
            row.get("id_transacao")
            or hashlib.sha256(
                f"{row.get('data')}|{row.get('valor')}|{row.get('codigo')}".encode()
            ).hexdigest()[:40]
        )
        if (
            row["_id"] in seen
            or Payment.unscoped.filter(jurisdiction_id=code, bank_transaction=row["_id"]).exists()
        ):
            report["duplicates"].append({**entry, "motivo": "crédito já importado"})
            continue
        seen.add(row["_id"])
        try:
            with transaction.atomic():
                section, note = _reconcile(code, row, bank_import, actor, reason)
        except (ValueError, ValidationError) as error:
            section, note = "unmatched", "; ".join(getattr(error, "messages", [str(error)]))
        report[section].append({**entry, "motivo": note})
    bank_import.report = report
    bank_import.save(update_fields=["report"])
    return bank_import
