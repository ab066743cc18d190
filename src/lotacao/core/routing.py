"""While `migrate` runs, every query goes to the database being migrated.

A data migration must read and write through `schema_editor.connection.alias`; ours do, but a
library's may not (django-tasks-db's 0016 updates `DBTaskResult.objects`, which is the default
connection). In production `migrate --database owner` runs as the tables' owner while `default`
is the serving role, which has no CONNECT before it is granted: such a query failed the install,
or deadlocked against the owner's open ALTER TABLE once the role was granted. `pre_migrate`
records the alias being migrated (process-wide: `migrate` is a command of its own process) and this
router, first in DATABASE_ROUTERS, sends reads and writes there until the migration ends.
"""

from __future__ import annotations

from typing import Any

_migrating: str | None = None


def migrating(using: str | None) -> None:
    global _migrating
    _migrating = using


def _pre_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    migrating(using)


def _post_migrate(sender: Any, **kwargs: Any) -> None:
    migrating(None)


class MigratingAliasRouter:
    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        return _migrating

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        return _migrating
