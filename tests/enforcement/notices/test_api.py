"""POST /api/infraction-notices with an Idempotency-Key: replay, mismatch (422), in progress (409)."""

from __future__ import annotations

from typing import Any

import pytest

from lotacao.core.idempotency import payload_hash
from lotacao.enforcement.models import IdempotencyKey, InfractionNotice

pytestmark = pytest.mark.django_db

URL = "/api/infraction-notices"


def body(world: Any, **over: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "jurisdiction": "recife",
        "drawn_up_at": "2025-06-16T10:00:00-03:00",
        "offender_kind": "permit_holder",
        "infraction_code": "G2-a",
        "place": "Av. Norte, 100",
        "description": "Veículo fora do itinerário",
        "permit_id": world.objects["recife"]["permits.permit"].pk,
    }
    data.update(over)
    return data


def post(client: Any, data: dict[str, Any], key: str | None = "chave-1") -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(URL, data, content_type="application/json", **headers)


def count() -> int:
    return InfractionNotice.unscoped.exclude(number__startswith="AI-T-").count()


def test_same_key_and_payload_replay_the_same_response(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    first = post(client, body(world))
    assert first.status_code == 201, first.content
    assert first.json()["penalty"]["penalties"] == [{"type": "fine", "amount": "100.00"}]
    second = post(client, body(world))
    assert second.status_code == 201 and second.content == first.content
    assert count() == 1
    other = post(client, body(world), key="chave-2")  # a new key is a new notice
    assert other.status_code == 201 and other.json()["number"] != first.json()["number"]
    assert count() == 2


def test_same_key_with_another_payload_is_refused(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    assert post(client, body(world)).status_code == 201
    refused = post(client, body(world, place="Outro lugar"))
    assert refused.status_code == 422
    assert "outro conteúdo" in refused.json()["errors"][0]
    assert count() == 1


def test_retry_while_the_first_is_running_gets_409(world: Any, client: Any) -> None:
    user = world.users["fiscal.recife"]
    client.force_login(user)
    data = body(world)
    from lotacao.enforcement.notices.api import NoticeIn

    IdempotencyKey.objects.create(
        key="chave-1",
        user=user,
        endpoint="infraction-notices.create",
        payload_hash=payload_hash(NoticeIn(**data).model_dump(mode="json")),
    )
    response = post(client, data)
    assert response.status_code == 409
    assert "em andamento" in response.json()["errors"][0]
    assert count() == 0


def test_a_refusal_of_the_law_is_replayed_too_and_writes_nothing(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    first = post(client, body(world, place=""))
    assert first.status_code == 422
    assert "art. 30" in first.json()["errors"][0]
    assert post(client, body(world, place="")).content == first.content
    assert count() == 0


def test_roles_and_tenancy(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.esteio"])
    assert post(client, body(world)).status_code == 403  # another agency's inspector
    client.force_login(world.users["holder0.recife"])
    assert post(client, body(world)).status_code == 403
    client.force_login(world.users["comissao.recife"])
    assert post(client, body(world)).status_code == 403
    client.force_login(world.users["atendente.recife"])
    assert post(client, body(world), key=None).status_code in (400, 422)  # the header is required
    created = post(client, body(world))
    assert created.status_code == 201
    notice_id = created.json()["id"]
    assert client.get(f"{URL}/{notice_id}").json()["number"] == created.json()["number"]
    client.force_login(world.users["atendente.esteio"])
    assert client.get(f"{URL}/{notice_id}").status_code == 404
    client.logout()
    assert post(client, body(world)).status_code == 401


def test_preview_writes_nothing_and_override_needs_a_clerk_and_a_reason(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    preview = client.post(f"{URL}/preview", body(world), content_type="application/json")
    assert preview.status_code == 200, preview.content
    assert preview.json()["penalty"]["penalties"] == [{"type": "fine", "amount": "100.00"}]
    assert preview.json()["id"] is None and count() == 0
    notice_id = post(client, body(world)).json()["id"]
    change = {"penalties": [{"type": "warning"}], "reason": "Primeira vez, advertência"}
    url = f"{URL}/{notice_id}/penalty"
    assert client.post(url, change, content_type="application/json").status_code == 403  # the inspector
    client.force_login(world.users["atendente.recife"])
    refused = client.post(url, {**change, "reason": " "}, content_type="application/json")
    assert refused.status_code == 422 and "motivo" in refused.json()["errors"][0]
    done = client.post(url, change, content_type="application/json")
    assert done.status_code == 200 and done.json()["penalty"]["penalties"] == [{"type": "warning"}]
