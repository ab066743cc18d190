#!/usr/bin/env python3
"""Penalty benchmark (issue 5): the preview of a new notice for an offender with a long history.

Through the service and the database (`lotacao.enforcement.notices.services.prepare_notice`: it reads the
holder's earlier notices and asks the engine), in Recife, for a permit holder with --history
earlier notices (codes of the Recife pack, dates over the last 2 years, statuses decided_final /
annulled / notified) beside --others notices of other holders. Prints, for --calls previews
(alternating with the baseline):
  - p50 / p95 / max in ms, and the ratio to the same preview for a holder with 0 earlier notices
    (the baseline, measured in the same run);
  - the SQL queries of one preview with 0, 1/10 of and all the history (the count must not grow);
  - where the time of one preview with the full history goes (history query vs engine).

Usage:
  .venv/bin/python bench/bench_penalty_history.py [--history 200] [--calls 200] [--quick]
Needs PostgreSQL (default postgres://postgres@127.0.0.1:5432/lotacao_bench, created if missing).
Everything it creates is rolled back at the end: the benchmark database is left as it was.
Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_registry import cpf_for, ensure_database, environment, percentile, plate_for  # noqa: E402


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--history", type=int, default=200, help="earlier notices of the offender")
    ap.add_argument("--others", type=int, default=20_000, help="notices of other holders (same agency)")
    ap.add_argument("--calls", type=int, default=200, help="previews timed for each offender")
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/lotacao_bench")
    ap.add_argument("--show-queries", action="store_true", help="print the SQL of one preview")
    ap.add_argument("--quick", action="store_true", help="small sizes: checks that the script runs")
    args = ap.parse_args()
    if args.quick:
        args.history, args.others, args.calls = 20, 200, 10
    return args


def make_jurisdiction(code: str) -> Any:
    """The jurisdiction of a pack (as tests/enforcement/conftest.py), reused when it exists."""
    from lotacao.core.models import Jurisdiction
    from lotacao.law.packs import get_pack

    pack = get_pack(code)
    jurisdiction, _ = Jurisdiction.objects.get_or_create(
        code=code,
        defaults={
            "name": pack.name,
            "official_name": f"Órgão de {pack.name}",
            "state": pack.state,
            "timezone": pack.timezone,
        },
    )
    return jurisdiction


def make_permit(jurisdiction: Any, seed: int, line: Any) -> Any:
    """A person, holder, vehicle (through the registry services) and an active permit."""
    from lotacao.permits.models import Permit
    from lotacao.registry import services

    today = dt.date.today()
    person = services.create_person(
        actor=None,
        jurisdiction=jurisdiction,
        cpf=cpf_for(800_000_000 + seed),
        full_name=f"Permissionário de bancada {seed}",
        birth_date=dt.date(1975, 1, 1),
        reason="bancada",
    )
    holder = services.register_holder(actor=None, person=person, reason="bancada")
    vehicle = services.create_vehicle(
        actor=None,
        jurisdiction=jurisdiction,
        plate=plate_for(9_000_000 + seed),
        manufacture_year=today.year - 3,
        category="van",
        seats=16,
        doors=4,
        holder=holder,
        reason="bancada",
    )
    return Permit.objects.create(  # directly, as permits/testing.py: the grant's checks are not measured
        jurisdiction=jurisdiction,
        number=f"BENCH-{seed}",
        holder=holder,
        line=line,
        vehicle=vehicle,
        status=Permit.Status.ACTIVE,
        applied_on=today - dt.timedelta(days=800),
        granted_on=today - dt.timedelta(days=790),
        valid_until=today + dt.timedelta(days=365),
        term_citation="bancada",
    )


def earlier_notices(permit: Any, n: int, before: dt.datetime, rng: random.Random, prefix: str) -> None:
    """n notices of the permit's holder over the 2 years before `before`, bulk-created."""
    from lotacao.enforcement.models import InfractionNotice
    from lotacao.law.packs import get_pack

    codes = sorted(get_pack(permit.jurisdiction_id).infractions)
    statuses = ["decided_final"] * 5 + ["annulled"] * 2 + ["notified"] * 3
    rows = []
    for i in range(n):
        at = before - dt.timedelta(minutes=rng.randint(60, 730 * 24 * 60))
        status = rng.choice(statuses)
        rows.append(
            InfractionNotice(
                jurisdiction_id=permit.jurisdiction_id,
                number=f"{prefix}-{i:06d}",
                drawn_up_at=at,
                place="Av. Norte, 100",
                infraction_code=rng.choice(codes),
                description="Auto de bancada",
                offender_kind="permit_holder",
                permit=permit,
                holder=permit.holder,
                vehicle=permit.vehicle,
                line=permit.line,
                plate=permit.vehicle.plate,
                status=status,
                served_on=(at + dt.timedelta(days=rng.randint(1, 20))).date(),
            )
        )
    InfractionNotice.unscoped.bulk_create(rows, batch_size=5000)


def preview(permit_id: int, inspector: Any, at: dt.datetime) -> Any:
    from lotacao.enforcement.notices.services import prepare_notice
    from lotacao.permits.models import Permit

    # Fresh, as a request loads them (outside the timing); the links are read by prepare_notice.
    permit = Permit.unscoped.select_related("jurisdiction").get(pk=permit_id)
    t0 = time.perf_counter()
    notice = prepare_notice(
        jurisdiction=permit.jurisdiction,
        drawn_up_at=at,
        infraction_code="G2-a",
        offender_kind="permit_holder",
        place="Av. Norte, 100",
        description="Veículo flagrado fora do itinerário",
        permit=permit,
        inspector=inspector,
    )
    return notice, (time.perf_counter() - t0) * 1000


def count_queries(permit_id: int, inspector: Any, at: dt.datetime, show: bool = False) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        preview(permit_id, inspector, at)
    queries = ctx.captured_queries[1:]  # minus the permit's own load in preview()
    for query in queries if show else []:
        print(f"    {query['sql'][:150]}")
    return len(queries)


def run(args: argparse.Namespace) -> None:
    from zoneinfo import ZoneInfo

    from django.db import connection, transaction

    from lotacao.accounts.models import User
    from lotacao.core.law import evaluate_case
    from lotacao.enforcement.notices.penalty import offender_history, penalty_case
    from lotacao.registry import services

    rng = random.Random(5)
    now = dt.datetime.now(ZoneInfo("America/Recife")).replace(microsecond=0)
    with transaction.atomic():
        recife = make_jurisdiction("recife")
        inspector = User.objects.create_user("bench.fiscal.penalidade", password="bench-password-123")
        line = services.create_line(
            actor=None, jurisdiction=recife, code="BENCH-P", name="Linha de bancada", reason="bancada"
        )
        base, repeat, other = (make_permit(recife, seed, line) for seed in (1, 2, 3))
        t0 = time.perf_counter()
        earlier_notices(repeat, args.history, now, rng, "BENCH-P-H")
        earlier_notices(other, args.others, now, rng, "BENCH-P-O")
        tenth = make_permit(recife, 4, line)
        earlier_notices(tenth, max(1, args.history // 10), now, rng, "BENCH-P-T")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE enforcement_infractionnotice")
        print(
            f"Recife: {args.history} autos anteriores do permissionário, {args.others:,} de outro "
            f"(carga {time.perf_counter() - t0:.1f} s); {args.calls} prévias de cada"
        )

        first, _ = preview(repeat.pk, inspector, now)
        assert len(offender_history(first)) == args.history, "o histórico não tem todos os autos"
        for _ in range(5):  # warm up: pack cache, compiled configuration, connection
            preview(base.pk, inspector, now)
            preview(repeat.pk, inspector, now)
        times: dict[str, list[float]] = {"base": [], "repeat": []}
        for _ in range(args.calls):  # alternating, so load on the machine hits both alike
            times["base"].append(preview(base.pk, inspector, now)[1])
            times["repeat"].append(preview(repeat.pk, inspector, now)[1])

        def line_of(label: str, values: list[float]) -> str:
            return (
                f"  {label:<34} p50 {percentile(values, 0.5):6.2f} ms   "
                f"p95 {percentile(values, 0.95):6.2f} ms   max {max(values):6.2f} ms"
            )

        print("prepare_notice (prévia, sem gravar):")
        print(line_of("0 autos anteriores (linha de base)", times["base"]))
        print(line_of(f"{args.history} autos anteriores", times["repeat"]))
        ratio = percentile(times["repeat"], 0.5) / percentile(times["base"], 0.5)
        print(f"  razão p50 {args.history} autos ÷ 0 autos: {ratio:.2f}")
        result = first.engine_result
        print(
            f"  resultado com {args.history} autos: reincidência {result.get('repeat')}, "
            f"penalidades {result.get('penalties')}"
        )

        counts = {
            0: count_queries(base.pk, inspector, now),
            max(1, args.history // 10): count_queries(tenth.pk, inspector, now),
            args.history: count_queries(repeat.pk, inspector, now, show=args.show_queries),
        }
        print(
            "consultas SQL por prévia: "
            + ", ".join(f"{n} autos anteriores → {q}" for n, q in counts.items())
            + ("" if len(set(counts.values())) == 1 else "   ← cresce com o histórico!")
        )

        history_ms, engine_ms = [], []
        on = now.date()
        for _ in range(max(20, args.calls // 4)):
            t0 = time.perf_counter()
            case = penalty_case(first, on)
            t1 = time.perf_counter()
            evaluate_case(case)
            t2 = time.perf_counter()
            history_ms.append((t1 - t0) * 1000)
            engine_ms.append((t2 - t1) * 1000)
        print(
            f"com {args.history} autos, p50: histórico (consulta + conversão) "
            f"{percentile(history_ms, 0.5):.2f} ms; motor (evaluate_case) {percentile(engine_ms, 0.5):.2f} ms"
        )
        transaction.set_rollback(True)  # leave the benchmark database as it was


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    os.environ.update(environment(args.database_url))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    run(args)


if __name__ == "__main__":
    main()
