#!/usr/bin/env python3
"""Chartering benchmark (issue 14): the road check and the nightly purge of passenger lists on
PostgreSQL, with Pernambuco's register at the issue's size.

Loads (bulk, in batches) --companies companies with a CRC, --vehicles vehicles in their fleets
(insured, with the traffic authorization), --trips trips a day with --passengers names each, over
--days days (today and the days before). Then prints:
  - the inspector's plate check (`chartering.selectors.road_check`, and the screen
    /fretamento/fiscalizacao/?placa= through Django's test client as a signed-in inspector) and the
    manifest's QR (/publico/fretamento/viagens/<token>/ → the trip with its list opened, audited):
    p50/p95 in ms, beside a baseline in the same run — the bare plate lookup
    (Vehicle by plate, one indexed query) and the bare JSON view /saude/;
  - the nightly purge (`chartering.privacy.purge`) of one day's lists (the steady state: the
    lists of the trips back before the retention the agency set), and the same purge over a
    small day (--baseline-trips) in the same run, with the ratio per trip.

Usage:
  .venv/bin/python bench/bench_trips.py [--companies 2000] [--vehicles 20000] [--trips 5000]
                                        [--passengers 40] [--days 3] [--lookups 300] [--quick]
Needs PostgreSQL (default postgres://postgres@127.0.0.1:5432/lotacao_bench, created if missing).
Everything it made is deleted before and after (the audit log keeps its entries: append-only).
Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_penalty_history import make_jurisdiction  # noqa: E402
from bench_registry import ensure_database, environment  # noqa: E402

PREFIX = "Bancada Fretamento"
RETENTION_DAYS = 1


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--companies", type=int, default=2_000)
    ap.add_argument("--vehicles", type=int, default=20_000)
    ap.add_argument("--trips", type=int, default=5_000, help="trips a day")
    ap.add_argument("--passengers", type=int, default=40, help="names per trip")
    ap.add_argument("--days", type=int, default=3, help="days of trips (today and before)")
    ap.add_argument("--baseline-trips", type=int, default=50)
    ap.add_argument("--lookups", type=int, default=300)
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/lotacao_bench")
    ap.add_argument("--quick", action="store_true", help="small sizes: checks that the script runs")
    args = ap.parse_args()
    if args.quick:
        args.companies, args.vehicles, args.trips, args.days, args.lookups = 50, 500, 200, 3, 40
    return args


def plate(i: int) -> str:
    """A valid Mercosul plate per index (PBA0A00…), unique below 676,000."""
    return f"PB{chr(65 + (i // 26000) % 26)}{(i // 2600) % 10}{chr(65 + (i // 100) % 26)}{i % 100:02d}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def clear() -> None:
    from django.db import connection

    with connection.cursor() as c:
        c.execute(
            "SELECT h.id FROM registry_holder h JOIN registry_company co ON co.id = h.company_id "
            "WHERE co.legal_name LIKE %s",
            [PREFIX + "%"],
        )
        holders = [r[0] for r in c.fetchall()]
        if not holders:
            return
        c.execute("SELECT id FROM chartering_charteringcompany WHERE holder_id = ANY(%s)", [holders])
        companies = [r[0] for r in c.fetchall()]
        c.execute("SELECT id FROM registry_vehicle WHERE holder_id = ANY(%s)", [holders])
        vehicles = [r[0] for r in c.fetchall()]
        for sql, ids in (
            (
                "DELETE FROM chartering_passenger WHERE trip_id IN (SELECT id FROM chartering_trip WHERE company_id = ANY(%s))",  # noqa: E501
                companies,
            ),
            ("DELETE FROM chartering_trip WHERE company_id = ANY(%s)", companies),
            ("DELETE FROM chartering_fleetvehicle WHERE company_id = ANY(%s)", companies),
            ("DELETE FROM chartering_crc WHERE company_id = ANY(%s)", companies),
            ("DELETE FROM chartering_crcapplication WHERE company_id = ANY(%s)", companies),
            ("DELETE FROM chartering_charteringcompany WHERE id = ANY(%s)", companies),
            ("DELETE FROM inspections_seal WHERE vehicle_id = ANY(%s)", vehicles),
            ("DELETE FROM inspections_insurancepolicy WHERE vehicle_id = ANY(%s)", vehicles),
            ("DELETE FROM registry_vehicle WHERE id = ANY(%s)", vehicles),
            ("DELETE FROM registry_holder WHERE id = ANY(%s)", holders),
        ):
            c.execute(sql, [ids])
        c.execute("DELETE FROM registry_company WHERE legal_name LIKE %s", [PREFIX + "%"])


def load_register(args: argparse.Namespace, today: dt.date) -> tuple[list[Any], list[Any]]:
    """Companies with a CRC and their fleets; returns (companies, fleet entries)."""
    from decimal import Decimal

    from django.db import transaction

    from lotacao.chartering.models import CharteringCompany, Crc, CrcApplication, FleetVehicle
    from lotacao.core.sample_ids import sample_cnpj
    from lotacao.inspections.models import InsurancePolicy, Seal
    from lotacao.registry.models import Company, Holder, Vehicle

    j = make_jurisdiction("pernambuco")
    with transaction.atomic():
        parties = Company.unscoped.bulk_create(
            [
                Company(
                    jurisdiction=j, cnpj=sample_cnpj(600_000_000 + i), legal_name=f"{PREFIX} {i:05d} Ltda."
                )
                for i in range(args.companies)
            ],
            batch_size=5000,
        )
        holders = Holder.unscoped.bulk_create(
            [Holder(jurisdiction=j, company=p) for p in parties], batch_size=5000
        )
        companies = CharteringCompany.unscoped.bulk_create(
            [CharteringCompany(jurisdiction=j, holder=h) for h in holders], batch_size=5000
        )
        apps = CrcApplication.unscoped.bulk_create(
            [
                CrcApplication(
                    jurisdiction=j,
                    company=c,
                    modalities=["eventual", "tourism"],
                    filed_on=today,
                    status="issued",
                )
                for c in companies
            ],
            batch_size=5000,
        )
        Crc.unscoped.bulk_create(
            [
                Crc(
                    jurisdiction=j,
                    company=c,
                    application=a,
                    number=f"CRC-B-{c.pk}",
                    modalities=["eventual", "tourism"],
                    issued_on=today - dt.timedelta(days=30),
                    valid_until=today + dt.timedelta(days=300),
                )
                for c, a in zip(companies, apps, strict=True)
            ],
            batch_size=5000,
        )
        vehicles = Vehicle.unscoped.bulk_create(
            [
                Vehicle(
                    jurisdiction=j,
                    plate=plate(i),
                    manufacture_year=today.year - 3,
                    category="bus",
                    seats=46,
                    doors=2,
                    holder=holders[i % len(holders)],
                )
                for i in range(args.vehicles)
            ],
            batch_size=5000,
        )
        entries = FleetVehicle.unscoped.bulk_create(
            [
                FleetVehicle(jurisdiction=j, company=companies[i % len(companies)], vehicle=v, added_on=today)
                for i, v in enumerate(vehicles)
            ],
            batch_size=5000,
        )
        InsurancePolicy.unscoped.bulk_create(
            [
                InsurancePolicy(
                    jurisdiction=j,
                    vehicle=v,
                    insurer="Seguradora",
                    number=f"B{v.pk}",
                    civil_liability=Decimal("500000"),
                    valid_from=today - dt.timedelta(days=30),
                    valid_until=today + dt.timedelta(days=330),
                )
                for v in vehicles
            ],
            batch_size=5000,
        )
        Seal.unscoped.bulk_create(
            [
                Seal(
                    jurisdiction=j,
                    vehicle=v,
                    number=f"S-B-{v.pk}",
                    issued_on=today - dt.timedelta(days=30),
                    valid_until=today + dt.timedelta(days=330),
                )
                for v in vehicles
            ],
            batch_size=5000,
        )
    return companies, entries


def load_trips(entries: list[Any], crcs: dict[int, Any], per_day: int, names: int, days: int) -> list[Any]:
    """`per_day` trips a day for `days` days back from today (noon), `names` passengers each."""
    from django.db import connection, transaction
    from django.utils import timezone

    from lotacao.chartering.models import Passenger, Trip

    today = timezone.localdate()
    made: list[Any] = []
    for back in range(days):  # out at 08:00, back at 16:00 the same day (local time)
        departs = timezone.make_aware(dt.datetime.combine(today - dt.timedelta(days=back), dt.time(8, 0)))
        chosen = random.sample(entries, min(per_day, len(entries)))
        with transaction.atomic():
            trips = Trip.unscoped.bulk_create(
                [
                    Trip(
                        jurisdiction_id=e.jurisdiction_id,
                        company_id=e.company_id,
                        crc=crcs[e.company_id],
                        vehicle_id=e.vehicle_id,
                        modality="tourism",
                        contractor_name="Contratante",
                        origin="Recife",
                        destination="Caruaru",
                        departs_at=departs,
                        returns_at=departs + dt.timedelta(hours=8),
                        driver_name="Condutor",
                        driver_document="01234567890",
                        passenger_count=names,
                    )
                    for e in chosen
                ],
                batch_size=5000,
            )
            Passenger.unscoped.bulk_create(
                [
                    Passenger(
                        jurisdiction_id=t.jurisdiction_id,
                        trip=t,
                        name=f"Passageiro {n}",
                        document=f"RG {t.pk}-{n}",
                        position=n,
                    )
                    for t in trips
                    for n in range(1, names + 1)
                ],
                batch_size=10_000,
            )
        made += trips
    with connection.cursor() as c:
        c.execute("VACUUM ANALYZE chartering_trip")
        c.execute("VACUUM ANALYZE chartering_passenger")
    return made


def timed(fn: Any, runs: list[Any]) -> list[float]:
    out = []
    for item in runs:
        t0 = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def lookups(args: argparse.Namespace, today_trips: list[Any]) -> None:
    from django.test import Client
    from django.utils import timezone

    from lotacao.accounts.models import Role, StaffMembership, User
    from lotacao.chartering import selectors
    from lotacao.registry.models import Vehicle

    user, _ = User.objects.get_or_create(username="fiscal.bancada.fretamento")
    StaffMembership.objects.get_or_create(user=user, jurisdiction_id="pernambuco", role=Role.INSPECTOR)
    client = Client()
    client.force_login(user)
    today = timezone.localdate()
    sample = random.sample(today_trips, min(args.lookups, len(today_trips)))
    plates = [Vehicle.unscoped.get(pk=t.vehicle_id).plate for t in sample]
    rows = {
        "linha de base: veículo pela placa (1 consulta)": timed(
            lambda p: Vehicle.unscoped.get(plate=p), plates
        ),
        "road_check (seletor)": timed(
            lambda p: selectors.road_check(Vehicle.unscoped.get(plate=p), today), plates
        ),
        "linha de base: /saude/": timed(lambda _p: client.get("/saude/"), plates),
        "tela /fretamento/fiscalizacao/?placa=": timed(
            lambda p: client.get("/fretamento/fiscalizacao/", {"placa": p}), plates
        ),
        "QR do manifesto → viagem com a lista aberta": timed(
            lambda t: (
                client.get(f"/publico/fretamento/viagens/{t.token}/", follow=False)
                and client.get(f"/fretamento/viagens/{t.pk}/", {"lista": "1"})
            ),
            sample,
        ),
    }
    status = client.get("/fretamento/fiscalizacao/", {"placa": plates[0]}).status_code
    assert status == 200, status
    print(f"consultas na estrada ({len(plates)} placas com viagem hoje):")
    for label, values in rows.items():
        print(f"  {label:<46} p50 {statistics.median(values):7.2f} ms   p95 {pct(values, 0.95):7.2f} ms")


def purge_day(today: dt.date) -> tuple[float, dict[str, int]]:
    from lotacao.chartering import privacy

    t0 = time.perf_counter()
    result = privacy.purge(today=today)
    return time.perf_counter() - t0, result


def set_retention() -> None:
    from lotacao.core.law import forget
    from lotacao.core.models import AgencyValue

    make_jurisdiction("pernambuco")
    AgencyValue.unscoped.filter(
        jurisdiction_id="pernambuco", parameter="chartering.passenger_list_retention"
    ).delete()
    AgencyValue.unscoped.create(
        jurisdiction_id="pernambuco",
        parameter="chartering.passenger_list_retention",
        valid_from=dt.date(2020, 11, 13),
        value={"days": RETENTION_DAYS},
        cite="Bancada (valor fictício)",
    )
    forget("pernambuco")


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    os.environ.update(environment(args.database_url))
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from lotacao.chartering.models import Crc

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)  # production settings serve hashed names
    random.seed(14)
    today = timezone.localdate()
    clear()
    set_retention()
    t0 = time.perf_counter()
    companies, entries = load_register(args, today)
    crcs = {c.company_id: c for c in Crc.unscoped.filter(company__in=companies)}
    print(f"{len(companies):,} empresas, {len(entries):,} veículos ({time.perf_counter() - t0:.1f} s)")
    t0 = time.perf_counter()
    trips = load_trips(entries, crcs, args.trips, args.passengers, args.days)
    print(
        f"{len(trips):,} viagens em {args.days} dias, {len(trips) * args.passengers:,} passageiros "
        f"({time.perf_counter() - t0:.1f} s)"
    )
    today_trips = trips[: args.trips]
    lookups(args, today_trips)
    # The purge (retention: 1 day after the return): the first night takes the lists of the trips
    # back before today (the days loaded before today); the next night, today's (steady state).
    busy, result = purge_day(today + dt.timedelta(days=1))
    print(
        f"purga noturna (primeira noite, {args.days - 1} dias): {busy:6.2f} s — {result['viagens']:,} viagens, {result['passageiros']:,} passageiros"  # noqa: E501
    )
    steady, result = purge_day(today + dt.timedelta(days=2))
    print(
        f"purga noturna (regime, 1 dia):         {steady:6.2f} s — {result['viagens']:,} viagens, {result['passageiros']:,} passageiros"  # noqa: E501
    )
    steady_trips = max(result["viagens"], 1)
    clear()
    set_retention()
    companies, entries = load_register(
        argparse.Namespace(**{**vars(args), "companies": 20, "vehicles": 200}), today
    )
    crcs = {c.company_id: c for c in Crc.unscoped.filter(company__in=companies)}
    load_trips(entries, crcs, args.baseline_trips, args.passengers, 1)
    base, small = purge_day(today + dt.timedelta(days=2))
    print(f"linha de base: purga de {small['viagens']:,} viagens: {base:6.3f} s")
    ratio = (steady / steady_trips) / (base / max(small["viagens"], 1))
    print(f"  por viagem: regime ÷ linha de base = ×{ratio:.2f}")
    clear()


if __name__ == "__main__":
    main()
