"""Monthly demand declarations: filed by the holder in the portal or by a clerk (or the agency's
survey), corrected with an audit record; a missing one becomes a work item (billing/queue.py)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing.runs.models import DemandDeclaration
from lotacao.core.formats import br_date
from lotacao.registry.models import Holder, Line

FIELDS = ("full_passengers", "reduced_passengers", "free_passengers", "km", "revenue")


def month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


def parse_month(text: str) -> dt.date:
    """'2027-01' or '01/2027' → the month's first day (a Portuguese error otherwise)."""
    value = text.strip()
    try:
        if "/" in value:
            month, year = value.split("/")
        else:
            year, month = value.split("-")
        return dt.date(int(year), int(month), 1)
    except ValueError as error:
        raise ValidationError(f"Mês inválido: {text!r} (use mm/aaaa ou aaaa-mm).") from error


@transaction.atomic
def declare_demand(
    *,
    actor: Any,
    holder: Holder,
    line: Line,
    month: dt.date,
    full_passengers: int,
    source: str,
    reason: str,
    today: dt.date,
    reduced_passengers: int = 0,
    free_passengers: int = 0,
    km: Decimal | str = "0",
    revenue: Decimal | str | None = None,
) -> DemandDeclaration:
    """File the month's demand of a holder on a line (one per holder, line and month)."""
    if line.jurisdiction_id != holder.jurisdiction_id:
        raise ValidationError("A linha é de outra jurisdição.")
    if source not in DemandDeclaration.Source.values:
        raise ValidationError("Origem da declaração desconhecida.")
    month = month_start(month)
    if month >= month_start(today):
        raise ValidationError(f"Só se declara um mês encerrado: {month:%m/%Y} ainda não terminou.")
    if DemandDeclaration.unscoped.filter(holder=holder, line=line, month=month).exists():
        raise ValidationError(
            f"Já há declaração de {month:%m/%Y} para a linha {line.code}: corrija a existente."
        )
    declaration = DemandDeclaration(
        jurisdiction_id=holder.jurisdiction_id,
        holder=holder,
        line=line,
        month=month,
        full_passengers=full_passengers,
        reduced_passengers=reduced_passengers,
        free_passengers=free_passengers,
        km=Decimal(str(km or "0")),
        revenue=None if revenue in (None, "") else Decimal(str(revenue)),
        source=source,
    )
    return create_audited(actor=actor, instance=declaration, reason=reason, action="demand.declared")


@transaction.atomic
def correct_declaration(
    *, actor: Any, declaration: DemandDeclaration, changes: dict[str, Any], reason: str
) -> DemandDeclaration:
    """Correct a declaration (the audit keeps the values before); refused once the month was
    billed from it — cancel and reissue the charge instead."""
    declaration = DemandDeclaration.unscoped.select_for_update().get(pk=declaration.pk)
    if not reason.strip():
        raise ValidationError("Informe o motivo da correção.")
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise ValidationError(f"Campos que não se corrigem: {', '.join(sorted(unknown))}.")
    from lotacao.billing.ledger.models import Charge

    billed = Charge.unscoped.filter(
        holder_id=declaration.holder_id,
        line_id=declaration.line_id,
        key__startswith="run:",
        base_label__contains=f"{declaration.month:%m/%Y}",
        cancelled=False,
    ).first()
    if billed is not None:
        raise ValidationError(
            f"A demanda de {declaration.month:%m/%Y} já foi cobrada (cobrança de {br_date(billed.due_on)}): "
            "cancele a cobrança antes de corrigir."
        )
    values = dict(changes)
    if "km" in values:
        values["km"] = Decimal(str(values["km"] or "0"))
    if "revenue" in values:
        values["revenue"] = None if values["revenue"] in (None, "") else Decimal(str(values["revenue"]))
    return update_audited(
        actor=actor, instance=declaration, changes=values, reason=reason, action="demand.corrected"
    )
