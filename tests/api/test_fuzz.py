"""Every API operation fuzzed from its own OpenAPI with schemathesis (issue 15, item 4).

Bounded: a few examples per operation, no deadline. For each generated request, as an operator
with a token (who reaches every operation's code): no 5xx (`not_a_server_error`), the status is
one the operation declares (`status_code_conformance`), the media type is the declared one
(`content_type_conformance`), and the body matches the declared schema
(`response_schema_conformance`). Runs on SQLite and on PostgreSQL (where NUL bytes and integers
beyond bigint used to reach the database).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from lotacao.accounts.models import User
from lotacao.accounts.tokens import create_token

pytestmark = pytest.mark.django_db

MAX_EXAMPLES = int(os.environ.get("LOTACAO_FUZZ_EXAMPLES", "6"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def keep_the_test_connection() -> Iterator[None]:
    """As Django's test client does: a request's end must not close the test's connection (on
    PostgreSQL with CONN_MAX_AGE=0 it would, and the test's transaction with it)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def operator_token(world: Any) -> str:
    operator = User.objects.create_superuser("operador.fuzz", password="senha-de-teste-123")
    return create_token(actor=None, user=operator, label="fuzz")


def _operations() -> list[Any]:
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", WSGIHandler())
    return [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]


def _fuzzer(operation: Any, headers: dict[str, str]) -> Any:
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data: Any) -> None:
        case = data.draw(operation.as_strategy())
        case.call_and_validate(headers=headers, checks=CHECKS)

    return run


def test_every_api_operation_survives_fuzzing(operator_token: str, keep_the_test_connection: None) -> None:
    operations = _operations()
    assert len(operations) >= 60
    headers = {"Authorization": f"Bearer {operator_token}"}
    failures: list[str] = []
    for operation in operations:
        run = _fuzzer(operation, headers)
        try:
            run()
        except (Exception, BaseExceptionGroup) as error:  # collect every operation's failure
            failures.append(f"{operation.method.upper()} {operation.path}: {str(error)[:1500]}")
    assert not failures, "\n\n".join(failures)
