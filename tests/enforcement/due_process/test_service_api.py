"""Recording that a decision was communicated, through the API: the answer as declared (issue 24;
tests/api/conformance.py checks it against the OpenAPI on every test's answers)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.clock import today

pytestmark = pytest.mark.django_db


def test_recording_the_service_of_a_decision_answers_the_decision(world: Any, client: Any) -> None:
    decision = world.objects["recife"]["enforcement.decision"]
    url = f"/api/due-process/decisions/{decision.pk}/service"
    client.force_login(world.users["fiscal.recife"])
    body = {"served_on": today().isoformat()}
    assert client.post(url, body, content_type="application/json").status_code == 403
    client.force_login(world.users["gestor.recife"])
    done = client.post(url, body, content_type="application/json")
    assert done.status_code == 200, done.content
    assert done.json()["id"] == decision.pk and done.json()["served_on"] == today().isoformat()
