#!/usr/bin/env python3
"""`make demo` on PostgreSQL under 100 concurrent requests (issue 15, item 6).

Starts `manage.py runserver` (dev settings: a thread per request, the psycopg pool of
settings/dev.py) on a PostgreSQL database, sends N requests at once to pages that read the
database, and prints: the answers by status, the connection errors, the most connections the
database saw during the burst, and the wall time. Exits 1 on any 5xx or connection error.

Usage:
  .venv/bin/python bench/bench_demo_concurrency.py [--requests 100] [--database-url URL] [--load]
`--load` migrates and loads the demo first (the default database is created if missing:
postgres://postgres@127.0.0.1:5432/lotacao_bench_demo). Not a test: it prints figures; the test
tests/ops/test_dev_pool.py runs the same burst against the test database.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database_url: str, port: int, settings: str = "lotacao.config.settings.dev") -> Any:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": settings,
        "PYTHONPATH": str(ROOT / "src"),
    }
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/saude/", timeout=1)
            return server
        except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
            if server.poll() is not None:
                stderr = server.stderr.read() if server.stderr else ""
                raise RuntimeError("runserver saiu: " + stderr) from error
            time.sleep(0.5)
    server.terminate()
    raise RuntimeError("runserver não respondeu em 90 s")


def _connections(database_url: str) -> int:
    import psycopg

    name = database_url.rsplit("/", 1)[-1]
    admin = database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]).fetchone()
        return int(row[0]) if row else 0


def burst(base: str, paths: list[str], n: int, database_url: str) -> dict[str, Any]:
    """Send n requests at once (cycling through `paths`); count answers and database connections."""
    statuses: collections.Counter[str] = collections.Counter()
    errors: list[str] = []
    peak = 0
    stop = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _connections(database_url))
            time.sleep(0.05)

    start = threading.Barrier(n)

    def one(i: int) -> None:
        start.wait()
        try:
            with urllib.request.urlopen(base + paths[i % len(paths)], timeout=120) as response:
                statuses[str(response.status)] += 1
        except urllib.error.HTTPError as error:
            statuses[str(error.code)] += 1
        except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
            errors.append(f"{type(error).__name__}: {error}")

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    began = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=n) as pool:
        list(pool.map(one, range(n)))
    wall = time.perf_counter() - began
    stop.set()
    watcher.join()
    return {"statuses": dict(statuses), "errors": errors, "peak_connections": peak, "wall_s": wall}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=100)
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/lotacao_bench_demo")
    ap.add_argument("--load", action="store_true", help="migrate and load the demo first")
    args = ap.parse_args()
    env = {**os.environ, "DATABASE_URL": args.database_url, "PYTHONPATH": str(ROOT / "src")}
    env["DJANGO_SETTINGS_MODULE"] = "lotacao.config.settings.dev"
    if args.load:
        import psycopg

        name = args.database_url.rsplit("/", 1)[-1]
        with psycopg.connect(args.database_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                conn.execute(f'CREATE DATABASE "{name}"')
        for command in (["migrate", "--noinput"], ["load_demo", "--quiet-logins"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    port = free_port()
    server = start_server(args.database_url, port)
    try:
        paths = [
            "/saude/pronto/",
            "/publico/veiculos/?placa=ABC1D23",
            "/conta/entrar/",
            "/api/public/lines/recife",
        ]
        result = burst(f"http://127.0.0.1:{port}", paths, args.requests, args.database_url)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"{args.requests} requisições simultâneas ao runserver (settings dev, PostgreSQL):")
    print(f"  respostas por situação : {result['statuses']}")
    print(f"  erros de conexão       : {len(result['errors'])}")
    print(f"  conexões no banco (pico): {result['peak_connections']}")
    print(f"  tempo total            : {result['wall_s']:.1f} s")
    server_errors = sum(v for k, v in result["statuses"].items() if k.startswith("5") and k != "503")
    return 1 if result["errors"] or server_errors else 0


if __name__ == "__main__":
    sys.exit(main())
