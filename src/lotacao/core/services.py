"""Shared pieces of write services: validated, audited creation and update in one transaction."""

from __future__ import annotations

from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from lotacao.audit.services import record, snapshot

M = TypeVar("M", bound=models.Model)


def create_audited(*, actor: Any, instance: M, reason: str, action: str | None = None) -> M:
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
    *, actor: Any, instance: M, changes: dict[str, Any], reason: str, action: str | None = None
) -> M:
    before = snapshot(instance)
    for name, value in changes.items():
        setattr(instance, name, value)
    instance.full_clean()
    after = snapshot(instance)
    if after == before:
        return instance
    instance.save()
    record(
        actor=actor,
        action=action or f"{instance._meta.model_name}.updated",
        instance=instance,
        reason=reason,
        before={k: v for k, v in before.items() if after.get(k) != v},
        after={k: v for k, v in after.items() if before.get(k) != v},
    )
    return instance
