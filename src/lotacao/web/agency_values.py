"""Services for the values an agency supplies to its law's pack (see lotacao.core.law)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import record, snapshot
from lotacao.core import law
from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.law.errors import CaseError
from lotacao.law.packs import get_pack
from lotacao.workqueue.law_values import value_supplied


@transaction.atomic
def set_agency_value(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    parameter: str,
    valid_from: dt.date,
    value: Any,
    cite: str,
    reason: str,
    note: str = "",
) -> AgencyValue:
    """Record a value of `parameter` in force from `valid_from`, checked against the pack's type."""
    pack = get_pack(jurisdiction.code)
    if not pack.has(parameter):
        raise ValidationError(f"A lei de {jurisdiction.name} não tem esse valor.")
    words = pack.parameters[parameter].description
    if not cite or not cite.strip():
        raise ValidationError("Cite o ato que fixou o valor (ex.: Portaria nº 12/2025).")
    if AgencyValue.unscoped.filter(
        jurisdiction=jurisdiction, parameter=parameter, valid_from=valid_from, annulled_at__isnull=True
    ).exists():
        raise ValidationError(
            f"Já há um valor de “{words}” desde {valid_from:%d/%m/%Y}: anule-o antes de informar outro."
        )
    try:  # the engine's own checks: type, schema, referenced codes
        pack.with_overrides({parameter: [{"from": valid_from.isoformat(), "value": value, "cite": cite}]})
    except CaseError as error:
        raise ValidationError(f"Valor inválido para “{words}”: {error.message}") from error
    row = AgencyValue(
        jurisdiction=jurisdiction,
        parameter=parameter,
        valid_from=valid_from,
        value=value,
        cite=cite.strip(),
        note=note,
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    row.save()
    record(actor=actor, action="agency_value.created", instance=row, reason=reason, after=snapshot(row))
    transaction.on_commit(lambda: law.forget(jurisdiction.code))
    law.forget(jurisdiction.code)
    value_supplied(jurisdiction.code, parameter, timezone.localdate())
    return row


@transaction.atomic
def annul_agency_value(*, actor: Any, value: AgencyValue, reason: str) -> AgencyValue:
    if not reason or not reason.strip():
        raise ValidationError("Informe o motivo da anulação.")
    row = AgencyValue.unscoped.select_for_update().get(pk=value.pk)
    if row.annulled_at is not None:
        raise ValidationError("Este valor já foi anulado.")
    before = snapshot(row)
    row.annulled_at = timezone.now()
    row.annulled_reason = reason.strip()
    row.save(update_fields=["annulled_at", "annulled_reason"])
    record(
        actor=actor,
        action="agency_value.annulled",
        instance=row,
        reason=reason,
        before=before,
        after=snapshot(row),
    )
    law.forget(row.jurisdiction_id)
    return row
