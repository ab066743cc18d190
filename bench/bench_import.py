#!/usr/bin/env python3
"""Register import benchmark (issue 20): --permits N permits with their persons, holders and
vehicles (four CSV files, as an agency brings them) imported by `import_register` — every row
validated by the screens' rules, written set-based in one transaction with an audit event per
row — against, in the same run, a bulk insert of the same rows (`bulk_create` of the persons,
holders, vehicles and permits alone: no reading, no validation, no audit) into another
jurisdiction.

Prints the wall time of each, their ratio, rows per second, and the process's peak RSS (run it
at two sizes to see the memory stay flat: the import reads and writes in chunks; the bench
makes its rows as it writes them, so the RSS it prints before and after the import is the
import's).

Usage:
  .venv/bin/python bench/bench_import.py [--permits 100000] [--database-url URL] [--dry-run]
Default database: a fresh SQLite file under bench/out/ (PostgreSQL with --database-url, e.g.
postgres://postgres@127.0.0.1:5432/lotacao_bench_import, created if missing and emptied first).
Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import itertools
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_billing import setup  # noqa: E402  (the fresh, migrated database of every bench)


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--permits", type=int, default=100_000)
    ap.add_argument("--database-url", default="")
    ap.add_argument(
        "--dry-run", action="store_true", help="also time the preview (dry run) before the import"
    )
    return ap.parse_args()


def plate(i: int) -> str:
    """A distinct Mercosul plate per i (AAA0A00 … ZZZ9Z99)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    digits, i = i % 100, i // 100
    middle, i = letters[i % 26], i // 26
    first, i = i % 10, i // 10
    head = "".join(letters[(i // 26**k) % 26] for k in (2, 1, 0))
    return f"{head}{first}{middle}{digits:02d}"


def rows(n: int) -> Iterator[dict[str, Any]]:
    """The n rows, made as they are read (the bench itself holds none of them, so the peak RSS
    it prints is the import's)."""
    from lotacao.core.sample_ids import sample_cpf, sample_renavam

    for i in range(n):
        yield {
            "cpf": sample_cpf(600_000_000 + i),
            "name": f"Permissionário {i}",
            "plate": plate(i),
            "renavam": sample_renavam(700_000 + i),
            "number": f"{i + 1:06d}/2020",
        }


def chunked(items: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    while chunk := list(itertools.islice(items, size)):
        yield chunk


def write_files(directory: Path, n: int) -> None:
    directory.mkdir(parents=True, exist_ok=True)

    def out(name: str, header: list[str], lines: Any) -> None:
        with (directory / f"{name}.csv").open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter=";")
            writer.writerow(header)
            writer.writerows(lines)

    out(
        "pessoas",
        ["CPF", "Nome completo", "Data de nascimento", "Município", "UF"],
        ([r["cpf"], r["name"], "01/02/1980", "Recife", "PE"] for r in rows(n)),
    )
    out("permissionarios", ["CPF ou CNPJ"], ([r["cpf"]] for r in rows(n)))
    out(
        "veiculos",
        [
            "Placa",
            "RENAVAM",
            "Marca/modelo",
            "Ano de fabricação",
            "Categoria",
            "Lugares (com motorista e cobrador)",
            "Portas",
            "CPF ou CNPJ do permissionário",
        ],
        (
            [r["plate"], r["renavam"], "Renault Master", "2024", "Van / kombi", "16", "4", r["cpf"]]
            for r in rows(n)
        ),
    )
    out(
        "permissoes",
        ["Número", "CPF ou CNPJ do permissionário", "Placa", "Situação", "Outorgada em", "Válida até"],
        ([r["number"], r["cpf"], r["plate"], "Ativa", "01/03/2024", "28/02/2034"] for r in rows(n)),
    )


def bulk_insert(code: str, n: int) -> float:
    """The same rows by bulk_create alone (the floor any import is measured against)."""
    from django.db import reset_queries, transaction

    from lotacao.permits.models import Permit
    from lotacao.registry.models import Holder, Person, Vehicle

    start = time.perf_counter()
    with transaction.atomic():
        for chunk in chunked(rows(n), 2000):
            reset_queries()  # DEBUG's log of every query's SQL, as the import drops it per chunk
            persons = Person.unscoped.bulk_create(
                [
                    Person(
                        jurisdiction_id=code,
                        cpf=r["cpf"],
                        full_name=r["name"],
                        name_search=r["name"].lower(),
                        birth_date=dt.date(1980, 2, 1),
                        city="Recife",
                        state="PE",
                    )
                    for r in chunk
                ]
            )
            holders = Holder.unscoped.bulk_create([Holder(jurisdiction_id=code, person=p) for p in persons])
            vehicles = Vehicle.unscoped.bulk_create(
                [
                    Vehicle(
                        jurisdiction_id=code,
                        plate=r["plate"],
                        renavam=r["renavam"],
                        make_model="Renault Master",
                        manufacture_year=2024,
                        category="van",
                        seats=16,
                        doors=4,
                        holder=h,
                    )
                    for r, h in zip(chunk, holders, strict=True)
                ]
            )
            Permit.unscoped.bulk_create(
                [
                    Permit(
                        jurisdiction_id=code,
                        number=r["number"],
                        holder=h,
                        vehicle=v,
                        status="active",
                        applied_on=dt.date(2024, 3, 1),
                        granted_on=dt.date(2024, 3, 1),
                        valid_until=dt.date(2034, 2, 28),
                    )
                    for r, h, v in zip(chunk, holders, vehicles, strict=True)
                ]
            )
    return time.perf_counter() - start


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    args = parse_args()
    setup(args.database_url, "bench_import")
    from django.db import connection

    from lotacao.core.models import Jurisdiction
    from lotacao.onboarding.register.importer import import_register

    recife = Jurisdiction.objects.create(
        code="recife", name="Recife", official_name="CTTU", state="PE", timezone="America/Recife"
    )
    Jurisdiction.objects.create(code="bulk", name="Inserção direta", official_name="—", state="PE")
    n = args.permits
    directory = OUT / f"import_{n}"
    write_files(directory, n)
    print(f"{connection.vendor}: {n} permissões, com {n} pessoas, permissionários e veículos")
    print(f"carga média no início: {load()}", flush=True)

    bulk = bulk_insert("bulk", n)
    print(f"inserção direta (bulk_create das mesmas linhas): {bulk:.1f} s", flush=True)
    print(f"RSS de pico antes da importação: {peak_rss_mib():.0f} MiB; carga média {load()}", flush=True)
    if args.dry_run:
        start = time.perf_counter()
        preview = import_register(jurisdiction=recife, directory=directory, actor=None, dry_run=True)
        print(
            f"prévia (simulação): {time.perf_counter() - start:.1f} s; erros: {len(preview.errors)}",
            flush=True,
        )
    start = time.perf_counter()
    report = import_register(jurisdiction=recife, directory=directory, actor=None)
    took = time.perf_counter() - start
    assert report.saved and not report.errors, [str(e) for e in report.errors[:5]]
    rows_written = sum(report.created.values())
    print(f"importação: {took:.1f} s ({rows_written} registros, {rows_written / took:,.0f} por segundo)")
    print(f"razão importação ÷ inserção direta: {took / bulk:.2f}")
    print(f"RSS de pico depois da importação: {peak_rss_mib():.0f} MiB; carga média {load()}", flush=True)
    start = time.perf_counter()
    again = import_register(jurisdiction=recife, directory=directory, actor=None)
    print(
        f"segunda importação (nada a criar): {time.perf_counter() - start:.1f} s; "
        f"criados: {sum(again.created.values())}"
    )
    print(f"RSS de pico do processo: {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
