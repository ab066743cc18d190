"""The embedded SQLite database under a few people writing at once (issue 24, defect 1: a 500
"database is locked" issuing a service order, one user; the retry worked).

Four processes with the installation's own settings (`lotacao.config.settings.dev` on a SQLite
file, as `make demo` runs) each run transactions that read and then write through the ORM — the
shape of every form that checks and saves — at the same time. With SQLite's defaults (a rollback
journal, DEFERRED transactions, Python's 5 s busy timeout) some of them fail at once with
"database is locked"; with WAL, IMMEDIATE transactions and a busy timeout (settings/sqlite.py)
every one of them commits.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from lotacao.config.settings.sqlite import EMBEDDED_OPTIONS, embedded

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 4
TRANSACTIONS = 15

WORKER = textwrap.dedent(
    """
    import datetime as dt, json, os, sys, time
    import django
    django.setup()
    from django.contrib.sessions.models import Session
    from django.db import OperationalError, connection, transaction

    me, count = sys.argv[1], int(sys.argv[2])
    if me == "schema":
        with connection.schema_editor() as editor:
            editor.create_model(Session)
        print(json.dumps({"journal": connection.cursor().execute("PRAGMA journal_mode").fetchone()[0]}))
        sys.exit(0)
    start_at = float(sys.argv[3])
    time.sleep(max(0.0, start_at - time.time()))  # every worker starts at the same moment
    done, locked = 0, []
    expires = dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc)
    for i in range(count):
        try:
            with transaction.atomic():
                seen = Session.objects.count()  # read first, as a form's checks do
                time.sleep(0.02)  # the rest of the request's work inside the transaction
                Session.objects.create(session_key=f"{me}-{i}", session_data=str(seen), expire_date=expires)
            done += 1
        except OperationalError as error:
            locked.append(str(error))
    print(json.dumps({"done": done, "errors": locked}))
    """
)


def run_worker(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, *args],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_the_embedded_sqlite_is_configured_for_concurrent_writers() -> None:
    file_db: dict[str, Any] = {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/lotacao.sqlite3"}
    options = embedded(file_db)["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]
    assert options["timeout"] >= 10
    # an option the operator set wins; memory databases and PostgreSQL are left as they are
    assert embedded({**file_db, "OPTIONS": {"timeout": 60}})["OPTIONS"]["timeout"] == 60
    memory: dict[str, Any] = {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}
    assert "OPTIONS" not in embedded(memory)
    postgres: dict[str, Any] = {"ENGINE": "django.db.backends.postgresql", "NAME": "lotacao"}
    assert embedded(postgres) == postgres
    assert EMBEDDED_OPTIONS["transaction_mode"] == "IMMEDIATE"


@pytest.mark.sqlite  # the embedded default's own locking; PostgreSQL has row locks
def test_concurrent_writers_on_the_embedded_sqlite_never_see_database_is_locked(tmp_path: Path) -> None:
    import time

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "lotacao.config.settings.dev",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'lotacao.sqlite3'}",
        "PYTHONPATH": str(ROOT / "src"),
    }
    schema = run_worker(env, "schema", "0")
    out, err = schema.communicate(timeout=120)
    assert schema.returncode == 0, err
    assert json.loads(out)["journal"] == "wal"

    start_at = time.time() + 8  # time for every process to start Django on a loaded machine
    workers = [run_worker(env, f"w{n}", str(TRANSACTIONS), str(start_at)) for n in range(PROCESSES)]
    results = []
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    errors = [e for r in results for e in r["errors"]]
    assert errors == [], f"{len(errors)} transactions failed: {errors[:3]}"
    assert sum(r["done"] for r in results) == PROCESSES * TRANSACTIONS
