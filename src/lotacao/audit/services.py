"""Recording audit events. Every service that writes calls `record` in the same transaction, or
`create_audited` / `update_audited`, which validate, save and record in one step."""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from typing import Any, TypeAlias, TypeVar

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from lotacao.audit import actions
from lotacao.audit.models import AuditEvent

# Who acts: a signed-in user, or None for the system's own jobs (recorded as "sistema").
Actor: TypeAlias = AbstractBaseUser | None

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
    actor: Actor,
    action: str,
    instance: models.Model,
    reason: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEvent:
    if not reason or not reason.strip():
        raise ValueError("Todo registro de auditoria precisa de um motivo.")
    actions.label(action)  # raises UndeclaredAuditAction: declare it in lotacao.audit.actions
    jurisdiction_id = getattr(instance, "jurisdiction_id", None)
    if jurisdiction_id is None and instance._meta.label == "core.Jurisdiction":
        jurisdiction_id = instance.pk
    user = actor if getattr(actor, "pk", None) is not None else None
    return AuditEvent.objects.create(
        jurisdiction_id=jurisdiction_id,
        actor_id=user.pk if user is not None else None,
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


M = TypeVar("M", bound=models.Model)


def create_audited(*, actor: Actor, instance: M, reason: str, action: str | None = None) -> M:
    """Validate, save and audit a new row (caller wraps in a transaction)."""
    instance.full_clean()
    try:
        with transaction.atomic():
            instance.save(force_insert=True)
    except IntegrityError as error:  # a concurrent insert won the unique constraint
        raise ValidationError("Registro duplicado: já existe um cadastro com estes dados.") from error
    record(
        actor=actor,
        action=action or f"{instance._meta.model_name}.created",
        instance=instance,
        reason=reason,
        after=snapshot(instance),
    )
    return instance


def update_audited(
    *, actor: Actor, instance: M, changes: dict[str, Any], reason: str, action: str | None = None
) -> M:
    before = snapshot(instance)
    for name, value in changes.items():
        setattr(instance, name, value)
    instance.full_clean()
    after = snapshot(instance)
    if after == before:
        return instance
    changed = [k for k, v in after.items() if before.get(k) != v]
    # Save only what changed (and auto_now stamps), so a concurrent write to another field of
    # the same row is not overwritten with what this process read.
    stamps = [f.attname for f in instance._meta.concrete_fields if getattr(f, "auto_now", False)]
    instance.save(update_fields=changed + [s for s in stamps if s not in changed])
    record(
        actor=actor,
        action=action or f"{instance._meta.model_name}.updated",
        instance=instance,
        reason=reason,
        before={k: v for k, v in before.items() if after.get(k) != v},
        after={k: v for k, v in after.items() if before.get(k) != v},
    )
    return instance
