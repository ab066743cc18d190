#!/usr/bin/env python3
"""List exports benchmark (issue 20, item 5): --rows vehicles (each with its person holder) in
Recife, exported by a signed-in clerk through the real view (`/cadastro/veiculos/?formato=`) as
CSV, XLSX and ODS.

Prints, per format: wall time, file size, SQL queries, and the peak of Python allocations during
the request (tracemalloc; the CSV is streamed, so its peak is one chunk of rows).

Usage:
  .venv/bin/python bench/bench_exports.py [--rows 100000] [--formats csv,xlsx,ods] [--database-url URL]
Default database: a fresh SQLite file under bench/out/ (PostgreSQL with --database-url, e.g.
postgres://postgres@127.0.0.1:5432/lotacao_bench, dropped and created first).
Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_billing import setup  # noqa: E402  (the fresh, migrated database of every bench)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--formats", default="csv,xlsx,ods")
    ap.add_argument("--database-url", default="")
    ap.add_argument("--no-memory", action="store_true", help="time without tracemalloc (it slows Python)")
    return ap.parse_args()


def plate_for(n: int) -> str:
    l1, rest = divmod(n, 26 * 10 * 26 * 100)
    l2, rest = divmod(rest, 10 * 26 * 100)
    d1, rest = divmod(rest, 26 * 100)
    l3, d23 = divmod(rest, 100)
    return f"X{LETTERS[l1 % 26]}{LETTERS[l2]}{d1}{LETTERS[l3]}{d23:02d}"


def load(rows: int) -> None:
    from django.db import transaction

    from lotacao.accounts.models import Role, StaffMembership, User
    from lotacao.core.models import Jurisdiction
    from lotacao.registry.models import Holder, Person, Vehicle

    recife = Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU", state="PE")
    user = User.objects.create_user("bench.atendente", password="bench-password-123")
    StaffMembership.objects.create(user=user, jurisdiction=recife, role=Role.CLERK)
    batch = 5000
    for start in range(0, rows, batch):
        end = min(start + batch, rows)
        with transaction.atomic():
            people = Person.objects.bulk_create(
                [
                    Person(jurisdiction=recife, cpf=f"{n:011d}", full_name=f"Pessoa {n}")
                    for n in range(start, end)
                ]
            )
            holders = Holder.objects.bulk_create([Holder(jurisdiction=recife, person=p) for p in people])
            Vehicle.objects.bulk_create(
                [
                    Vehicle(
                        jurisdiction=recife,
                        plate=plate_for(start + i),
                        manufacture_year=2020,
                        category="van",
                        seats=16,
                        doors=4,
                        holder=h,
                    )
                    for i, h in enumerate(holders)
                ]
            )


def main() -> None:
    args = parse_args()
    setup(args.database_url, "bench_exports")
    started = time.perf_counter()
    load(args.rows)
    print(f"{args.rows} veículos carregados em {time.perf_counter() - started:.1f} s", flush=True)
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from lotacao.accounts.models import User

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = False
    client = Client()
    client.force_login(User.objects.get(username="bench.atendente"))
    client.get("/cadastro/veiculos/")  # warm up: the first request of a process imports and compiles
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"RSS de pico antes das exportações: {rss:.0f} MiB; carga média {os.getloadavg()}", flush=True)
    for fmt in args.formats.split(","):
        if not args.no_memory:
            tracemalloc.start()
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as seen:
            response = client.get("/cadastro/veiculos/", {"formato": fmt})
            size = 0
            for chunk in response.streaming_content if response.streaming else [response.content]:
                size += len(chunk)
        elapsed = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1] if not args.no_memory else 0
        tracemalloc.stop()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{fmt:>4}: {elapsed:6.1f} s, {size / 1e6:6.1f} MB, {len(seen.captured_queries)} consultas, "
            f"pico de memória Python {peak / 1e6:6.1f} MB, RSS de pico do processo até aqui "
            f"{rss:.0f} MiB (status {response.status_code}; carga {os.getloadavg()[0]:.1f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
