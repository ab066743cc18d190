"""Schemathesis over every operation of /api/openapi.json, as an operator with a token (issue 25).

Deeper than tests/api/test_fuzz.py (a few examples each, for conformance): for each operation
`LOTACAO_FUZZ_DEEP_EXAMPLES` (default 50) requests valid by its schema, half of them aimed at the
records of the test world (path ids that exist, so the operation's code runs past its 404), and
`LOTACAO_FUZZ_NEGATIVE_EXAMPLES` (default 10) invalid ones (a number beyond the declared maximum,
a date of the wrong type): no answer is a server error, every answer is problem+json when it
is an error, and every answer's media type and body conform to what the operation declares
(`content_type_conformance`, `response_schema_conformance`: issue 24 declared them all).
Through the WSGI application (no server, no network): measured at about two minutes on SQLite
on the 2-core machine. Runs on SQLite and on PostgreSQL (`make test` with DATABASE_URL).

Stateful links (a POST's id fed to the next GET) are not declared by the OpenAPI, so the test
stands in for them with the existing ids of the world.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from lotacao.accounts.models import User
from lotacao.accounts.tokens import create_token

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EXAMPLES = int(os.environ.get("LOTACAO_FUZZ_DEEP_EXAMPLES", "50"))
NEGATIVE = int(os.environ.get("LOTACAO_FUZZ_NEGATIVE_EXAMPLES", "10"))
ONLY = os.environ.get("LOTACAO_FUZZ_ONLY", "")  # a part of the path: fuzz only those operations
PROBLEM = "application/problem+json"


@pytest.fixture
def keep_the_test_connection() -> Iterator[None]:
    """A request's end must not close the test's connection (PostgreSQL, CONN_MAX_AGE=0)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def problem_json_errors(ctx: Any, response: Any, case: Any) -> bool:
    """Every error the API answers (4xx) is problem details, except the public GTFS (a zip)."""
    if 400 <= response.status_code < 500:
        kind = (response.headers.get("content-type") or [""])[0]
        assert kind.startswith(PROBLEM), f"{response.status_code} answered as {kind!r}"
    return True


CHECKS = [not_a_server_error, problem_json_errors, content_type_conformance, response_schema_conformance]


def _ids(world: Any) -> list[int]:
    found = {
        obj.pk
        for by_label in world.objects.values()
        for obj in by_label.values()
        if isinstance(getattr(obj, "pk", None), int)
    }
    return sorted(found)


def _int_path_parameters(operation: Any) -> list[str]:
    names = []
    for parameter in operation.path_parameters:
        schema = parameter.definition.get("schema", {})
        if schema.get("type") == "integer":
            names.append(parameter.name)
    return names


def _strategy(operation: Any, ids: list[int]) -> Any:
    positive = operation.as_strategy()
    names = _int_path_parameters(operation)
    if names:
        aimed = st.sampled_from(ids).flatmap(
            lambda pk: operation.as_strategy(path_parameters=dict.fromkeys(names, pk))
        )
        positive = st.one_of(positive, aimed)
    return positive


def _run(operation: Any, strategy: Any, examples: int, headers: dict[str, str]) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case: Any) -> None:
        case.call_and_validate(headers=headers, checks=CHECKS)

    run()


def test_every_operation_survives_schemathesis(world: Any, keep_the_test_connection: None) -> None:
    operator = User.objects.create_superuser("operador.schemathesis", password="senha-de-teste-123")
    headers = {"Authorization": f"Bearer {create_token(actor=None, user=operator, label='schemathesis')}"}
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", WSGIHandler())
    operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    assert len(operations) >= 60
    operations = [op for op in operations if ONLY in op.path]
    ids = _ids(world)
    failures: list[str] = []
    started = time.monotonic()
    for operation in operations:
        for strategy, examples in (
            (_strategy(operation, ids), EXAMPLES),
            (operation.as_strategy(generation_mode=GenerationMode.NEGATIVE), NEGATIVE),
        ):
            try:
                _run(operation, strategy, examples, headers)
            except Unsatisfiable:  # no invalid value exists for it (a text path parameter)
                continue
            except (Exception, BaseExceptionGroup) as error:  # every operation's failure, not the first
                failures.append(f"{operation.method.upper()} {operation.path}: {str(error)[:1500]}")
    elapsed = time.monotonic() - started
    print(f"schemathesis: {len(operations)} operations, {EXAMPLES}+{NEGATIVE} examples each, {elapsed:.0f} s")
    assert not failures, "\n\n".join(failures)
