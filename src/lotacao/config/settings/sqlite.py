"""The embedded SQLite database (`make demo`, a small agency's single server) set up for a few
people writing at once (issue 24, defect 1: a 500 "database is locked" issuing a service order).

- `journal_mode=WAL`: readers do not block the writer nor the writer the readers;
  `synchronous=NORMAL` is the setting SQLite recommends with WAL (durable across an application
  crash; the last transactions may be lost only on a power cut).
- `transaction_mode="IMMEDIATE"` (Django >= 5.1): every `atomic()` takes the write lock when it
  begins. With the default DEFERRED, a transaction that first reads and then writes (every form
  that checks and saves) asks for the lock in the middle; when another connection wrote meanwhile
  SQLite answers "database is locked" at once, without waiting (it cannot wait without a deadlock).
- `timeout`: how long a connection waits for the write lock (SQLite's busy timeout) before
  giving up; 20 s instead of Python's 5 s.

See https://docs.djangoproject.com/en/5.2/ref/databases/#database-is-locked-errors.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

SQLITE_ENGINE = "django.db.backends.sqlite3"
EMBEDDED_OPTIONS: dict[str, Any] = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}


Database = TypeVar("Database")


def embedded(database: Database) -> Database:
    """The database settings with the embedded options added when it is a SQLite file (options
    already given in the settings win; an in-memory database is left as it is)."""
    settings = cast(dict[str, Any], database)
    if settings.get("ENGINE") != SQLITE_ENGINE or str(settings.get("NAME", "")) in ("", ":memory:"):
        return database
    return cast(Database, {**settings, "OPTIONS": {**EMBEDDED_OPTIONS, **settings.get("OPTIONS", {})}})
