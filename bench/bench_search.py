#!/usr/bin/env python3
"""Staff search benchmark (issues 11 and 15): the header search at 100,000 people on PostgreSQL.

Loads 100,000 people with accented Brazilian names into one agency (the worst case for a staff
member's scope), then times, in the same run, through the real view (/busca/, signed in as a
clerk) and Django's test client:
  - the baseline: an exact CPF (a unique b-tree lookup),
  - a name typed without accents ("jose", "conceicao silva"…), answered by the folded
    `name_search` column and its trigram index (registry migration 0006),
and prints p50/p95 of each, with the plan PostgreSQL chose for one name query.

Usage:
  python bench/bench_search.py [--people 100000] [--searches 300] [--database-url URL] [--keep]
  python bench/bench_search.py --quick        # 5,000 people, 100 searches, in about a minute
Needs PostgreSQL (default postgres://postgres@127.0.0.1:5432/lotacao_bench_search, created if
missing). Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_registry import cpf_for, ensure_database, environment, percentile  # noqa: E402

FIRST = [
    "José", "João", "Antônio", "Francisco", "Luís", "Mário", "Sérgio", "Fábio", "Márcio", "Cláudio",
    "Maria", "Ana", "Conceição", "Lúcia", "Sônia", "Márcia", "Cecília", "Inês", "Débora", "Júlia",
    "Rafael", "Lucas", "Pedro", "Paulo", "Carlos", "Marcos", "Gabriel", "Tiago", "Vítor", "André",
]
LAST = [
    "Silva", "Santos", "Oliveira", "Souza", "Lima", "Pereira", "Ferreira", "Araújo", "Gonçalves",
    "Conceição", "Assunção", "Magalhães", "Brandão", "Simões", "Falcão", "Leão", "Guimarães",
    "Nóbrega", "Cavalcânti", "Albuquerque", "Wanderley", "Barbosa", "Melo", "Gusmão", "Galvão",
    "Rocha", "Moura", "Peixoto", "Tavares", "Xavier", "Bezerra", "Ribeiro", "Carvalho", "Lopes",
]
QUERIES = [
    "jose", "joao silva", "conceicao", "antonio araujo", "lucia", "sonia magalhaes", "marcio",
    "simoes", "nobrega", "cavalcanti", "gonçalves", "FALCAO", "debora leao", "vitor", "guimaraes",
    "ines", "assuncao brandao", "cecilia", "fabio galvao", "julia",
]


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--people", type=int, default=100_000)
    ap.add_argument("--searches", type=int, default=300)
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/lotacao_bench_search")
    ap.add_argument("--keep", action="store_true", help="reuse the data already loaded")
    ap.add_argument("--quick", action="store_true", help="5,000 people and 100 searches")
    args = ap.parse_args()
    if args.quick:
        args.people, args.searches = 5_000, 100
        if args.database_url == ap.get_default("database_url"):
            args.database_url += "_quick"
    return args





def name_for(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(['da', 'de', 'dos', ''])} {rng.choice(LAST)}"


def load(total: int) -> list[str]:
    """`total` people in Recife (bulk, the folded name filled as save() would)."""
    from django.db import connection, transaction

    from lotacao.accounts.models import Role, StaffMembership, User
    from lotacao.core.models import Jurisdiction
    from lotacao.core.text import fold
    from lotacao.registry.models import Person

    rng = random.Random(42)
    with transaction.atomic():
        Jurisdiction.objects.get_or_create(
            code="recife", defaults={"name": "Recife", "official_name": "CTTU", "state": "PE"}
        )
        staff = User.objects.filter(username="bench.atendente").first() or User.objects.create_user(
            "bench.atendente", password="bench-password-123"
        )
        StaffMembership.objects.get_or_create(user=staff, jurisdiction_id="recife", role=Role.CLERK)
    cpfs: list[str] = []
    started = time.perf_counter()
    batch = 5000
    for start in range(0, total, batch):
        size = min(batch, total - start)
        people = []
        for i in range(size):
            name = " ".join(name_for(rng).split())
            cpf = cpf_for(400_000_000 + start + i)
            cpfs.append(cpf)
            people.append(
                Person(
                    jurisdiction_id="recife",
                    cpf=cpf,
                    full_name=name,
                    name_search=fold(name),
                    birth_date=dt.date(1970 + i % 30, 1 + i % 12, 1 + i % 28),
                )
            )
        with transaction.atomic():
            Person.objects.bulk_create(people)
        elapsed = time.perf_counter() - started
        print(f"\r  {start + size:,} / {total:,} pessoas ({elapsed:.0f} s)", end="", flush=True)
    print()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE registry_person")
    return cpfs



def timed(client: object, queries: list[str], expect: bytes) -> list[float]:
    times = []
    for q in queries:
        t0 = time.perf_counter()
        response = client.get("/busca/", {"q": q})  # type: ignore[attr-defined]
        times.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200 and expect in response.content, (q, response.status_code)
    return times


def _timed_call(function: object, query: str) -> float:
    t0 = time.perf_counter()
    groups = function(query)  # type: ignore[operator]
    elapsed = (time.perf_counter() - t0) * 1000
    assert groups and groups[0].hits, query
    return elapsed


def report(label: str, times: list[float]) -> None:
    print(
        f"{label:<46} ({len(times)} buscas): p50 {percentile(times, 0.5):6.1f} ms   "
        f"p95 {percentile(times, 0.95):6.1f} ms"
    )


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    env = environment(args.database_url)
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from lotacao.accounts.models import User
    from lotacao.core.text import fold_words
    from lotacao.registry.models import Person

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    count = Person.objects.count()
    if count and not args.keep:
        raise SystemExit("o banco de benchmark já tem dados: use --keep ou apague-o (DROP DATABASE)")
    if count < args.people:
        print(f"carregando {args.people - count:,} pessoas com nomes acentuados…")
        load(args.people - count)
    cpfs = list(Person.unscoped.filter(jurisdiction_id="recife").values_list("cpf", flat=True)[:50_000])
    print(f"{Person.unscoped.count():,} pessoas no banco ({connection.vendor})")
    client = Client()
    client.force_login(User.objects.get(username="bench.atendente"))
    rng = random.Random(7)
    names = [rng.choice(QUERIES) for _ in range(args.searches)]
    documents = rng.sample(cpfs, min(args.searches, len(cpfs)))
    timed(client, QUERIES[:3] + documents[:3], b"Pessoas")  # warm up
    baseline = timed(client, documents, b"Pessoas")
    by_name = timed(client, names, b"Pessoas")
    report("tela /busca/: CPF exato (linha de base)", baseline)
    report("tela /busca/: nome sem acento", by_name)
    # The same searches without the page around them (middleware, session, template): the
    # database's share, in the clerk's scope.
    from lotacao.core.tenancy import Scope, scoped
    from lotacao.web import search as finder

    with scoped(Scope(jurisdictions=frozenset({"recife"}))):
        exact = [_timed_call(finder.search, q) for q in documents]
        folded = [_timed_call(finder.search, q) for q in names]
    report("consultas da busca: CPF exato (linha de base)", exact)
    report("consultas da busca: nome sem acento", folded)
    for text in ("conceicao silva", "nobrega", "jose"):
        words = fold_words(text)
        query = Person.unscoped.filter(jurisdiction_id="recife")
        for word in words:
            query = query.filter(name_search__contains=word)
        sql, params = query.order_by()[:10].query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN ANALYZE {sql}", params)
            plan = [row[0] for row in cursor.fetchall()]
        print(f"plano da busca por nome ({text}):")
        for line in plan:
            print(f"    {line}")
    print(f"carga da máquina durante a medida (1 min): {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
