"""`make demo` on PostgreSQL survives 100 concurrent requests (issue 15, item 6).

runserver (dev settings: a thread per request) against the test database, 100 requests at once:
every one answered, none a server error, and the database never saw more connections than the
pool of settings/dev.py allows (persistent connections per thread exhausted the server before).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _bench() -> Any:
    path = ROOT / "bench" / "bench_demo_concurrency.py"
    spec = importlib.util.spec_from_file_location("bench_demo_concurrency", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _url() -> str:
    p = connection.settings_dict
    password = f":{p['PASSWORD']}" if p.get("PASSWORD") else ""
    host = f"{p['HOST'] or '127.0.0.1'}:{p['PORT'] or 5432}"
    return f"postgres://{p['USER'] or 'postgres'}{password}@{host}/{p['NAME']}"


def test_dev_settings_pool_connections_on_postgresql(monkeypatch: Any) -> None:
    import importlib

    monkeypatch.setenv("DATABASE_URL", _url())
    monkeypatch.setenv("LOTACAO_DB_POOL_MAX_SIZE", "7")
    from lotacao.config.settings import dev

    dev = importlib.reload(dev)
    database = dev.DATABASES["default"]
    assert database["CONN_MAX_AGE"] == 0
    assert database["OPTIONS"]["pool"]["max_size"] == 7


def test_runserver_answers_100_concurrent_requests(world: Any, monkeypatch: Any) -> None:
    bench = _bench()
    monkeypatch.setenv("LOTACAO_DB_POOL_MAX_SIZE", "10")
    url = _url()
    before = bench._connections(url)
    port = bench.free_port()
    server = bench.start_server(url, port)
    try:
        paths = ["/saude/pronto/", "/publico/veiculos/?placa=ABA1C23", "/api/public/vehicles/ABA1C23"]
        result = bench.burst(f"http://127.0.0.1:{port}", paths, 100, url)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert result["errors"] == []
    assert sum(result["statuses"].values()) == 100
    assert not {s for s in result["statuses"] if s.startswith("5") and s != "503"}, result["statuses"]
    # the pool's 10, plus the connections that were already open (this test's own)
    assert result["peak_connections"] <= before + 10, result
