from __future__ import annotations

import datetime as dt
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from lotacao.workqueue import services
from lotacao.workqueue.models import WorkItem
from lotacao.workqueue.services import WorkItemSpec
from tests import clock

DAY = dt.date(2026, 3, 2)


def _spec(key: str, title: str = "Documento vence", due: dt.date | None = DAY) -> WorkItemSpec:
    return WorkItemSpec(jurisdiction_id="recife", kind="document", key=key, title=title, due_on=due)


def test_refresh_opens_keeps_updates_and_closes(world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    specs = [_spec("a"), _spec("b"), _spec("c")]
    monkeypatch.setattr(services, "collect", lambda today, horizon: iter(specs))
    first = services.refresh(DAY)
    assert (first.opened, first.kept, first.closed) == (3, 0, 0)

    specs = [_spec("a"), _spec("b", title="Documento venceu", due=DAY - dt.timedelta(days=1))]
    second = services.refresh(DAY + dt.timedelta(days=1))
    assert (second.opened, second.kept, second.closed) == (0, 2, 1)
    a, b = WorkItem.objects.get(key="a"), WorkItem.objects.get(key="b")
    assert a.first_seen == DAY and a.last_seen == DAY + dt.timedelta(days=1)
    assert b.title == "Documento venceu" and b.due_on == DAY - dt.timedelta(days=1)
    c = WorkItem.objects.get(key="c")
    assert c.status == WorkItem.Status.CLOSED and c.closed_on == DAY + dt.timedelta(days=1)

    specs = [_spec("c")]  # a closed item that comes back is a new open one
    services.refresh(DAY + dt.timedelta(days=2))
    assert WorkItem.objects.filter(key="c").count() == 2
    assert WorkItem.objects.filter(key="c", status=WorkItem.Status.OPEN).count() == 1


def test_the_nightly_command_uses_every_provider_and_staff_see_only_their_queue(
    world: Any, client: Any
) -> None:
    permit = world.objects["recife"]["permits.permit"]
    permit.valid_until = clock.today() + dt.timedelta(days=10)
    permit.save()
    out = StringIO()
    call_command("build_work_queue", stdout=out)
    assert "novos" in out.getvalue()
    assert WorkItem.objects.filter(jurisdiction_id="recife", kind="permit_term").exists()
    client.force_login(world.users["atendente.recife"])
    assert f"Permissão nº {permit.number}" in client.get("/fila/").content.decode()
    client.force_login(world.users["atendente.esteio"])
    assert f"Permissão nº {permit.number}" not in client.get("/fila/").content.decode()
    client.force_login(world.users["holder0.recife"])
    assert client.get("/fila/").status_code == 404
