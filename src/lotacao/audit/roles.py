"""PostgreSQL roles: the owner migrates, the serving role may only add to the audit log.

The row trigger of `0002_append_only_trigger` refuses UPDATE and DELETE on the audit table, but
the table's owner can still `TRUNCATE` it, `ALTER TABLE … DISABLE TRIGGER` or set
`session_replication_role = replica` (superuser) and get past it. So production connects twice:

- the **owner role** (`MIGRATE_DATABASE_URL`, alias ``owner``) owns every table and runs the
  migrations;
- the **serving role** (`DATABASE_URL`, alias ``default``) is neither owner nor superuser: it gets
  SELECT, INSERT, UPDATE and DELETE on every table and the use of their sequences, except on the
  audit table, where it may only INSERT and SELECT.

`grant_serving_role(connection, role)` applies these privileges from the owner's connection; it is
idempotent and also runs after each `migrate` on the owner alias when `LOTACAO_SERVING_ROLE` is
set, so the tables of a new migration are granted at once (and `ALTER DEFAULT PRIVILEGES` covers
tables created later by the owner).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from psycopg import sql

from lotacao.audit.models import AuditEvent

AUDIT_TABLE = AuditEvent._meta.db_table


def _one(cursor: Any, query: str, params: list[Any] | None = None) -> Any:
    cursor.execute(query, params or [])
    row = cursor.fetchone()
    return row[0] if row else None


def create_role(connection: Any, role: str, password: str | None) -> bool:
    """Create `role` as a plain login role (no superuser, no CREATEDB/CREATEROLE); False if it exists.

    Needs a connection allowed to create roles (the database administrator, or an owner with
    CREATEROLE)."""
    with connection.cursor() as cursor:
        if _one(cursor, "SELECT 1 FROM pg_roles WHERE rolname = %s", [role]):
            return False
        statement = sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION").format(
            sql.Identifier(role)
        )
        if password:
            statement = sql.SQL("{} PASSWORD {}").format(statement, sql.Literal(password))
        cursor.execute(statement.as_string(cursor.connection))
    return True


def grant_serving_role(connection: Any, role: str) -> list[str]:
    """Grant `role` what serving needs, and on the audit table only INSERT and SELECT.

    Run from the owner's connection. Refuses (ImproperlyConfigured) a role that is a superuser or
    the owner of the audit table, since no grant can restrain those. Returns the statements run."""
    if connection.vendor != "postgresql":
        raise ImproperlyConfigured("Os papéis de banco de dados separados existem só no PostgreSQL.")
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
        found = cursor.fetchone()
        if found is None:
            raise ImproperlyConfigured(
                f"O papel “{role}” não existe: crie-o antes (CREATE ROLE … LOGIN) ou use --create."
            )
        if found[0]:
            raise ImproperlyConfigured(
                f"O papel “{role}” é superusuário: ele passaria por cima da trava da auditoria. "
                "Use um papel comum para servir a aplicação."
            )
        owner = _one(cursor, "SELECT tableowner FROM pg_tables WHERE tablename = %s", [AUDIT_TABLE])
        if owner is None:
            raise ImproperlyConfigured("A tabela de auditoria não existe: rode as migrações antes.")
        if owner == role:
            raise ImproperlyConfigured(
                f"O papel “{role}” é o dono da tabela de auditoria: a aplicação deve servir com outro "
                "papel (DATABASE_URL) e migrar com o dono (MIGRATE_DATABASE_URL)."
            )
        database = _one(cursor, "SELECT current_database()")
        schema = _one(cursor, "SELECT current_schema()")
        ident = sql.Identifier(role)
        statements = [
            sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(database), ident),
            sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(schema), ident),
            sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {} TO {}").format(
                sql.Identifier(schema), ident
            ),
            sql.SQL("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA {} TO {}").format(
                sql.Identifier(schema), ident
            ),
            sql.SQL(
                "ALTER DEFAULT PRIVILEGES IN SCHEMA {} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {}"
            ).format(sql.Identifier(schema), ident),
            sql.SQL(
                "ALTER DEFAULT PRIVILEGES IN SCHEMA {} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {}"
            ).format(sql.Identifier(schema), ident),
            # The audit log: add and read only.
            sql.SQL("REVOKE ALL ON TABLE {} FROM PUBLIC").format(sql.Identifier(AUDIT_TABLE)),
            sql.SQL("REVOKE ALL ON TABLE {} FROM {}").format(sql.Identifier(AUDIT_TABLE), ident),
            sql.SQL("GRANT SELECT, INSERT ON TABLE {} TO {}").format(sql.Identifier(AUDIT_TABLE), ident),
        ]
        done = []
        for statement in statements:
            text = statement.as_string(cursor.connection)
            cursor.execute(text)
            done.append(text)
    return done
