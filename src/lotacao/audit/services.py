"""Recording audit events. Every service that writes calls `record` in the same transaction."""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from typing import Any

from django.db import models

from lotacao.audit.models import AuditEvent

SYSTEM = "sistema"


def snapshot(instance: models.Model) -> dict[str, Any]:
    """The concrete field values of a row, as JSON-safe data (foreign keys by id)."""
    data: dict[str, Any] = {}
    for field in instance._meta.concrete_fields:
        value = getattr(instance, field.attname)
        if isinstance(value, (dt.date, dt.datetime, decimal.Decimal, uuid.UUID)):
            value = str(value)
        elif hasattr(value, "name") and hasattr(value, "storage"):  # file fields
            value = value.name or None
        data[field.attname] = value
    return data


def record(
    *,
    actor: Any,
    action: str,
    instance: models.Model,
    reason: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEvent:
    if not reason or not reason.strip():
        raise ValueError("Todo registro de auditoria precisa de um motivo.")
    jurisdiction_id = getattr(instance, "jurisdiction_id", None)
    if jurisdiction_id is None and instance._meta.label == "core.Jurisdiction":
        jurisdiction_id = instance.pk
    user = actor if getattr(actor, "pk", None) is not None else None
    return AuditEvent.objects.create(
        jurisdiction_id=jurisdiction_id,
        actor=user,
        actor_label=user.get_username() if user is not None else SYSTEM,
        action=action,
        object_type=instance._meta.label_lower,
        object_id=str(instance.pk),
        object_repr=str(instance)[:200],
        before=before,
        after=after,
        reason=reason.strip(),
    )


def history(instance: models.Model) -> models.QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(object_type=instance._meta.label_lower, object_id=str(instance.pk))
