#!/usr/bin/env python3
"""Staff pages against an anonymous page (issue 25: "staff pages ≤ 3× an anonymous page").

Loads the demo (five jurisdictions) into a fresh database, then, in one process with Django's test
client (the whole middleware stack, templates rendered; no network, so what is measured is the
server's time to the response), requests each page `--runs` times and prints per page: the
median and p90 in milliseconds, the SQL queries of one request, and the ratio of the median to the
anonymous sign-in page's median measured in the same run. The last line is
`ratio <slowest staff page ÷ anonymous page>`.

Usage:
  python bench/bench_staff_pages.py [--runs 30] [--database-url URL]
Default database: a new SQLite file under bench/out/ (the embedded default). Not a test: it
prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

BASELINE = ("-", "/conta/entrar/")
PAGES = [
    ("gestor.recife", "/"),
    ("gestor.recife", "/permissoes/"),
    ("atendente.recife", "/"),
    ("atendente.recife", "/fila/"),
    ("fiscal.marica", "/"),
    ("gestor.pernambuco", "/"),
    ("gestor.esteio", "/"),
]


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--database-url", default=None)
    return ap.parse_args()


def setup(database_url: str | None) -> None:
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        out = ROOT / "bench" / "out"
        out.mkdir(parents=True, exist_ok=True)
        db = out / "staff_pages.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lotacao.config.settings.dev")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.DEBUG = False  # no query log kept per request; `measure` counts its own
    settings.ALLOWED_HOSTS = ["testserver", *settings.ALLOWED_HOSTS]
    if database_url:
        from django.db import connection

        with connection.cursor() as cursor:  # a fresh schema each run
            cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
    call_command("migrate", "--noinput", verbosity=0)
    call_command("load_demo", "--quiet-logins", stdout=StringIO())


def measure(user: str, path: str, runs: int) -> tuple[list[float], int, int]:
    from django.db import connection
    from django.test import Client

    from lotacao.accounts.models import User

    client = Client()
    if user != "-":
        client.force_login(User.objects.get(username=user))
    first = client.get(path)  # warm: templates compiled, caches filled
    status = first.status_code
    count = [0]

    def counter(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        count[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counter):
        client.get(path)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        client.get(path)
        times.append((time.perf_counter() - start) * 1000)
    return times, count[0], status


def main() -> None:
    args = parse_args()
    started = time.perf_counter()
    setup(args.database_url)
    print(f"demo loaded in {time.perf_counter() - started:.1f} s; load average {os.getloadavg()[0]:.1f}")
    base, base_queries, _ = measure(*BASELINE, args.runs)
    base_median = statistics.median(base)
    print(f"{'página':<40} {'mediana ms':>10} {'p90 ms':>8} {'consultas':>9} {'razão':>6}")
    name = "anônima " + BASELINE[1]
    print(f"{name:<40} {base_median:>10.1f} {_p90(base):>8.1f} {base_queries:>9} {1:>6.2f}")
    worst = 0.0
    for user, path in PAGES:
        times, queries, status = measure(user, path, args.runs)
        if status != 200:
            raise SystemExit(f"{user} {path}: HTTP {status}")
        median = statistics.median(times)
        ratio = median / base_median
        worst = max(worst, ratio)
        print(f"{user + ' ' + path:<40} {median:>10.1f} {_p90(times):>8.1f} {queries:>9} {ratio:>6.2f}")
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"ratio {worst:.2f}")


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]


if __name__ == "__main__":
    main()
