"""The append-only audit log: who, when, what before and after, and why.

The application cannot change or delete an entry (save() of an existing row, delete() and the
queryset's update()/delete() raise); on PostgreSQL a trigger enforces the same in the database.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from lotacao.audit.actions import choices as action_choices
from lotacao.core.tenancy import TenantQuerySet


class AuditLogIsAppendOnly(Exception):
    pass


class AuditQuerySet(TenantQuerySet):
    def update(self, **kwargs: Any) -> int:
        raise AuditLogIsAppendOnly("O registro de auditoria não pode ser alterado.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AuditLogIsAppendOnly("O registro de auditoria não pode ser apagado.")


class AuditManager(models.Manager["AuditEvent"]):
    def get_queryset(self) -> AuditQuerySet:
        from lotacao.core.tenancy import current_scope

        return AuditQuerySet(self.model, using=self._db).apply_scope(current_scope())  # type: ignore[return-value]


class AuditEvent(models.Model):
    jurisdiction = models.ForeignKey(
        "core.Jurisdiction", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField("quando", auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    actor_label = models.CharField("quem", max_length=150)
    action = models.CharField("ação", max_length=60, choices=action_choices)
    object_type = models.CharField("tipo", max_length=80)
    object_id = models.CharField("identificador", max_length=64)
    object_repr = models.CharField("registro", max_length=200, blank=True)
    before = models.JSONField("antes", null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField("depois", null=True, blank=True, encoder=DjangoJSONEncoder)
    reason = models.TextField("motivo")

    jurisdiction_path: ClassVar[str] = "jurisdiction_id"
    holder_path: ClassVar[str | None] = None

    objects = AuditManager()
    unscoped = models.Manager()

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = "evento de auditoria"
        verbose_name_plural = "eventos de auditoria"
        base_manager_name = "unscoped"
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx")]

    def __str__(self) -> str:
        return (
            f"{self.at:%d/%m/%Y %H:%M} {self.actor_label}: {self.action} {self.object_type}#{self.object_id}"
        )

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AuditLogIsAppendOnly("O registro de auditoria não pode ser alterado.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AuditLogIsAppendOnly("O registro de auditoria não pode ser apagado.")
