"""Clearance (quitação): do unpaid fines or fees block a procedure, as the jurisdiction's law says?

Which procedures unpaid charges block is pack data: the parameter `clearance.blocks` (a list of
procedure ids; absent when the law makes no procedure depend on clearance). Procedure ids:
grant, renewal, transfer, agent, inspection, reregistration, document, release (of a seized
vehicle: Maricá art. 56; Pernambuco, Lei 16.205/2017, art. 29-A, p.ú.).

The clearance sees every charge of the ledger — fees of every kind, monthly fees and fines —
and says which charge blocks and how to pay it (its slip, with the PIX code).

A charge blocks when it is neither paid nor cancelled, is past its due date and is not under
defense or appeal (`contested`) — the reading declared in each pack's `clearance.blocks`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q

from lotacao.billing.ledger.models import Charge
from lotacao.core.formats import br_date, brl
from lotacao.core.law import pack_for

PARAMETER = "clearance.blocks"
PROCEDURES = {
    "grant": "outorga de permissão",
    "renewal": "renovação da permissão",
    "transfer": "transferência da permissão",
    "agent": "cadastro de preposto",
    "inspection": "vistoria",
    "reregistration": "recadastramento",
    "document": "emissão de documentos",
    "release": "liberação do veículo apreendido",
}
# The procedure with its article, as a sentence needs it ("impedem o recadastramento").
_WITH_ARTICLE = {
    "grant": "a outorga de permissão",
    "renewal": "a renovação da permissão",
    "transfer": "a transferência da permissão",
    "agent": "o cadastro de preposto",
    "inspection": "a vistoria",
    "reregistration": "o recadastramento",
    "document": "a emissão de documentos",
    "release": "a liberação do veículo apreendido",
}


@dataclass
class Clearance:
    clear: bool
    reasons: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    blocking: list[Charge] = field(default_factory=list)
    total: Decimal = Decimal("0.00")

    def __bool__(self) -> bool:
        return self.clear


def blocking_charges(holder: Any, on: dt.date) -> list[Charge]:
    """Overdue charges of a holder that are neither paid, cancelled nor contested on `on`."""
    return list(
        Charge.unscoped.filter(holder=holder, cancelled=False, contested=False, due_on__lt=on)
        .filter(Q(paid_on__isnull=True) | Q(paid_on__gt=on))
        .order_by("due_on", "id")
    )


def procedure_citation(law_name: str, procedures: list[str], cite: str, procedure: str) -> str:
    """The law and the article that make `procedure` depend on clearance. A pack whose
    `clearance.blocks` rests on several articles lists them in its citation in the order of the
    procedures, one per procedure, separated by "; " (Maricá: inspection "art. 27, § 3º", release
    "art. 56"); a single article covers them all (Recife's art. 26)."""
    prefix = f"{law_name}, "
    body = cite[len(prefix) :] if cite.startswith(prefix) else cite
    parts = [p.strip() for p in body.split(";") if p.strip()]
    if len(parts) > 1 and len(parts) == len(procedures) and procedure in procedures:
        body = parts[procedures.index(procedure)]
    return f"{prefix}{body}" if cite.startswith(prefix) else body


def blocked_procedures(jurisdiction_code: str, on: dt.date) -> tuple[list[str], str | None]:
    pack = pack_for(jurisdiction_code)
    if not pack.has(PARAMETER):
        return [], None
    entry = pack.resolve(PARAMETER, on)
    if entry.status != "value":
        return [], str(entry.citation)
    return [str(p) for p in entry.value], str(entry.citation)


def clearance(*, holder: Any, on: dt.date, procedure: str) -> Clearance:
    """Whether `holder` is clear for `procedure` on `on` (reasons and citations in Portuguese)."""
    if procedure not in PROCEDURES:
        raise ValueError(f"procedimento desconhecido: {procedure}")
    blocked, cite = blocked_procedures(holder.jurisdiction_id, on)
    if procedure not in blocked:
        return Clearance(clear=True)
    charges = blocking_charges(holder, on)
    if not charges:
        return Clearance(clear=True, citations=[cite] if cite else [])
    total = sum((c.amount for c in charges), Decimal("0.00"))
    reasons = [
        f"{c.get_kind_display()} em aberto: {c.description} — {brl(c.amount)}, "
        f"vencida em {br_date(c.due_on)}. Para pagar: guia nº {c.slip_code}, com PIX copia e cola "
        "(em Minhas cobranças)."
        for c in charges
    ]
    where = procedure_citation(pack_for(holder.jurisdiction_id).law, blocked, cite or "", procedure)
    reasons.insert(
        0,
        f"Débitos vencidos ({brl(total)}) impedem {_WITH_ARTICLE[procedure]} até a quitação ({where}).",
    )
    return Clearance(
        clear=False, reasons=reasons, citations=[cite] if cite else [], blocking=charges, total=total
    )
