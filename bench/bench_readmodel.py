#!/usr/bin/env python3
"""Public read-model rebuild benchmark (issue 25): the full rebuild against a bare SELECT.

Loads N vehicles into PostgreSQL (bench_registry's loader: people, holders, vehicles, permits,
insurance; plus a seal for most vehicles and a place on the line for some), then measures, in one
run:
  - (a) a bare SELECT of the same source rows the answers are made of (vehicles with their
    jurisdiction, permits with their line, seals, policies, places, measures, courses, fleet), one
    process, every row fetched;
  - (b) the full rebuild of the read model (lotacao.public.build): every answer recomputed
    set-based, range by range, by K processes — this one and K-1 `manage.py db_worker` on the
    nightly queue, started before the clock — from an empty read model;
  - the night after with nothing written (only what the date changes: `changes_on`);
  - the per-vehicle reference computation (readmodel.compute) on a sample, for comparison;
and prints the per-vehicle time and the extrapolation to 1,000,000 vehicles, then on its last line
`ratio <(b) ÷ (a)>`.

Usage:
  python bench/bench_readmodel.py [--quick] [--vehicles N] [--workers K] [--database-url URL] [--keep]
`--quick`: 2,000 vehicles. Default: 50,000 vehicles, 2 workers. Not a test: it prints figures; copy
them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_registry import ensure_database, environment, load  # noqa: E402


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2,000 vehicles")
    ap.add_argument("--vehicles", type=int, default=None)
    ap.add_argument(
        "--workers", type=int, default=2, help="processes sharing the rebuild (this one included)"
    )
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--keep", action="store_true", help="reuse the data already loaded")
    ap.add_argument("--sample", type=int, default=300, help="vehicles timed with the per-vehicle computation")
    args = ap.parse_args()
    args.vehicles = args.vehicles or (2_000 if args.quick else 50_000)
    args.database_url = args.database_url or (
        "postgres://postgres@127.0.0.1:5432/bench_readmodel" + ("_quick" if args.quick else "")
    )
    return args


def add_seals_and_places() -> None:
    """A seal for nine vehicles in ten (some run out within the year) and a place on the line for
    a third of them: what the answers read besides permits and policies."""
    from django.db import connection

    from lotacao.inspections.models import Seal
    from lotacao.lines.models import Place
    from lotacao.permits.models import Permit
    from lotacao.registry.models import Vehicle

    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {Seal._meta.db_table} (jurisdiction_id, vehicle_id, number, issued_on, "
            "valid_until, citations, created_at) SELECT v.jurisdiction_id, v.id, 'S' || v.id, "
            "CURRENT_DATE - 200, "
            "CURRENT_DATE + (v.id % 400)::int - 30, '[]', NOW() "
            f"FROM {Vehicle._meta.db_table} v WHERE v.id % 10 <> 0"
        )
        cursor.execute(
            f"INSERT INTO {Place._meta.db_table} (jurisdiction_id, permit_id, line_id, vehicle_id, "
            "starts_on, act, created_at) SELECT p.jurisdiction_id, p.id, p.line_id, p.vehicle_id, "
            "CURRENT_DATE - 300, 'bench', NOW() "
            f"FROM {Permit._meta.db_table} p WHERE p.vehicle_id % 3 = 0 AND p.line_id IS NOT NULL"
        )
        cursor.execute("ANALYZE")


def bare_select() -> tuple[float, int]:
    """Every source row the answers read, fetched by one process (no computing, no writing)."""
    from django.db import connection

    tables = {
        "v": "SELECT v.id, v.plate, v.jurisdiction_id, v.manufacture_year, v.category, v.holder_id, "
        "v.deregistered_on, j.name, j.official_name, j.timezone FROM registry_vehicle v "
        "JOIN core_jurisdiction j ON j.code = v.jurisdiction_id",
        "p": "SELECT p.id, p.vehicle_id, p.number, p.status, p.granted_on, p.valid_until, p.suspended_until, "
        "p.withdrawal_notice_on, p.ends_on, l.code, l.name FROM permits_permit p "
        "LEFT JOIN registry_line l ON l.id = p.line_id WHERE p.vehicle_id IS NOT NULL",
        "s": "SELECT vehicle_id, issued_on, valid_until, id FROM inspections_seal",
        "i": "SELECT vehicle_id, valid_from, valid_until, id FROM inspections_insurancepolicy",
        "pl": "SELECT pl.vehicle_id, pl.starts_on, pl.ends_on, l.code, l.name FROM lines_place pl "
        "JOIN registry_line l ON l.id = pl.line_id",
        "m": "SELECT m.id, m.kind, m.applied_at, n.plate, n.vehicle_id FROM enforcement_measure m "
        "JOIN enforcement_infractionnotice n ON n.id = m.notice_id WHERE m.status = 'in_force'",
        "c": "SELECT holder_id, required_on, citation FROM enforcement_courserequirement "
        "WHERE blocks_operation AND completed_on IS NULL",
        "f": "SELECT vehicle_id, company_id FROM chartering_fleetvehicle WHERE removed_on IS NULL",
    }
    rows = 0
    started = time.perf_counter()
    with connection.cursor() as cursor:
        for sql in tables.values():
            cursor.execute(sql)
            rows += len(cursor.fetchall())
    return time.perf_counter() - started, rows


def start_workers(count: int, env: dict[str, str]) -> list[subprocess.Popen[bytes]]:
    """K-1 `db_worker` processes on the nightly queue, returned once each says it has started."""
    procs = []
    for n in range(count):
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    str(ROOT / "manage.py"),
                    "db_worker",
                    "--queue-name",
                    "nightly",
                    "--interval",
                    "0.05",
                    "--no-startup-delay",
                    "--worker-id",
                    f"bench-readmodel-{n}",
                ],
                env={**os.environ, **env, "PYTHONPATH": str(ROOT / "src"), "LOTACAO_LOG_LEVEL": "INFO"},
                cwd=ROOT,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        )
    for proc in procs:
        assert proc.stderr is not None
        deadline = time.monotonic() + 120
        for line in proc.stderr:
            if b"Starting worker" in line:
                break
            if time.monotonic() > deadline:
                raise SystemExit("o db_worker não começou em 2 minutos")
        threading.Thread(target=lambda stream=proc.stderr: [None for _ in stream], daemon=True).start()
    return procs


def stop_workers(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    env = environment(args.database_url)
    env["LOTACAO_LOG_LEVEL"] = "WARNING"
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from lotacao.public import build, readmodel
    from lotacao.public.models import AnswerChunk, PublicAnswer
    from lotacao.registry.models import Vehicle

    call_command("migrate", verbosity=0)
    if not args.keep or Vehicle.objects.count() < args.vehicles:
        if Vehicle.objects.exists():
            raise SystemExit("o banco de benchmark já tem dados: use --keep ou apague-o (DROP DATABASE)")
        print(f"carregando {args.vehicles:,} veículos com permissões, seguros, selos e vagas…")
        load(args.vehicles)
        add_seals_and_places()
    total = Vehicle.objects.count()
    day = timezone.localdate()

    # (a) the bare SELECT, best of three (warm cache, as the rebuild finds it)
    select_s, rows = min(bare_select() for _ in range(3))
    print(f"(a) SELECT simples das linhas de origem: {rows:,} linhas em {select_s:.2f} s")

    # the per-vehicle reference, on a sample
    sample = list(Vehicle.unscoped.select_related("jurisdiction").order_by("?")[: args.sample])
    started = time.perf_counter()
    for vehicle in sample:
        readmodel.compute(vehicle, day)
    reference_ms = (time.perf_counter() - started) * 1000 / len(sample)
    print(f"cálculo por veículo (a referência): {reference_ms:.1f} ms por veículo ({len(sample)} amostrados)")

    # (b) the full rebuild from an empty read model, K processes
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {PublicAnswer._meta.db_table}")
    AnswerChunk.objects.all().delete()
    from django.conf import settings

    # Ranges of 2,000 vehicles; smaller on a small load, so that every worker gets several.
    settings.LOTACAO_PUBLIC_BUILD_CHUNK = max(100, min(build.CHUNK, total // (4 * args.workers)))
    helpers = start_workers(args.workers - 1, env)
    try:
        started = time.perf_counter()
        found = build.run(day, full=True, helpers=args.workers - 1)
        full_s = time.perf_counter() - started
    finally:
        stop_workers(helpers)
    assert found["recalculadas"] == total == PublicAnswer.objects.filter(dirty=False).count(), found
    per_ms = full_s * 1000 / total
    print(
        f"(b) reconstrução completa: {total:,} respostas em {full_s:.2f} s, {found['faixas']} faixas, "
        f"{found['processos']} processo(s) de {args.workers}"
    )
    started = time.perf_counter()
    night = readmodel.refresh(day + dt.timedelta(days=1))
    night_s = time.perf_counter() - started
    print(
        f"a noite seguinte, sem escrita: {night['recalculadas']:,} de {total:,} respostas mudam com a data, "
        f"recalculadas em {night_s:.2f} s"
    )
    print(
        f"por veículo na reconstrução: {per_ms:.3f} ms ({reference_ms / per_ms:.0f}× menos que a referência)"
    )
    print(f"extrapolado a 1.000.000 de veículos: {per_ms * 1_000_000 / 60_000:.1f} min (meta: < 15 min)")
    print(f"ratio {full_s / select_s:.2f}")


if __name__ == "__main__":
    main()
