"""Benchmark of the GTFS export (a script, not a timed test).

    .venv/bin/python bench/bench_gtfs.py [--lines 500] [--trips 200] [--stops 10] [--database-url URL]

Loads --lines lines, each with an approved version of --stops stops and a service order of --trips
fixed departures a weekday (plus a headway period on Sundays), into a scratch database (SQLite in a
temporary folder unless --database-url names a PostgreSQL one; everything is rolled back), then:

(a) the export as the API runs it (`lotacao.lines.gtfs.export`: queries, stop offsets along the
    itinerary, rows, csv into a deflated zip): wall time, and peak Python memory (tracemalloc, in a
    second run so that tracing does not slow the timed one);
(b) the same rows, already in memory, written with the csv module alone (to memory, uncompressed,
    as (a) writes to memory) in the same run: wall time and peak memory; and the ratio (a)/(b).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
DAY = dt.date(2025, 6, 16)


RUNS = 3

def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lines", type=int, default=500)
    parser.add_argument("--trips", type=int, default=200)
    parser.add_argument("--stops", type=int, default=10)
    parser.add_argument("--database-url", default="")
    return parser.parse_args()


def load(args: argparse.Namespace) -> None:
    from lotacao.core.models import Jurisdiction
    from lotacao.lines.models import LineVersion, ServiceOrder, ServicePeriod, Stop
    from lotacao.registry.models import Line

    j, _ = Jurisdiction.objects.get_or_create(
        code="esteio", defaults={"name": "Esteio", "official_name": "SMOVT", "state": "RS"}
    )
    lines = Line.objects.bulk_create(
        [Line(jurisdiction=j, code=f"B-{n:04d}", name=f"Linha {n}") for n in range(args.lines)]
    )
    versions, stops, orders = [], [], []
    for n, line in enumerate(lines):
        lon, lat = -51.18 + (n % 50) * 0.002, -29.86 + (n // 50) * 0.002
        path = [[lon + k * 0.003, lat + (k % 2) * 0.001] for k in range(args.stops)]
        versions.append(
            LineVersion(
                jurisdiction=j,
                line=line,
                number=1,
                status="approved",
                shape="local",
                origin="A",
                destination="B",
                itinerary=path,
                valid_from=DAY,
                approval_act="Decisão 1",
                approval_body="SMOVT",
            )
        )
    versions = LineVersion.objects.bulk_create(versions)
    for version in versions:
        for k, (lon, lat) in enumerate(version.itinerary, start=1):
            stops.append(
                Stop(jurisdiction=j, version=version, sequence=k, name=f"Parada {k}", lat=lat, lon=lon)
            )
        orders.append(
            ServiceOrder(
                jurisdiction=j,
                line_id=version.line_id,
                version=version,
                number=1,
                status="issued",
                valid_from=DAY,
                act="OSO 1",
                fleet=10,
                trip_minutes=60,
            )
        )
    Stop.objects.bulk_create(stops, batch_size=5000)
    orders = ServiceOrder.objects.bulk_create(orders)
    step = max(1, (20 * 60) // args.trips)
    departures = [5 * 60 + k * step for k in range(args.trips)]
    periods = []
    for order in orders:
        periods.append(
            ServicePeriod(
                jurisdiction=j,
                order=order,
                day_type="weekday",
                first=departures[0],
                last=departures[-1],
                departures=departures,
            )
        )
        periods.append(
            ServicePeriod(jurisdiction=j, order=order, day_type="sunday", first=360, last=1320, headway=20)
        )
    ServicePeriod.objects.bulk_create(periods, batch_size=5000)


def write_csv(rows: dict[str, list[list[object]]]) -> int:
    """The rows with the csv module alone, to memory like (a)'s zip (the disk is not measured)."""
    from lotacao.lines import gtfs

    written = 0
    for name, table in rows.items():
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(gtfs.HEADERS[name])
        writer.writerows(table)
        written += len(out.getvalue())
    return written


def measure(args: argparse.Namespace) -> None:
    from lotacao.lines import gtfs

    url = "https://lotacao.example.org/publico/linhas/esteio/"
    # The first export of a process also loads the law's pack and the holidays; a server exports
    # many times. Both (a) and (b) are the median of RUNS runs; the first (cold) export is printed.
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        feed = gtfs.export("esteio", DAY, url)
        times.append(time.perf_counter() - started)
    cold_s = times[0]
    export_s = statistics.median(times)
    tracemalloc.start()
    gtfs.export("esteio", DAY, url)
    export_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    built = gtfs.build("esteio", DAY, url)
    rows = {name: list(table) for name, table in gtfs.tables(built)}
    counts = {name: len(table) for name, table in rows.items()}
    csv_times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        written = write_csv(rows)
        csv_times.append(time.perf_counter() - started)
    csv_s = statistics.median(csv_times)
    tracemalloc.start()  # a second pass, traced: tracing slows the writing down
    write_csv(rows)
    csv_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rows_total = sum(counts.values())
    print(f"{args.lines} linhas × {args.trips} viagens por dia útil ({args.stops} paradas cada):")
    print(
        f"  linhas nas tabelas: {rows_total:,}".replace(",", ".")
        + f" (stop_times: {counts['stop_times.txt']:,})".replace(",", ".")
    )
    print(
        f"  (a) exportação completa (consultas + linhas + zip): {export_s:.2f} s (mediana de {RUNS}; "
        f"a primeira, fria: {cold_s:.2f} s); "
        f"zip de {len(feed) / 1e6:.1f} MB; pico de memória Python {export_peak / 1e6:.1f} MB"
    )
    print(
        f"  (b) as mesmas linhas só com o módulo csv: {csv_s:.2f} s (mediana de {RUNS}); "
        f"pico {csv_peak / 1e6:.1f} MB "
        f"(texto de {written / 1e6:.0f} MB; as linhas já em memória não entram na conta)"
    )
    print(f"  razão (a)/(b): {export_s / csv_s:.2f}")


def main() -> None:
    args = parse_args()
    folder = tempfile.mkdtemp(prefix="lotacao-bench-gtfs-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lotacao.config.settings.test")
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    call_command("migrate", verbosity=0)
    with transaction.atomic():
        started = time.perf_counter()
        load(args)
        print(f"carga: {time.perf_counter() - started:.1f} s")
        measure(args)
        transaction.set_rollback(True)  # leave the database as it was


if __name__ == "__main__":
    main()
