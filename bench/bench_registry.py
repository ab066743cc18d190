#!/usr/bin/env python3
"""Registry benchmark (issue 4): 100,000 permits with their people and vehicles on PostgreSQL.

Prints:
  - staff search by plate and by CPF through the real list views (p50/p95 ms),
  - the nightly work-queue job's wall time,
  - the public plate endpoint's requests/s and p99 under gunicorn (wrk), and the ratio to the
    bare JSON view /saude/ served the same way in the same run.

Usage:
  .venv/bin/python bench/bench_registry.py [--permits 100000] [--database-url URL] [--keep]
Needs PostgreSQL (default postgres://postgres@127.0.0.1:5432/lotacao_bench, created if missing)
and wrk (Debian package `wrk`). Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--permits", type=int, default=100_000)
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/lotacao_bench")
    ap.add_argument("--searches", type=int, default=300)
    ap.add_argument("--duration", type=int, default=15, help="seconds of load per endpoint")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--keep", action="store_true", help="reuse the data already loaded")
    return ap.parse_args()


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def environment(url: str) -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "lotacao.config.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DATABASE_URL": url,
        "LOTACAO_SSL_REDIRECT": "0",
        "LOTACAO_LOG_LEVEL": "WARNING",
        "LOTACAO_STATIC_ROOT": str(Path(tempfile.gettempdir()) / "lotacao-bench-static"),
    }


def cpf_for(seed: int) -> str:
    digits = [int(d) for d in f"{seed:09d}"]
    for _ in range(2):
        total = sum(d * w for d, w in zip(digits, range(len(digits) + 1, 1, -1), strict=True))
        digits.append((total * 10) % 11 % 10)
    return "".join(map(str, digits))


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def plate_for(n: int) -> str:
    """A unique Mercosul plate per n (LLLNLNN)."""
    a, n = divmod(n, 26 * 26 * 10 * 26 * 100)
    l1, rest = divmod(n, 26 * 10 * 26 * 100)
    l2, rest = divmod(rest, 10 * 26 * 100)
    d1, rest = divmod(rest, 26 * 100)
    l3, d23 = divmod(rest, 100)
    return f"{LETTERS[a % 26]}{LETTERS[l1]}{LETTERS[l2]}{d1}{LETTERS[l3]}{d23:02d}"


def load(total: int) -> dict[str, list[str]]:
    from django.db import connection, transaction

    from lotacao.accounts.models import Role, StaffMembership, User
    from lotacao.core.models import Jurisdiction
    from lotacao.inspections.models import InsurancePolicy
    from lotacao.permits.models import Permit
    from lotacao.registry.models import Holder, Line, Person, Vehicle

    codes = ["recife", "cabo", "esteio", "marica", "pernambuco"]
    today = dt.date.today()
    rng = random.Random(42)
    with transaction.atomic():
        for code in codes:
            Jurisdiction.objects.get_or_create(
                code=code,
                defaults={
                    "name": code.title(),
                    "official_name": code,
                    "state": "PE",
                    "population": 5_000_000,
                },
            )
        staff = User.objects.filter(username="bench.atendente").first() or User.objects.create_user(
            "bench.atendente", password="bench-password-123"
        )
        StaffMembership.objects.get_or_create(user=staff, jurisdiction_id="recife", role=Role.CLERK)
        lines = {
            code: Line.objects.get_or_create(
                jurisdiction_id=code, code="B-1", defaults={"name": "Linha de teste"}
            )[0]
            for code in codes
        }
    plates: list[str] = []
    cpfs: list[str] = []
    batch = 5000
    started = time.perf_counter()
    for start in range(0, total, batch):
        size = min(batch, total - start)
        with transaction.atomic():
            js = [codes[(start + i) % len(codes)] for i in range(size)]
            people = Person.objects.bulk_create(
                [
                    Person(
                        jurisdiction_id=js[i],
                        cpf=cpf_for(300_000_000 + start + i),
                        full_name=f"Pessoa {start + i}",
                        birth_date=dt.date(1970 + (i % 30), 1 + i % 12, 1 + i % 28),
                        city="Bench",
                    )
                    for i in range(size)
                ]
            )
            holders = Holder.objects.bulk_create(
                [Holder(jurisdiction_id=js[i], person=people[i]) for i in range(size)]
            )
            vehicles = Vehicle.objects.bulk_create(
                [
                    Vehicle(
                        jurisdiction_id=js[i],
                        plate=plate_for(start + i),
                        manufacture_year=today.year - rng.randint(0, 14),
                        category="van",
                        seats=16,
                        doors=4,
                        holder=holders[i],
                    )
                    for i in range(size)
                ]
            )
            Permit.objects.bulk_create(
                [
                    Permit(
                        jurisdiction_id=js[i],
                        number=f"{js[i][:3].upper()}-{start + i:06d}",
                        holder=holders[i],
                        vehicle=vehicles[i],
                        line=lines[js[i]],
                        status="active",
                        applied_on=today - dt.timedelta(days=400),
                        granted_on=today - dt.timedelta(days=365),
                        valid_until=today + dt.timedelta(days=rng.randint(-10, 2000)),
                    )
                    for i in range(size)
                ]
            )
            InsurancePolicy.objects.bulk_create(
                [
                    InsurancePolicy(
                        jurisdiction_id=js[i],
                        vehicle=vehicles[i],
                        insurer="Seguradora",
                        number=f"AP{start + i}",
                        valid_from=today - dt.timedelta(days=300),
                        valid_until=today + dt.timedelta(days=rng.randint(-5, 365)),
                    )
                    for i in range(size)
                ]
            )
        for i in range(size):
            if js[i] == "recife":
                plates.append(plate_for(start + i))
                cpfs.append(cpf_for(300_000_000 + start + i))
        print(
            f"\r  loaded {start + size:,} / {total:,} permits ({time.perf_counter() - started:.0f} s)",
            end="",
            flush=True,
        )
    print()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return {"plates": plates, "cpfs": cpfs}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def time_searches(samples: dict[str, list[str]], n: int) -> None:
    from django.test import Client

    from lotacao.accounts.models import User

    client = Client()
    client.force_login(User.objects.get(username="bench.atendente"))
    rng = random.Random(7)
    for label, url, values in (
        ("placa", "/cadastro/veiculos/", samples["plates"]),
        ("CPF", "/cadastro/pessoas/", samples["cpfs"]),
    ):
        client.get(url, {"q": values[0]})  # warm up
        times = []
        for value in rng.sample(values, min(n, len(values))):
            t0 = time.perf_counter()
            response = client.get(url, {"q": value})
            times.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200 and b"1 registro" in response.content, (label, value)
        print(
            f"busca por {label:<5} (tela da atendente, {len(times)} buscas): "
            f"p50 {percentile(times, 0.5):6.1f} ms   p95 {percentile(times, 0.95):6.1f} ms"
        )


def time_nightly_job() -> None:
    from django.core.management import call_command

    t0 = time.perf_counter()
    call_command("build_work_queue", stdout=open(os.devnull, "w"))  # noqa: SIM115
    print(f"job noturno build_work_queue: {time.perf_counter() - t0:.1f} s")


def wrk(url: str, duration: int, connections: int, script: str | None) -> tuple[float, float]:
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", url]
    if script:
        cmd[1:1] = ["-s", script]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99_text = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    assert p99_text, out
    value, unit = float(p99_text.group(1)), p99_text.group(2)
    p99_ms = value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        raise SystemExit(f"{url}: {non2xx.group(1)} respostas de erro\n{out}")
    return rps, p99_ms


def serve_and_load(env: dict[str, str], plates: list[str], args: argparse.Namespace) -> None:
    if shutil.which("wrk") is None:
        print("wrk não encontrado: instale o pacote Debian `wrk` para medir o endpoint público")
        return
    port = 8799
    proc = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "lotacao.config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--access-logfile",
            "/dev/null",
            "--log-level",
            "warning",
        ],
        env={**os.environ, **env},
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        import urllib.request

        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/saude/", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
            sample = random.Random(3).sample(plates, min(2000, len(plates)))
            lua.write("plates = {" + ",".join(f'"{p}"' for p in sample) + "}\n")
            lua.write(
                "request = function()\n  return wrk.format('GET', '/api/public/vehicles/' .. "
                "plates[math.random(#plates)])\nend\n"
            )
        wrk(f"http://127.0.0.1:{port}/saude/", 3, args.connections, None)  # warm up
        base_rps, base_p99 = wrk(f"http://127.0.0.1:{port}/saude/", args.duration, args.connections, None)
        rps, p99 = wrk(f"http://127.0.0.1:{port}", args.duration, args.connections, lua.name)
        print(f"gunicorn, {args.workers} workers, {args.connections} conexões, {args.duration} s cada:")
        print(f"  /saude/ (JSON sem banco)             : {base_rps:8.0f} req/s   p99 {base_p99:6.1f} ms")
        print(f"  /api/public/vehicles/{{placa}} (aleat.): {rps:8.0f} req/s   p99 {p99:6.1f} ms")
        print(f"  razão req/s público ÷ JSON sem banco : {rps / base_rps:.2f}")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


def main() -> None:
    args = parse_args()
    ensure_database(args.database_url)
    env = environment(args.database_url)
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    from lotacao.permits.models import Permit

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    if not args.keep or Permit.objects.count() < args.permits:
        if Permit.objects.exists():
            raise SystemExit("o banco de benchmark já tem dados: use --keep ou apague-o (DROP DATABASE)")
        print(f"carregando {args.permits:,} permissões com pessoas, veículos e seguros…")
        samples = load(args.permits)
    else:
        from lotacao.registry.models import Vehicle

        rec = Vehicle.objects.filter(jurisdiction_id="recife").select_related("holder__person")[:50_000]
        samples = {"plates": [v.plate for v in rec], "cpfs": [v.holder.person.cpf for v in rec]}
    time_searches(samples, args.searches)
    time_nightly_job()
    serve_and_load(env, samples["plates"], args)


if __name__ == "__main__":
    main()
