#!/usr/bin/env python3
"""Deadline-job benchmark (issue 5): the daily check of the agency's deadline to notify, over
--notices infraction notices on PostgreSQL.

Loads the notices (`INSERT ... SELECT generate_series`, in batches) across the five
jurisdictions, over the last 2 years: most served in time (`served_on` set; notified, decided
final or annulled), 0.6 % never served (overdue where the law has a deadline: Recife archives,
Esteio and Pernambuco flag to a manager; Cabo and Maricá have no deadline), and half of the last
25 days' notices not served yet (within the deadline). Then runs
`lotacao.enforcement.notices.notification.apply_missed_deadlines` (what `manage.py
check_notification_deadlines` runs) twice: today (the backlog: archives and flags) and tomorrow
(the steady state: nothing new, the flags already open). Prints the wall times, the rows
archived / flagged, the plan of the query that picks the candidates, and the same over
--baseline notices loaded the same way in the same run, with the ratio per notice.

Usage:
  .venv/bin/python bench/bench_notice_deadlines.py [--notices 1000000] [--baseline 10000] [--quick]
Needs PostgreSQL (default postgres://postgres@127.0.0.1:5432/lotacao_bench, created if missing).
The notices and work items it makes are deleted before and after (the audit log keeps its
entries: it is append-only). Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_penalty_history import make_jurisdiction  # noqa: E402
from bench_registry import cpf_for, ensure_database, environment  # noqa: E402

CODES = ["recife", "cabo", "esteio", "marica", "pernambuco"]
PREFIX = "BENCH-D-"
HOLDERS = 500  # per jurisdiction
OVERDUE_RATE = 0.006  # of the notices older than 25 days: never served
RECENT_DAYS = 25  # of these, half not served yet


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notices", type=int, default=1_000_000)
    ap.add_argument("--baseline", type=int, default=10_000)
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/lotacao_bench")
    ap.add_argument("--keep", action="store_true", help="leave the large data set loaded at the end")
    ap.add_argument("--quick", action="store_true", help="small sizes: checks that the script runs")
    args = ap.parse_args()
    if args.quick:
        args.notices, args.baseline = 20_000, 2_000
    return args


def holders() -> dict[str, list[int]]:
    """HOLDERS permit holders per jurisdiction (bulk-created once, reused by later runs)."""
    from django.db import transaction

    from lotacao.registry.models import Holder, Person

    out: dict[str, list[int]] = {}
    with transaction.atomic():
        for n, code in enumerate(CODES):
            jurisdiction = make_jurisdiction(code)
            cpfs = [cpf_for(810_000_000 + n * 10_000 + i) for i in range(HOLDERS)]
            existing = list(
                Holder.unscoped.filter(jurisdiction=jurisdiction, person__cpf__in=cpfs).values_list(
                    "pk", flat=True
                )
            )
            if len(existing) < HOLDERS:  # first run (one transaction: all or nothing)
                people = Person.unscoped.bulk_create(
                    [
                        Person(
                            jurisdiction=jurisdiction,
                            cpf=cpf,
                            full_name=f"Permissionário de bancada {cpf}",
                            birth_date=dt.date(1975, 1, 1),
                        )
                        for cpf in cpfs
                    ]
                )
                Holder.unscoped.bulk_create([Holder(jurisdiction=jurisdiction, person=p) for p in people])
                existing = [h.pk for h in Holder.unscoped.filter(person__in=people)]
            out[code] = existing
    return out


def clear() -> None:
    from django.db import connection

    from lotacao.enforcement.models import InfractionNotice
    from lotacao.enforcement.notices.deadlines import OVERDUE_KIND
    from lotacao.workqueue.models import WorkItem

    WorkItem.unscoped.filter(kind=OVERDUE_KIND).delete()
    with connection.cursor() as cursor:  # raw: the ORM's delete() would fetch the million ids first
        cursor.execute(f"DELETE FROM {InfractionNotice._meta.db_table} WHERE number LIKE %s", [PREFIX + "%"])


def load(total: int, today: dt.date, holder_ids: dict[str, list[int]]) -> float:
    """`total` notices, drawn up over the 2 years before `today`; returns the seconds taken."""
    from django.db import connection, transaction

    from lotacao.law.packs import get_pack

    codes = {code: sorted(get_pack(code).infractions) or ["any"] for code in CODES}
    params: dict[str, Any] = {
        "prefix": PREFIX,
        "now": dt.datetime.combine(today, dt.time(0), tzinfo=dt.UTC),
        "overdue": OVERDUE_RATE,
        "recent": RECENT_DAYS,
    }
    code_case, holder_case = [], []
    for code in CODES:
        params[f"c_{code}"], params[f"h_{code}"] = codes[code], holder_ids[code]
        code_case.append(
            f"WHEN '{code}' THEN (%(c_{code})s::text[])[1 + (i::bigint * 7919) %% {len(codes[code])}]"
        )
        holder_case.append(
            f"WHEN '{code}' THEN (%(h_{code})s::bigint[])[1 + (i / 5) %% {len(holder_ids[code])}]"
        )
    sql = f"""
        INSERT INTO enforcement_infractionnotice (
            number, drawn_up_at, place, infraction_code, infraction_group, description,
            offender_kind, plate, offender_name, offender_document, evidence_image, status,
            engine_result, penalty, penalty_overridden, override_reason, citations, explanation,
            law, missing_parameters, charged_to_holder, created_at, holder_id, jurisdiction_id,
            archive_reason, served_on)
        SELECT %(prefix)s || i, at, 'Av. de bancada, ' || (i %% 1000), CASE j {" ".join(code_case)} END,
            '', 'Auto de bancada', 'permit_holder', 'BNC' || to_char(i %% 10000, 'FM0000'), '', '', '',
            CASE WHEN unserved THEN 'drawn_up'
                 WHEN s < 0.55 THEN 'notified' WHEN s < 0.90 THEN 'decided_final' ELSE 'annulled' END,
            '{{}}', '{{}}', false, '', '[]', '', '', '[]', false, at, CASE j {" ".join(holder_case)} END,
            j, '', CASE WHEN unserved THEN NULL ELSE (at + (1 + floor(d * 20)) * interval '1 day')::date END
        FROM (
            SELECT i, j, at, s, d,
                   CASE WHEN at > %(now)s - %(recent)s * interval '1 day' THEN r < 0.5
                        ELSE r < %(overdue)s END AS unserved
            FROM (
                SELECT i, (ARRAY['{"','".join(CODES)}'])[1 + i %% 5] AS j,
                       %(now)s - random() * interval '730 days' AS at,
                       random() AS r, random() AS s, random() AS d
                FROM generate_series(%(first)s, %(last)s) AS g(i)
            ) AS raw
        ) AS rows
    """
    started = time.perf_counter()
    batch = 100_000
    with connection.cursor() as cursor:
        cursor.execute("SELECT setseed(0.42)")
        for first in range(1, total + 1, batch):
            with transaction.atomic():
                cursor.execute(sql, {**params, "first": first, "last": min(total, first + batch - 1)})
            if total > batch:
                print(
                    f"\r  {min(total, first + batch - 1):,} / {total:,} autos "
                    f"({time.perf_counter() - started:.0f} s)",
                    end="",
                    flush=True,
                )
        if total > batch:
            print()
        cursor.execute("VACUUM ANALYZE enforcement_infractionnotice")
    return time.perf_counter() - started


def mix(today: dt.date) -> str:
    from django.db.models import Count, Q

    from lotacao.enforcement.models import InfractionNotice

    qs = InfractionNotice.unscoped.filter(number__startswith=PREFIX)
    old = dt.datetime.combine(today - dt.timedelta(days=RECENT_DAYS), dt.time(0), tzinfo=dt.UTC)
    counts = qs.aggregate(
        served=Count("pk", filter=Q(served_on__isnull=False)),
        unserved_old=Count("pk", filter=Q(served_on__isnull=True, drawn_up_at__lte=old)),
        unserved_recent=Count("pk", filter=Q(served_on__isnull=True, drawn_up_at__gt=old)),
    )
    return (
        f"{counts['served']:,} notificados no prazo; {counts['unserved_old']:,} nunca notificados "
        f"(> {RECENT_DAYS} dias); {counts['unserved_recent']:,} recentes ainda por notificar"
    )


def job(today: dt.date) -> tuple[float, Any]:
    from lotacao.enforcement.notices.deadlines import apply_missed_deadlines

    t0 = time.perf_counter()
    result = apply_missed_deadlines(today=today, actor=None)
    return time.perf_counter() - t0, result


def scan(today: dt.date) -> float:
    """overdue_notices alone (the candidates' queries and the engine; nothing written)."""
    from lotacao.enforcement.notices.deadlines import overdue_notices

    t0 = time.perf_counter()
    overdue_notices(today)
    return time.perf_counter() - t0


def explain(today: dt.date, code: str) -> str:
    """The plan of the candidates' query of overdue_notices (as built there), for one jurisdiction."""
    from zoneinfo import ZoneInfo

    from lotacao.enforcement.models import InfractionNotice

    zone = ZoneInfo("America/Sao_Paulo")
    return (
        InfractionNotice.unscoped.filter(
            jurisdiction_id=code,
            status__in=[InfractionNotice.Status.DRAWN_UP, InfractionNotice.Status.NOTIFIED],
            drawn_up_at__lt=dt.datetime.combine(today, dt.time.min, tzinfo=zone),
        )
        .filter(served_on__isnull=True)
        .values_list("pk", "number", "drawn_up_at", "served_on")
        .explain(analyze=True)
    )


def measure(total: int, today: dt.date, holder_ids: dict[str, list[int]], show_plan: bool) -> dict[str, Any]:
    clear()
    seconds = load(total, today, holder_ids)
    print(f"{total:,} autos carregados em {seconds:.1f} s: {mix(today)}")
    first, r1 = job(today)
    second, r2 = job(today + dt.timedelta(days=1))
    read_only = scan(today + dt.timedelta(days=1))
    print(
        f"  job de hoje (atrasos acumulados): {first:7.2f} s — {r1.archived:,} arquivados, "
        f"{r1.flagged:,} sinalizados"
    )
    print(
        f"  job de amanhã (regime):           {second:7.2f} s — {r2.archived:,} arquivados, "
        f"{r2.flagged:,} sinalizados, {r2.already_flagged:,} já sinalizados"
    )
    print(f"  só overdue_notices (consulta + motor, sem gravar): {read_only:.2f} s")
    if show_plan:
        print("  plano da consulta dos candidatos (Esteio):")
        for row in explain(today + dt.timedelta(days=1), "esteio").splitlines():
            print(f"    {row}")
    return {"first": first, "second": second, "scan": read_only, "r1": r1}


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    os.environ.update(environment(args.database_url))
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    today = timezone.localdate()
    holder_ids = holders()
    print(f"data de referência: {today:%d/%m/%Y}; {HOLDERS} permissionários por jurisdição")
    base = measure(args.baseline, today, holder_ids, show_plan=False)
    big = measure(args.notices, today, holder_ids, show_plan=True)
    print(
        f"razões ({args.notices:,} ÷ {args.baseline:,} autos; tamanho ×{args.notices / args.baseline:.0f}):"
    )
    for key, label in (("first", "job de hoje"), ("second", "job de amanhã"), ("scan", "overdue_notices")):
        ratio = big[key] / base[key] if base[key] else float("inf")
        per_notice = ratio / (args.notices / args.baseline)
        print(f"  {label:<16} tempo ×{ratio:6.1f}   por auto ×{per_notice:5.2f}")
    if not args.keep:
        clear()


if __name__ == "__main__":
    main()
