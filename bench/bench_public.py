#!/usr/bin/env python3
"""Public plate check benchmark (issue 15): the public endpoint against a bare JSON view.

Loads 100,000 permits (bench_registry's loader: people, vehicles, permits, insurance) into
PostgreSQL, computes the public read model (the nightly job, timed), serves the application with
gunicorn under the production settings (2 workers) and drives load from a second process (wrk, the
Debian package; a Python threaded client when wrk is missing). Prints, in one run:
  - the bare JSON view's requests/s and p99 (a view that does nothing, same middleware, same server;
    routed only with LOTACAO_BENCH_VIEWS=1),
  - the public plate endpoint's requests/s and p99 on random known plates and on random unknown
    plates (the rate limit counts every request, with a limit set out of reach),
  - on its last line `ratio <public ÷ bare>`, the public figure being the lower of the two.

Usage:
  python bench/bench_public.py [--quick] [--permits 100000] [--database-url URL] [--keep]
      [--cache redis|database]
`--quick`: 2,000 permits and 5 s of load per endpoint (under two minutes). The cache holding the
rate-limit counters is Redis at 127.0.0.1:6379 when it answers (LOTACAO_REDIS_URL), else the
database; `--cache` forces one. Not a test: it prints figures; copy them into docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.client import HTTPConnection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_registry import ensure_database, load, percentile, plate_for  # noqa: E402


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2,000 permits, 5 s per endpoint")
    ap.add_argument("--permits", type=int, default=None)
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--duration", type=int, default=None, help="seconds of load per endpoint")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker (gthread when > 1)")
    ap.add_argument("--cache", choices=["redis", "database"], default=None)
    ap.add_argument("--keep", action="store_true", help="reuse the data already loaded")
    ap.add_argument("--load-only", action="store_true", help="load the permits and stop")
    ap.add_argument(
        "--build",
        choices=["all", "sample"],
        default=None,
        help="compute the read model for every vehicle (the nightly job) or only for the plates the "
        "load draws from (a busy machine: the per-vehicle time is printed either way); "
        "default: all, sample with --quick",
    )
    args = ap.parse_args()
    args.permits = args.permits or (2_000 if args.quick else 100_000)
    args.build = args.build or ("sample" if args.quick else "all")
    args.duration = args.duration or (5 if args.quick else 15)
    args.database_url = args.database_url or (
        "postgres://postgres@127.0.0.1:5432/bench_public" + ("_quick" if args.quick else "")
    )
    return args


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def environment(url: str, cache: str) -> dict[str, str]:
    env = {
        "DJANGO_SETTINGS_MODULE": "lotacao.config.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DATABASE_URL": url,
        "LOTACAO_SSL_REDIRECT": "0",
        "LOTACAO_LOG_LEVEL": "WARNING",
        "LOTACAO_STATIC_ROOT": str(Path(tempfile.gettempdir()) / "lotacao-bench-static"),
        "LOTACAO_BENCH_VIEWS": "1",
        # Every request is counted; the limit is only out of the load generator's reach.
        "LOTACAO_PUBLIC_RATE_LIMIT": "1000000000/60",
        "PYTHONPATH": str(ROOT / "src"),
    }
    if cache == "redis":
        env["LOTACAO_REDIS_URL"] = "redis://127.0.0.1:6379/15"
    return env


# --------------------------------------------------------------------------- load generators


def wrk(base: str, paths: list[str], duration: int, connections: int) -> tuple[float, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write("paths = {" + ",".join(f'"{p}"' for p in paths) + "}\n")
        lua.write("request = function()\n  return wrk.format('GET', paths[math.random(#paths)])\nend\n")
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", "-s", lua.name, base]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    os.unlink(lua.name)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        raise SystemExit(f"{paths[0]}…: {non2xx.group(1)} respostas de erro\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    assert p99, out
    value, unit = float(p99.group(1)), p99.group(2)
    return rps, value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def threads_client(base: str, paths: list[str], duration: int, connections: int) -> tuple[float, float]:
    """The fallback when wrk is missing: keep-alive connections in threads (slower than wrk)."""
    host, port = base.removeprefix("http://").split(":")
    latencies: list[float] = []
    errors: list[str] = []
    stop = time.perf_counter() + duration
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        conn = HTTPConnection(host, int(port), timeout=10)
        mine = []
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            conn.request("GET", rng.choice(paths))
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - t0) * 1000)
            if response.status != 200:
                errors.append(str(response.status))
        with lock:
            latencies.extend(mine)

    started = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(n,)) for n in range(connections)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    if errors:
        raise SystemExit(f"{len(errors)} respostas de erro ({errors[0]})")
    return len(latencies) / (time.perf_counter() - started), percentile(latencies, 0.99)


# --------------------------------------------------------------------------- the run


def build_read_model(sample: list[str] | None) -> None:
    from django.utils import timezone

    from lotacao.public.readmodel import refresh
    from lotacao.registry.models import Vehicle

    total = Vehicle.objects.count()
    ids = list(Vehicle.objects.filter(plate__in=sample).values_list("pk", flat=True)) if sample else None
    t0 = time.perf_counter()
    counts = refresh(timezone.localdate(), vehicle_ids=ids)
    took = time.perf_counter() - t0
    if not counts["recalculadas"]:
        print(f"modelo de leitura: as placas sorteadas já estavam calculadas para hoje ({took:.1f} s)")
        return
    per = took * 1000 / counts["recalculadas"]
    print(
        f"modelo de leitura (job noturno public_answers): {counts['recalculadas']:,} de {total:,} "
        f"veículos em {took:.1f} s ({per:.1f} ms por veículo"
        + (f"; todos os {total:,}: cerca de {per * total / 60_000:.0f} min)" if ids is not None else ")")
    )


def serve_and_measure(env: dict[str, str], sample: list[str], args: argparse.Namespace) -> None:
    port = 8797
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "lotacao.config.wsgi",
            "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers), "--threads", str(args.threads),
            "--access-logfile", "/dev/null", "--log-level", "warning",
        ],
        env={**os.environ, **env},
        cwd=ROOT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    drive = wrk if shutil.which("wrk") else threads_client
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"{base}/publico/bench/json/", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        known_paths = [f"/api/public/vehicles/{p}" for p in sample]
        unknown_paths = [f"/api/public/vehicles/{plate_for(300_000_000 + n)}" for n in range(5000)]
        bare_paths = ["/publico/bench/json/"]
        drive(base, bare_paths, 3, args.connections)  # warm up the workers and their connections
        drive(base, known_paths[:200], 2, args.connections)
        bare = drive(base, bare_paths, args.duration, args.connections)
        public_known = drive(base, known_paths, args.duration, args.connections)
        public_unknown = drive(base, unknown_paths, args.duration, args.connections)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    client = "wrk" if drive is wrk else "cliente Python (threads)"
    print(
        f"gunicorn, {args.workers} workers × {args.threads} threads, {client}, "
        f"{args.connections} conexões, {args.duration} s cada:"
    )
    for label, (rps, p99) in (
        ("JSON sem trabalho (/publico/bench/json/)   ", bare),
        ("placa pública, placas conhecidas aleatórias", public_known),
        ("placa pública, placas desconhecidas        ", public_unknown),
    ):
        print(f"  {label}: {rps:8.0f} req/s   p99 {p99:6.1f} ms")
    print(f"ratio {min(public_known[0], public_unknown[0]) / bare[0]:.2f}")


def main() -> None:
    args = parse_args()
    started = time.perf_counter()
    cache = args.cache or ("redis" if redis_answers() else "database")
    ensure_database(args.database_url)
    env = environment(args.database_url, cache)
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    from lotacao.permits.models import Permit
    from lotacao.registry.models import Vehicle

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    loaded = Permit.objects.count()
    if loaded < args.permits:
        if loaded and not args.keep:
            raise SystemExit("o banco de benchmark já tem dados: use --keep ou apague-o (DROP DATABASE)")
        if loaded:
            raise SystemExit(f"o banco tem {loaded:,} permissões, menos que {args.permits:,}: apague-o")
        print(f"carregando {args.permits:,} permissões com pessoas, veículos e seguros…")
        known = load(args.permits)["plates"]
    else:
        recife = Vehicle.objects.filter(jurisdiction_id="recife")
        known = list(recife.values_list("plate", flat=True)[:50_000])
    if args.load_only:
        return
    print(f"contador de requisições (limite da API pública) no cache: {cache}")
    sample = random.Random(3).sample(known, min(5000, len(known)))
    build_read_model(sample if args.build == "sample" else None)
    from django.db import connections

    connections.close_all()
    serve_and_measure(env, sample, args)
    print(f"(execução total: {time.perf_counter() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
