"""The production install exactly as README "Running in production" and docs/deployment.md say
(issue 20, item 1), on an empty database, with two fresh roles, `REVOKE ALL ON DATABASE … FROM
PUBLIC`, production settings and the documented environment:

1. as the administrator: the owner and the serving role, the database owned by the owner;
2. `manage.py migrate --database owner` (MIGRATE_DATABASE_URL = owner, DATABASE_URL = the serving
   role, LOTACAO_SERVING_ROLE), then `grant_serving_role`;
3. `setup_agency --jurisdiction recife` as the serving role (step 2 of the install);
4. gunicorn as the serving role: `/saude/pronto/` answers from the database and the migrations,
   Recife's manager signs in over HTTP and is sent to change the one-time password;
5. the serving role cannot TRUNCATE the audit log.

A migration that reads or writes through the default connection fails step 2 (the serving role may
not connect before the grant; after it, it waits on the owner's own lock: every subprocess runs
with a lock timeout and a wall-clock limit, so a deadlock fails instead of hanging CI). The upgrade
order, where the serving role is already granted when the next migrations run, is the second test.

Roles are cluster-wide and other engineers run the suite at once: names carry the test database's
name and the process id, and everything is dropped afterwards. The timings of each step are printed
(`-s`) and written to LOTACAO_INSTALL_TIMINGS when set.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
HOST = "lotacao.exemplo.gov.br"
pytestmark = [pytest.mark.postgres]

MIGRATE_TIMEOUT = 900  # seconds: a full migrate is a few minutes on a loaded 2-core machine
STEP_TIMEOUT = 300


@dataclass
class Install:
    database: str
    owner: str
    app: str
    owner_password: str
    app_password: str
    admin: dict[str, Any]
    env: dict[str, str]
    timings: dict[str, float] = field(default_factory=dict)
    static: tuple[subprocess.Popen[str], float] | None = None

    def url(self, role: str, password: str) -> str:
        return f"postgres://{role}:{password}@{self.admin['host']}:{self.admin['port']}/{self.database}"

    def run(self, label: str, *args: str, timeout: float = STEP_TIMEOUT) -> subprocess.CompletedProcess[str]:
        started = time.monotonic()
        try:
            result = subprocess.run(
                [sys.executable, "manage.py", *args],
                capture_output=True,
                text=True,
                env=self.env,
                cwd=ROOT,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as error:
            pytest.fail(f"{label}: no answer in {timeout} s (a migration waiting on itself?)\n{error.stderr}")
        self.timings[label] = round(time.monotonic() - started, 1)
        assert result.returncode == 0, f"{label} failed:\n{result.stdout}\n{result.stderr}"
        return result

    def start(self, *args: str) -> tuple[subprocess.Popen[str], float]:
        """A step that needs no database (collectstatic), run beside the migrations."""
        process = subprocess.Popen(
            [sys.executable, "manage.py", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=self.env,
            cwd=ROOT,
        )
        return process, time.monotonic()

    def finish(self, label: str, started: tuple[subprocess.Popen[str], float]) -> None:
        process, at = started
        try:
            out, err = process.communicate(timeout=MIGRATE_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail(f"{label}: no answer in {MIGRATE_TIMEOUT} s")
        self.timings[label] = round(time.monotonic() - at, 1)
        assert process.returncode == 0, f"{label} failed:\n{out}\n{err}"

    def connect(self, role: str, password: str) -> psycopg.Connection[Any]:
        params = {**self.admin, "dbname": self.database, "user": role, "password": password}
        return psycopg.connect(**params, autocommit=True)


def _admin_params() -> dict[str, Any]:
    db = settings.DATABASES["default"]
    return {
        "host": db.get("HOST") or "127.0.0.1",
        "port": int(db.get("PORT") or 5432),
        "user": db.get("USER") or "postgres",
        "password": db.get("PASSWORD") or None,
    }


@pytest.fixture
def install(tmp_path: Path) -> Iterator[Install]:
    base = re.sub(r"[^a-z0-9_]", "_", str(settings.DATABASES["default"]["NAME"]).lower())
    tag = f"{base}_{os.getpid()}_{secrets.token_hex(2)}"[-40:]
    admin = _admin_params()
    found = Install(
        database=f"inst_{tag}",
        owner=f"own_{tag}",
        app=f"app_{tag}",
        owner_password=secrets.token_urlsafe(16),
        app_password=secrets.token_urlsafe(16),
        admin=admin,
        env={},
    )
    with psycopg.connect(**admin, dbname="postgres", autocommit=True) as conn:
        # docs/deployment.md, "Once, as the database administrator":
        conn.execute(f"CREATE ROLE \"{found.owner}\" LOGIN PASSWORD '{found.owner_password}'")
        conn.execute(
            f"CREATE ROLE \"{found.app}\" LOGIN PASSWORD '{found.app_password}' "
            "NOSUPERUSER NOCREATEDB NOCREATEROLE"
        )
        conn.execute(f'CREATE DATABASE "{found.database}" OWNER "{found.owner}"')
        conn.execute(f'REVOKE ALL ON DATABASE "{found.database}" FROM PUBLIC')
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE", "LOTACAO_", "PG"))}
    env.update(
        DJANGO_SETTINGS_MODULE="lotacao.config.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(48),
        DJANGO_ALLOWED_HOSTS=HOST,
        DATABASE_URL=found.url(found.app, found.app_password),
        MIGRATE_DATABASE_URL=found.url(found.owner, found.owner_password),
        LOTACAO_SERVING_ROLE=found.app,
        LOTACAO_VAR_DIR=str(tmp_path / "var"),
        LOTACAO_MEDIA_ROOT=str(tmp_path / "media"),
        LOTACAO_STATIC_ROOT=str(tmp_path / "static"),
        # A statement waiting on a lock fails after a minute instead of waiting for ever.
        PGOPTIONS="-c lock_timeout=60000",
        PYTHONPATH=str(ROOT / "src"),
    )
    found.env = env
    try:
        yield found
    finally:
        if found.static is not None and found.static[0].poll() is None:
            found.static[0].kill()
            found.static[0].communicate()
        with psycopg.connect(**admin, dbname="postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{found.database}" WITH (FORCE)')
            conn.execute(f'DROP ROLE IF EXISTS "{found.app}"')
            conn.execute(f'DROP ROLE IF EXISTS "{found.owner}"')
        report = os.environ.get("LOTACAO_INSTALL_TIMINGS")
        print(f"\ninstall timings (s): {json.dumps(found.timings)}")
        if report:
            with open(report, "a", encoding="utf-8") as out:
                out.write(json.dumps(found.timings) + "\n")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Browser:
    """Plain HTTP to the gunicorn under test, as the TLS proxy would forward it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str]:
        from urllib.parse import urlencode

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Host": HOST, "X-Forwarded-Proto": "https", "Referer": f"https://{HOST}{path}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        conn.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def csrf(self, path: str) -> str:
        status, _, text = self.request("GET", path)
        assert status == 200, text[:500]
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
        assert found, text[:500]
        return found.group(1)


def _serve(install: Install) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    server = subprocess.Popen(
        [gunicorn, "lotacao.config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        env=install.env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/saude/vivo/", headers={"Host": HOST, "X-Forwarded-Proto": "https"})
            conn.getresponse().read()
            conn.close()
            return server, port
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.3)
    server.kill()
    _, err = server.communicate()
    pytest.fail(f"gunicorn did not start:\n{err.decode()[-3000:]}")


def _migrate_and_grant(install: Install) -> None:
    install.static = install.start("collectstatic", "--noinput")  # README's next step; no database
    install.run(
        "migrate (owner, empty database)",
        "migrate",
        "--database",
        "owner",
        "--noinput",
        timeout=MIGRATE_TIMEOUT,
    )
    install.run("grant_serving_role", "grant_serving_role", install.app, "--database", "owner")


def _agency_and_sign_in(install: Install) -> None:
    result = install.run(
        "setup_agency (serving role)",
        "setup_agency",
        "--jurisdiction",
        "recife",
        "--manager",
        "gestora.recife",
        "--email",
        "gestora@recife.example.org",
        "--manager-name",
        "Ana Gestora",
        "--json",
    )
    created = json.loads(result.stdout)
    assert created["jurisdicao"]["criada"] is True and created["gestor"]["criado"] is True
    password = created["gestor"]["senha_provisoria"]
    assert password

    # the serving role: not the owner, cannot empty the audit log, which recorded the install
    with install.connect(install.app, install.app_password) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("TRUNCATE audit_auditevent")
        row = conn.execute(
            "SELECT count(*) FROM audit_auditevent WHERE jurisdiction_id = 'recife'"
        ).fetchone()
        assert row is not None and row[0] >= 2

    assert install.static is not None
    install.finish("collectstatic (beside the migrations)", install.static)
    server, port = _serve(install)
    try:
        browser = Browser(port)
        started = time.monotonic()
        status, _, text = browser.request("GET", "/saude/pronto/")
        ready = json.loads(text)["verificacoes"]
        # no nightly run yet on a fresh install: 503, but the database and migrations are fine
        assert ready["banco_de_dados"]["ok"] and ready["migracoes"]["ok"], text
        token = browser.csrf("/conta/entrar/")
        status, headers, text = browser.request(
            "POST",
            "/conta/entrar/",
            {"csrfmiddlewaretoken": token, "username": "gestora.recife", "password": password, "next": ""},
        )
        assert status == 302, text[:2000]
        status, headers, _ = browser.request("GET", headers["location"])
        assert status == 302 and headers["location"].startswith("/conta/senha/")
        token = browser.csrf("/conta/senha/")
        status, headers, text = browser.request(
            "POST",
            "/conta/senha/",
            {
                "csrfmiddlewaretoken": token,
                "old_password": password,
                "new_password1": "Trilho-azul-4821-mar",
                "new_password2": "Trilho-azul-4821-mar",
            },
        )
        assert status == 302, re.findall(r'<ul class="errorlist.*?</ul>', text, re.S) or text[:2000]
        status, _, text = browser.request("GET", "/")
        assert status == 200 and "Recife" in text
        install.timings["first sign-in over HTTP"] = round(time.monotonic() - started, 1)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_documented_install_on_an_empty_database_serves_as_the_app_role(install: Install) -> None:
    _migrate_and_grant(install)
    with install.connect(install.app, install.app_password) as conn:
        owner = conn.execute(
            "SELECT tableowner FROM pg_tables WHERE tablename = 'audit_auditevent'"
        ).fetchone()
        assert owner == (install.owner,)
    _agency_and_sign_in(install)


def test_migrating_with_the_serving_role_already_granted_completes(install: Install) -> None:
    """The upgrade order (and the one that deadlocked): the serving role holds its grants, as after
    an earlier deployment, when the next migrations (here registry's from 0006 on) run as owner."""
    install.run(
        "migrate the audit log",
        "migrate",
        "--database",
        "owner",
        "audit",
        "--noinput",
        timeout=MIGRATE_TIMEOUT,
    )
    install.run(
        "migrate to registry 0005",
        "migrate",
        "--database",
        "owner",
        "registry",
        "0005",
        "--noinput",
        timeout=MIGRATE_TIMEOUT,
    )
    install.run("grant before migrating", "grant_serving_role", install.app, "--database", "owner")
    with install.connect(install.owner, install.owner_password) as conn:
        conn.execute(
            "INSERT INTO core_jurisdiction (code, name, official_name, state, timezone, active) "
            "VALUES ('recife', 'Recife', 'CTTU', 'PE', 'America/Recife', true)"
        )
        # a person as registry 0005 had it, every required column filled by its type
        columns = conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = "
            "'registry_person' AND is_nullable = 'NO' AND column_default IS NULL "
            "AND is_identity = 'NO'"
        ).fetchall()
        sample = {
            "date": "1980-01-01",
            "timestamp with time zone": "2026-01-01T00:00:00Z",
            "boolean": False,
            "bigint": 0,
            "integer": 0,
            "smallint": 0,
        }
        values = {name: sample.get(kind, "") for name, kind in columns}
        values.update(jurisdiction_id="recife", cpf="52998224725", full_name="José Antônio")
        names = ", ".join(values)
        conn.execute(
            f"INSERT INTO registry_person ({names}) VALUES ({', '.join(['%s'] * len(values))})",
            list(values.values()),
        )
    # registry's own migrations from 0006 on (the rest of the install is the first test's)
    install.run(
        "migrate registry (granted)",
        "migrate",
        "--database",
        "owner",
        "registry",
        "--noinput",
        timeout=MIGRATE_TIMEOUT,
    )
    with install.connect(install.app, install.app_password) as conn:
        assert conn.execute("SELECT name_search FROM registry_person").fetchone() == ("jose antonio",)
