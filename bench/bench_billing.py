#!/usr/bin/env python3
"""Monthly billing benchmark (issue 13): a run over --permits Recife holders (a 4% management fee on
each one's declared demand, valued by the engine) and --companies Pernambuco companies (FUSP-F,
NV × R$ 40,45), through the real services: simulate, approve, execute.

Prints, per jurisdiction: charges made, wall time of the plan and of the execution, SQL queries per
charge; and, in the same run, a bulk insert of the same rows (`bulk_create` of the charges alone,
no plan, no audit) with the ratio of the run's total time to it.

Usage:
  .venv/bin/python bench/bench_billing.py [--permits 100000] [--companies 2000] [--database-url URL]
Default database: a fresh SQLite file under bench/out/ (PostgreSQL with --database-url, e.g.
postgres://postgres@127.0.0.1:5432/lotacao_bench, created if missing and emptied first).
Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT / "src"))
PERIOD = dt.date(2027, 2, 1)


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--permits", type=int, default=100_000)
    ap.add_argument("--companies", type=int, default=2_000)
    ap.add_argument("--database-url", default="")
    return ap.parse_args()


def setup(url: str, name: str = "bench_billing") -> None:
    """A fresh database (SQLite under bench/out/<name>.sqlite3, or the PostgreSQL one of `url`
    dropped and created again), Django set up on it and migrated. The other benches reuse it."""
    if not url:
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"{name}.sqlite3"
        path.unlink(missing_ok=True)
        url = f"sqlite:///{path}"
    else:
        import psycopg

        parts = urlparse(url)
        name = parts.path.lstrip("/")
        with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lotacao.config.settings.dev")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def load(permits: int, companies: int) -> None:
    from lotacao.billing.models import Account, DemandDeclaration, FareAct
    from lotacao.chartering.models import CharteringCompany, FleetVehicle
    from lotacao.core.models import Jurisdiction
    from lotacao.inspections.models import Seal
    from lotacao.registry.models import Company, Holder, Line, Person, Vehicle
    from lotacao.web.agency_values import set_agency_value

    random.seed(13)
    recife = Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU", state="PE")
    pe = Jurisdiction.objects.create(code="pernambuco", name="Pernambuco", official_name="EPTI", state="PE")
    for parameter, value in (
        ("fee.base.management", {"method": "passengers_x_fare"}),
        ("fee.due_day.management", 15),
    ):
        set_agency_value(
            actor=None,
            jurisdiction=recife,
            parameter=parameter,
            valid_from=dt.date(2020, 1, 1),
            value=value,
            cite="Portaria de teste",
            reason="bench",
        )
    lines = Line.objects.bulk_create(
        [Line(jurisdiction=recife, code=f"L{n:03d}", name=f"Linha {n}") for n in range(50)]
    )
    FareAct.objects.bulk_create(
        [
            FareAct(
                jurisdiction=recife,
                line=line,
                valid_from=dt.date(2026, 1, 1),
                amount=Decimal("4.10"),
                act="Decreto",
            )
            for line in lines
        ]
    )
    batch = 5000
    for start in range(0, permits, batch):
        people = Person.objects.bulk_create(
            [
                Person(jurisdiction=recife, cpf=f"{n:011d}", full_name=f"Permissionário {n}")
                for n in range(start, min(start + batch, permits))
            ]
        )
        holders = Holder.objects.bulk_create([Holder(jurisdiction=recife, person=p) for p in people])
        Account.objects.bulk_create(
            [Account(jurisdiction=recife, holder=h, opened_on=dt.date(2026, 1, 1)) for h in holders]
        )
        DemandDeclaration.objects.bulk_create(
            [
                DemandDeclaration(
                    jurisdiction=recife,
                    holder=h,
                    line=lines[i % len(lines)],
                    month=dt.date(2027, 1, 1),
                    full_passengers=random.randint(6_000, 14_000),
                    source="permissionario",
                )
                for i, h in enumerate(holders)
            ]
        )
    firms = Company.objects.bulk_create(
        [
            Company(jurisdiction=pe, cnpj=f"{n:014d}", legal_name=f"Fretamento {n} Ltda")
            for n in range(companies)
        ]
    )
    holders = Holder.objects.bulk_create([Holder(jurisdiction=pe, company=c) for c in firms])
    Account.objects.bulk_create(
        [
            Account(jurisdiction=pe, holder=h, opened_on=dt.date(2026, 1, 1), modalities=["eventual"])
            for h in holders
        ]
    )
    # FUSP-F counts the fleet's vehicles with a traffic authorization (the yearly seal) on the
    # period's first day — answered by chartering through the seam `fee_vehicles`. Vehicles that
    # are only in the registry count for nothing, which is why an earlier version of this bench
    # billed Pernambuco's companies 0 charges.
    chartering = CharteringCompany.unscoped.bulk_create(
        [CharteringCompany(jurisdiction=pe, holder=h) for h in holders], batch_size=5000
    )
    owners = [c for c in chartering for _ in range(random.randint(1, 6))]
    vehicles = Vehicle.objects.bulk_create(
        [
            Vehicle(
                jurisdiction=pe,
                holder_id=c.holder_id,
                plate=f"P{n:06d}",
                manufacture_year=2020,
                category="bus",
                seats=46,
                doors=2,
            )
            for n, c in enumerate(owners)
        ],
        batch_size=5000,
    )
    FleetVehicle.unscoped.bulk_create(
        [
            FleetVehicle(jurisdiction=pe, company=c, vehicle=v, added_on=dt.date(2026, 1, 1))
            for c, v in zip(owners, vehicles, strict=True)
        ],
        batch_size=5000,
    )
    Seal.unscoped.bulk_create(
        [
            Seal(
                jurisdiction=pe,
                vehicle=v,
                number=f"S-{v.pk}",
                issued_on=dt.date(2026, 6, 1),
                valid_until=dt.date(2027, 5, 31),
            )
            for v in vehicles
        ],
        batch_size=5000,
    )


def measure(code: str) -> tuple[int, float, float, int, list[object]]:
    from django.db import connection

    from lotacao.billing.runs import services
    from lotacao.core.models import Jurisdiction

    jurisdiction = Jurisdiction.objects.get(code=code)
    counted = [0]

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        counted[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        t0 = time.perf_counter()
        run = services.simulate(actor=None, jurisdiction=jurisdiction, period=PERIOD, reason="bench")
        t1 = time.perf_counter()
        run = services.approve(actor=None, run=run, reason="bench")
        made = services.execute(actor=None, run=run, reason="bench")
        t2 = time.perf_counter()
    assert not run.refusals, run.refusals
    return len(made), t1 - t0, t2 - t1, counted[0], made


def bulk_baseline(made: list[object]) -> float:
    from django.db import transaction

    from lotacao.billing.models import Charge

    copies = []
    for charge in made:
        copy = Charge(
            **{
                f.attname: getattr(charge, f.attname)
                for f in Charge._meta.concrete_fields
                if f.attname != "id"
            }
        )
        copy.key = f"bulk:{charge.key}"
        copies.append(copy)
    t0 = time.perf_counter()
    for start in range(0, len(copies), 2000):
        with transaction.atomic():
            Charge.unscoped.bulk_create(copies[start : start + 2000])
    return time.perf_counter() - t0


def main() -> None:
    args = parse_args()
    setup(args.database_url)
    from django.db import connection

    t0 = time.perf_counter()
    load(args.permits, args.companies)
    print(
        f"database: {connection.vendor}; loaded {args.permits} permits and {args.companies} companies "
        f"in {time.perf_counter() - t0:.1f} s"
    )
    for code in ("recife", "pernambuco"):
        count, plan_s, exec_s, queries, made = measure(code)
        bulk_s = bulk_baseline(made)
        total = plan_s + exec_s
        print(
            f"{code}: {count} charges; plan {plan_s:.2f} s, execute {exec_s:.2f} s, total {total:.2f} s "
            f"({count / total:.0f} charges/s); {queries} SQL queries "
            f"({queries / max(count, 1):.3f} per charge); "
            f"bulk insert of the same rows {bulk_s:.2f} s; ratio run/bulk {total / bulk_s:.1f}"
        )


if __name__ == "__main__":
    main()
