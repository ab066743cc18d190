"""The serving role may only add to and read the audit log (issue 15, item 5).

PostgreSQL only: a serving role created by `grant_serving_role` connects on its own and is refused
UPDATE, DELETE, TRUNCATE, DISABLE TRIGGER and `session_replication_role` on the audit table, while
it can INSERT and SELECT there and write the other tables as usual.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from io import StringIO
from typing import Any

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from lotacao.audit.roles import AUDIT_TABLE

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _role_name() -> str:
    # Roles are global to the cluster: one name per test database (and process) so that parallel
    # runs on the same server never meet.
    return f"lotacao_srv_{connection.settings_dict['NAME']}_{os.getpid()}"[:63]


@pytest.fixture
def serving_role() -> Iterator[str]:
    role = _role_name()
    with connection.cursor() as cursor:
        cursor.execute(f'DROP ROLE IF EXISTS "{role}"')
    yield role
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{role}"')
        cursor.execute(f'DROP ROLE IF EXISTS "{role}"')


def _connect_as(role: str) -> psycopg.Connection[Any]:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params["user"] = role
    params.pop("password", None)
    return psycopg.connect(**params, autocommit=True)


def _count(conn: psycopg.Connection[Any], query: str) -> int:
    row = conn.execute(query).fetchone()
    assert row is not None
    return int(row[0])


def _refused(conn: psycopg.Connection[Any], statement: str) -> str:
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
        conn.execute(statement)
    return str(info.value)


def test_the_serving_role_can_only_insert_and_select_on_the_audit_table(
    world: Any, serving_role: str
) -> None:
    out = StringIO()
    call_command("grant_serving_role", serving_role, "--create", "--database", "default", stdout=out)
    assert f"Papel “{serving_role}” criado." in out.getvalue()
    with _connect_as(serving_role) as conn:
        who = conn.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
        assert who.fetchone() == (serving_role, False)
        before = _count(conn, f"SELECT count(*) FROM {AUDIT_TABLE}")
        assert before > 0  # the world's creations were audited
        conn.execute(
            f"INSERT INTO {AUDIT_TABLE} "
            "(at, actor_label, action, object_type, object_id, object_repr, reason) "
            "VALUES (now(), 'teste', 'person.created', 'registry.person', '1', '', 'papel de serviço')"
        )
        assert _count(conn, f"SELECT count(*) FROM {AUDIT_TABLE}") == before + 1

        assert "permission denied" in _refused(conn, f"UPDATE {AUDIT_TABLE} SET reason = 'apagado'")
        assert "permission denied" in _refused(conn, f"DELETE FROM {AUDIT_TABLE}")
        assert "permission denied" in _refused(conn, f"TRUNCATE {AUDIT_TABLE}")
        assert "must be owner" in _refused(conn, f"ALTER TABLE {AUDIT_TABLE} DISABLE TRIGGER ALL")
        assert "must be owner" in _refused(
            conn, f"ALTER TABLE {AUDIT_TABLE} DISABLE TRIGGER audit_auditevent_append_only"
        )
        assert "session_replication_role" in _refused(conn, "SET session_replication_role = replica")
        assert "must be owner" in _refused(conn, f"DROP TABLE {AUDIT_TABLE}")
        assert _count(conn, f"SELECT count(*) FROM {AUDIT_TABLE}") == before + 1

        # everywhere else, the privileges a web application needs
        person_id = world.objects["recife"]["registry.person"].pk
        conn.execute("UPDATE registry_person SET city = 'Olinda' WHERE id = %s", [person_id])
        conn.execute("DELETE FROM django_session")
        conn.execute(
            "INSERT INTO django_session (session_key, session_data, expire_date) VALUES ('k', 'd', now())"
        )
        assert _count(conn, "SELECT count(*) FROM django_migrations") > 0


def test_running_the_grant_twice_changes_nothing_and_refuses_a_superuser_or_the_owner(
    world: Any, serving_role: str
) -> None:
    call_command("grant_serving_role", serving_role, "--create", "--database", "default", stdout=StringIO())
    out = StringIO()
    call_command("grant_serving_role", serving_role, "--create", "--database", "default", stdout=out)
    assert "criado" not in out.getvalue() and "só incluir e ler na auditoria" in out.getvalue()
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
    with pytest.raises(CommandError, match=r"superusuário|dono da tabela"):
        call_command("grant_serving_role", owner, "--database", "default", stdout=StringIO())
    with pytest.raises(CommandError, match="não existe"):
        call_command("grant_serving_role", "papel_que_nao_existe_xyz", "--database", "default")
