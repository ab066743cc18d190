from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.db import connections
from django.db.models.signals import post_migrate


def _grant_after_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """After `migrate` on PostgreSQL with LOTACAO_SERVING_ROLE set, grant the serving role the
    privileges of lotacao.audit.roles, so the tables of a new migration are granted at once."""
    role = getattr(settings, "LOTACAO_SERVING_ROLE", "")
    connection = connections[using]
    if not role or connection.vendor != "postgresql":
        return
    from lotacao.audit.roles import AUDIT_TABLE, grant_serving_role

    if AUDIT_TABLE not in connection.introspection.table_names():
        return  # a partial migrate (`migrate core`) before the audit log exists: the next one grants
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        if cursor.fetchone()[0] == role:
            return  # migrating as the serving role itself: nothing it could grant
    grant_serving_role(connection, role)


class AuditConfig(AppConfig):
    name = "lotacao.audit"
    label = "audit"
    verbose_name = "Auditoria"

    def ready(self) -> None:
        post_migrate.connect(
            _grant_after_migrate, sender=self, dispatch_uid="lotacao.audit.grant_serving_role"
        )
