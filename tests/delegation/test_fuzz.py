"""The delegation's API operations fuzzed from their OpenAPI, as Esteio's manager and as an
operator: no 5xx, only declared statuses and schemas."""

from __future__ import annotations

from typing import Any

import pytest

from lotacao.accounts.tokens import create_token
from tests.api.test_fuzz import _fuzzer, _operations, keep_the_test_connection  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("who", ["gestor.esteio", "operator"])
def test_the_delegation_api_survives_fuzzing(world: Any, who: str, keep_the_test_connection: None) -> None:  # noqa: F811
    from lotacao.accounts.models import User

    user = world.users.get(who) or User.objects.create_superuser(
        "operador.fuzz.delegacao", password="senha-de-teste-123"
    )
    token = create_token(actor=None, user=user, label="fuzz")
    operations = [op for op in _operations() if op.path.startswith("/api/delegation")]
    assert len(operations) == 17
    failures = []
    for operation in operations:
        try:
            _fuzzer(operation, {"Authorization": f"Bearer {token}"})()
        except (Exception, BaseExceptionGroup) as error:
            failures.append(f"{operation.method.upper()} {operation.path}: {str(error)[:1500]}")
    assert not failures, "\n\n".join(failures)
