"""The backup-and-restore drill of docs/deployment.md, run for real (issue 15, item 6).

PostgreSQL only: `pg_dump -Fc` of the test database, `pg_restore` into a fresh database, then the
application started on the copy (`migrate --check`: nothing to apply; `check --database default`)
and the audit log's chained digest (`manage.py audit_digest`) equal to the source's, with the
append-only trigger still in force there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection

from lotacao.audit.integrity import audit_digest
from lotacao.registry import services

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _pg_env() -> dict[str, str]:
    params = connection.settings_dict
    env = {**os.environ, "PGHOST": params["HOST"] or "127.0.0.1", "PGPORT": str(params["PORT"] or 5432)}
    env["PGUSER"] = params["USER"] or "postgres"
    if params.get("PASSWORD"):
        env["PGPASSWORD"] = params["PASSWORD"]
    return env


def _url(database: str) -> str:
    p = connection.settings_dict
    password = f":{p['PASSWORD']}" if p.get("PASSWORD") else ""
    host = f"{p['HOST'] or '127.0.0.1'}:{p['PORT'] or 5432}"
    return f"postgres://{p['USER'] or 'postgres'}{password}@{host}/{database}"


def _manage(database: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **_pg_env(),
        "DATABASE_URL": _url(database),
        "DJANGO_SETTINGS_MODULE": "lotacao.config.settings.test",
        "PYTHONPATH": str(ROOT / "src"),
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def restored_name() -> Iterator[str]:
    name = f"{connection.settings_dict['NAME']}_restaurado_{os.getpid()}"[:63]
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.skipif(not shutil.which("pg_dump") or not shutil.which("pg_restore"), reason="sem pg_dump")
def test_dump_restore_into_a_fresh_database_and_the_audit_chain_is_intact(
    world: Any, restored_name: str, tmp_path: Path
) -> None:
    person = world.objects["recife"]["registry.person"]
    services.update_person(
        actor=world.users["atendente.recife"], person=person, changes={"city": "Olinda"}, reason="ensaio"
    )
    source = audit_digest()
    assert source.events > 0

    dump = tmp_path / "lotacao.dump"
    env = _pg_env()
    subprocess.run(
        ["pg_dump", "-Fc", "--file", str(dump), connection.settings_dict["NAME"]],
        env=env,
        check=True,
        timeout=300,
    )
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{restored_name}"')
    subprocess.run(
        ["pg_restore", "--exit-on-error", "--dbname", restored_name, str(dump)],
        env=env,
        check=True,
        timeout=300,
    )

    # The application starts on the copy: nothing to migrate, the system checks pass.
    migrate = _manage(restored_name, "migrate", "--check", "--noinput")
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    check = _manage(restored_name, "check", "--database", "default")
    assert check.returncode == 0, check.stdout + check.stderr

    # The audit log is the same log, event for event.
    digest = _manage(restored_name, "audit_digest")
    assert digest.returncode == 0, digest.stderr
    assert json.loads(digest.stdout) == source.as_dict()

    # …and still append-only there.
    with (
        psycopg.connect(_url(restored_name), autocommit=True) as copy,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="não pode ser alterado"),
    ):
        copy.execute("UPDATE audit_auditevent SET reason = 'adulterado'")


def test_the_digest_changes_when_an_event_is_changed_or_removed(world: Any) -> None:
    before = audit_digest()
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_auditevent_append_only")
        try:
            cursor.execute(
                "UPDATE audit_auditevent SET reason = reason || '.' WHERE id = %s", [before.last_id]
            )
            changed = audit_digest()
            cursor.execute("DELETE FROM audit_auditevent WHERE id = %s", [before.last_id])
            removed = audit_digest()
        finally:
            cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER audit_auditevent_append_only")
    assert changed.events == before.events and changed.sha256 != before.sha256
    assert removed.events == before.events - 1 and removed.sha256 not in (before.sha256, changed.sha256)
