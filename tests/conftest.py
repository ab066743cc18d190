"""Fixtures shared by the Django tests: two jurisdictions, staff of each role, two holders each.

The fixed cast (as in healthchecks' tests): `staff_a` works in jurisdiction A (recife), `staff_b`
in B (esteio); `holder_a1`/`holder_a2` are two permit holders of A with portal accounts.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import pytest

from lotacao.core.sample_ids import sample_cpf

# CI sets this: a test that would skip (no Chromium, no shared contract folder…) fails instead,
# except the PostgreSQL-only tests during the SQLite pass (they run in the PostgreSQL pass).
REQUIRE_ALL = os.environ.get("LOTACAO_REQUIRE_ALL_TESTS") == "1"


class _OneRequestAtATime:
    """The live server's threads share one in-memory SQLite connection (pytest-django passes it to
    them): two requests at once from one browser page (the page and a script's fetch) interleave
    their transactions on it — a session row one rolls back, the other cannot save (400
    SessionInterrupted), or a login that never arrives. On the shared connection, one request at a
    time, its body read inside the lock; with PostgreSQL each thread has its own connection and
    nothing is serialised."""

    def __init__(self, application: Any) -> None:
        import threading

        self.application = application
        self.lock = threading.Lock()

    def __call__(self, environ: Any, start_response: Any) -> Any:
        with self.lock:
            result = self.application(environ, start_response)
            try:
                return [b"".join(result)]
            finally:
                close = getattr(result, "close", None)
                if close is not None:
                    close()


def _serialise_the_shared_live_server() -> None:
    from django.core.servers.basehttp import ThreadedWSGIServer
    from django.test.testcases import LiveServerThread

    class Server(ThreadedWSGIServer):
        def set_app(self, application: Any) -> None:
            super().set_app(_OneRequestAtATime(application) if self.connections_override else application)

    LiveServerThread.server_class = Server


_serialise_the_shared_live_server()


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    from django.db import connection

    if connection.vendor == "postgresql":
        only_sqlite = pytest.mark.skip(reason="só no SQLite embutido: roda na passada SQLite")
        for item in items:
            if item.get_closest_marker("sqlite"):
                item.add_marker(only_sqlite)
        return
    skip = pytest.mark.skip(reason="precisa do PostgreSQL (DATABASE_URL): roda na passada PostgreSQL")
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    report = outcome.get_result()
    if not (REQUIRE_ALL and report.skipped) or hasattr(report, "wasxfail"):
        return
    from django.db import connection

    if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
        return
    if item.get_closest_marker("sqlite") and connection.vendor == "postgresql":
        return
    reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"LOTACAO_REQUIRE_ALL_TESTS=1: este teste não pode ser pulado no CI ({reason})"


@dataclass
class World:
    a: Any
    b: Any
    users: dict[str, Any]
    objects: dict[str, dict[str, Any]]  # jurisdiction code -> model label -> one instance


def _make_world() -> World:
    from lotacao.accounts.models import HolderAccount, Role, StaffMembership, User
    from lotacao.core.models import Jurisdiction
    from lotacao.registry import services

    a = Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU", state="PE")
    b = Jurisdiction.objects.create(
        code="esteio", name="Esteio", official_name="SMOVT", state="RS", timezone="America/Sao_Paulo"
    )
    users: dict[str, Any] = {}
    objects: dict[str, dict[str, Any]] = {}
    for j, seed in ((a, 1), (b, 2)):
        for role in Role:
            user = User.objects.create_user(f"{role.value}.{j.code}", password="senha-de-teste-123")
            StaffMembership.objects.create(user=user, jurisdiction=j, role=role.value)
            users[f"{role.value}.{j.code}"] = user
        holders = []
        for n in range(2):
            person = services.create_person(
                actor=None,
                jurisdiction=j,
                cpf=sample_cpf(200_000_000 + seed * 10 + n),
                full_name=f"Pessoa {n} de {j.name}",
                birth_date=dt.date(1980, 1, 1),
                reason="teste",
            )
            holder = services.register_holder(actor=None, person=person, reason="teste")
            user = User.objects.create_user(f"permissionario{n}.{j.code}", password="senha-de-teste-123")
            HolderAccount.objects.create(user=user, holder=holder)
            users[f"holder{n}.{j.code}"] = user
            holders.append(holder)
        vehicle = services.create_vehicle(
            actor=None,
            jurisdiction=j,
            plate=f"AB{chr(64 + seed)}1C23",
            manufacture_year=2020,
            category="van",
            seats=16,
            doors=4,
            holder=holders[0],
            reason="teste",
        )
        line = services.create_line(
            actor=None, jurisdiction=j, code=f"L{seed}", name=f"Linha de {j.name}", reason="teste"
        )
        from lotacao.web.agency_values import set_agency_value

        holiday = set_agency_value(
            actor=None,
            jurisdiction=j,
            parameter="calendar.municipal_holidays",
            valid_from=dt.date(2020, 1, 1),
            value=["01-20"] if j.code == "esteio" else ["07-16"],
            cite="Lei municipal de feriados (teste)",
            reason="teste",
        )
        objects[j.code] = {
            "core.agencyvalue": holiday,
            "registry.person": holders[0].person,
            "registry.holder": holders[0],
            "registry.vehicle": vehicle,
            "registry.line": line,
        }
    world = World(a=a, b=b, users=users, objects=objects)
    for module in WORLD_EXTENSIONS:  # each app adds the objects its id-taking URLs expose
        import_module(module).extend_world(world)
    return world


WORLD_EXTENSIONS = [
    "lotacao.documents.testing",
    "lotacao.inspections.testing",
    "lotacao.permits.testing",
    "lotacao.enforcement.testing",
    "lotacao.billing.testing",
    "lotacao.chartering.testing",
    "lotacao.holder_requests.testing",
    "lotacao.duties.testing",
    "lotacao.ombudsman.testing",
    "lotacao.tenders.testing",
    "lotacao.delegation.testing",
    "lotacao.authorizations.testing",
    "lotacao.rosters.testing",
    "lotacao.lines.testing",
    "lotacao.training.testing",
    "lotacao.councils.testing",
]


@pytest.fixture(autouse=True)
def fresh_law() -> None:
    """A test's agency values (rolled back with it) must not reach the next test through the
    process's layered-pack cache (lotacao.core.law keeps it a few seconds)."""
    from lotacao.core import law
    from lotacao.law.packs import available_packs

    for code in available_packs():
        law.forget(code)


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """What one test cached (the manager's charts, rate-limit counters) must not reach the next:
    on SQLite a rolled-back test's ids are given again to the next one."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def api_answers_conform(monkeypatch: Any) -> None:
    """Every success of /api/ a test receives matches the operation's OpenAPI (tests/api/conformance)."""
    from django.test.client import Client

    from tests.api import conformance

    original = Client.request

    def checked(self: Any, **request: Any) -> Any:
        response = original(self, **request)
        conformance.check(response)
        return response

    monkeypatch.setattr(Client, "request", checked)


@pytest.fixture
def world(db: Any, settings: Any, tmp_path: Any) -> World:
    settings.MEDIA_ROOT = tmp_path / "media"  # uploaded files of a test stay in the test
    return _make_world()
