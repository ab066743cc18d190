"""Beyond one machine (docs/deployment.md): nothing kept in a process, uploads on shared storage,
the public replica as an alias, and nightly jobs run once however many workers start them."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "lotacao.config.settings.production",
    "DJANGO_SECRET_KEY": "k" * 20 + "Zq8#vP2!mW9@xR4$tL7%nB3^cF6&hJ1*dG5(sA0)" + "y" * 10,
    "DJANGO_ALLOWED_HOSTS": "lotacao.exemplo.gov.br",
    "DATABASE_URL": "postgres://app@db.interna:5432/lotacao",
}
PROBE = """
import json, django
django.setup()
from django.conf import settings
from django.core.files.storage import default_storage
out = {
    "cache": settings.CACHES["default"]["BACKEND"],
    "cache_location": settings.CACHES["default"].get("LOCATION"),
    "sessions": settings.SESSION_ENGINE,
    "storage": settings.STORAGES["default"]["BACKEND"],
    "databases": sorted(settings.DATABASES),
    "replica": settings.LOTACAO_PUBLIC_REPLICA,
    "routers": settings.DATABASE_ROUTERS,
    "axes": getattr(settings, "AXES_HANDLER", "axes.handlers.database.AxesDatabaseHandler"),
}
if settings.STORAGES["default"]["BACKEND"].endswith("S3Storage"):
    out["url"] = default_storage.url("documentos/cnh.pdf")
print(json.dumps(out))
"""


def _settings(extra: dict[str, str]) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE", "LOTACAO_"))}
    env.update(PRODUCTION, PYTHONPATH=str(ROOT / "src"), **extra)
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def test_by_default_nothing_lives_in_a_process_and_uploads_are_local_files() -> None:
    found = _settings({})
    assert found["cache"] == "django.core.cache.backends.db.DatabaseCache"
    assert found["sessions"] == "django.contrib.sessions.backends.db"
    # Failed logins in the database: django-axes' database handler, or lotacao's subclass of it that
    # also locks an address across usernames.
    assert found["axes"] in (
        "axes.handlers.database.AxesDatabaseHandler",
        "lotacao.accounts.throttling.AddressAwareHandler",
    )
    assert found["storage"] == "django.core.files.storage.FileSystemStorage"
    assert found["databases"] == ["default"] and found["replica"] is None


def test_migrate_creates_the_cache_table_whatever_cache_it_runs_with(db: Any) -> None:
    """The tests run with the local-memory cache, as an installation migrated with Redis set would:
    the table production falls back to without Redis exists all the same."""
    import importlib

    from django.db import connection

    migration = importlib.import_module("lotacao.public.migrations.0003_cache_table_always")
    found = _settings({})
    assert found["cache_location"] == migration.TABLE
    assert migration.TABLE in connection.introspection.table_names()


def test_redis_s3_and_a_replica_are_switched_on_from_the_environment() -> None:
    found = _settings(
        {
            "LOTACAO_REDIS_URL": "redis://cache.interna:6379/0",
            "LOTACAO_MEDIA_STORAGE": "s3",
            "LOTACAO_S3_BUCKET": "lotacao-documentos",
            "LOTACAO_S3_ENDPOINT_URL": "https://s3.interna.exemplo.gov.br",
            "AWS_ACCESS_KEY_ID": "AKIAEXEMPLO",
            "AWS_SECRET_ACCESS_KEY": "segredo-de-exemplo",
            "DATABASE_REPLICA_URL": "postgres://leitura@replica.interna:5432/lotacao",
        }
    )
    assert found["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert found["sessions"] == "django.contrib.sessions.backends.cached_db"
    assert found["storage"] == "storages.backends.s3.S3Storage"
    # A private bucket: files are reached through signed, expiring links (signed offline here).
    assert found["url"].startswith("https://s3.interna.exemplo.gov.br/lotacao-documentos/uploads/documentos/cnh.pdf?")
    assert "Signature=" in found["url"] or "X-Amz-Signature=" in found["url"]
    assert found["databases"] == ["default", "replica"] and found["replica"] == "replica"
    assert found["routers"] == [
        "lotacao.core.routing.MigratingAliasRouter",
        "lotacao.public.routing.PublicReplicaRouter",
    ]


def test_s3_without_a_bucket_refuses_to_start() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE", "LOTACAO_"))}
    env.update(PRODUCTION, PYTHONPATH=str(ROOT / "src"), LOTACAO_MEDIA_STORAGE="s3")
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert result.returncode != 0 and "LOTACAO_S3_BUCKET" in result.stderr


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_starting_the_same_nightly_job_run_it_once() -> None:
    """Two app servers' timers fire at once: the advisory lock lets one run, the other skips."""
    from django.db import connections

    from lotacao.core import jobs
    from lotacao.core.models import JobRun

    ran: list[str] = []
    entered = threading.Event()

    def work(day: dt.date) -> int:
        ran.append(threading.current_thread().name)
        entered.set()
        time.sleep(1.5)  # long enough for the other worker to try
        return 1

    job = jobs.Job("twice", "Duas vezes", work)
    results: dict[str, str] = {}

    def worker(name: str) -> None:
        try:
            results[name] = jobs.run(job, dt.date(2026, 3, 2)).status
        finally:
            connections.close_all()

    first = threading.Thread(target=worker, args=("a",), name="a")
    second = threading.Thread(target=worker, args=("b",), name="b")
    first.start()
    assert entered.wait(30)
    second.start()
    first.join(60)
    second.join(60)
    assert ran == ["a"]
    assert results == {"a": JobRun.Status.SUCCEEDED, "b": JobRun.Status.SKIPPED}
    assert JobRun.objects.filter(job="twice", status=JobRun.Status.SUCCEEDED).count() == 1
