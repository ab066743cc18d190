"""Bank statement import: a file the bank gave the agency, reconciled credit by credit.

The format is detected from the content (`statements.detect`): an OFX statement (1.x SGML or
2.x XML), a FEBRABAN CNAB 240 return (collection segments T/U, statement segment E), a CNAB 400
collection return (Bradesco's layout) or our CSV (`data`, `valor`, `codigo`, `id_transacao`).
A file that does not read is refused whole with the line named, and nothing is saved; a file
already imported (same SHA-256 in the jurisdiction) is refused by its hash.

Each credit ends up in one section of the report (see `reconcile.py`): `matched` (paid),
`partial` (recorded, the charge still open for the rest), `unmatched` (sent to the
reconciliation queue, with the reason) or `duplicates` (the bank's id of the credit was already
seen); `ignored` lists the records that are not credits (debits, movements that are not
liquidations).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from lotacao.audit.services import create_audited
from lotacao.billing.payments import reconcile, statements
from lotacao.billing.payments.models import BankImport
from lotacao.core.models import Jurisdiction

MAX_BYTES = statements.MAX_BYTES
SECTIONS = ("matched", "partial", "unmatched", "duplicates")


@transaction.atomic
def import_statement(
    *, actor: Any, jurisdiction: Jurisdiction, filename: str, content: bytes, reason: str
) -> BankImport:
    """Import a bank file: every credit reconciled, the report kept with the import (audited)."""
    statement = statements.read(content)
    digest = hashlib.sha256(content).hexdigest()
    earlier = BankImport.unscoped.filter(jurisdiction=jurisdiction, sha256=digest).first()
    if earlier is not None:
        raise ValidationError(
            f"Este arquivo já foi importado em {timezone.localtime(earlier.created_at):%d/%m/%Y %H:%M} "
            f"({earlier.filename}): nada foi gravado."
        )
    bank_import = BankImport(
        jurisdiction=jurisdiction,
        filename=filename[:200],
        sha256=digest,
        format=statement.format,
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    try:
        with transaction.atomic():
            bank_import = create_audited(
                actor=actor, instance=bank_import, reason=reason, action="bank_import.reconciled"
            )
    except IntegrityError as error:
        raise ValidationError("Este arquivo já foi importado: nada foi gravado.") from error
    report: dict[str, list[dict[str, str]]] = {name: [] for name in SECTIONS}
    seen: set[str] = set()
    for credit in statement.credits:
        section, note = reconcile.apply(
            jurisdiction=jurisdiction,
            credit=credit,
            actor=actor,
            why=reason,
            reference=f"extrato {bank_import.filename}",
            bank_import=bank_import,
            seen=seen,
        )
        report[section].append(
            {
                "linha": credit.where,
                "data": credit.paid_on.strftime("%d/%m/%Y"),
                "valor": f"{credit.amount:.2f}".replace(".", ","),
                "codigo": credit.shown_code,
                "motivo": note,
            }
        )
    report["ignored"] = statement.ignored
    report["format"] = statement.label  # type: ignore[assignment]
    bank_import.report = report
    bank_import.save(update_fields=["report"])
    return bank_import
