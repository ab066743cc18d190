"""The billing API: same scope and roles as the screens."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.billing.ledger.services import issue_charge
from tests import clock


def test_holder_reads_own_charges_and_clearance_and_files_demand(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    line = world.objects["recife"]["registry.line"]
    mine = issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="Minha",
        amount="10",
        due_on=dt.date(2026, 1, 1),
        reason="t",
    )
    other = issue_charge(
        actor=None,
        holder=world.objects["esteio"]["registry.holder"],
        kind="fee",
        description="Alheia",
        amount="10",
        due_on=dt.date(2026, 1, 1),
        reason="t",
    )
    client.force_login(world.users["holder0.recife"])
    ids = [c["id"] for c in client.get("/api/billing/charges").json()]
    assert ids == [mine.pk]
    assert client.get(f"/api/billing/charges/{other.pk}").status_code == 404
    verdict = client.get(
        f"/api/billing/holders/{holder.pk}/clearance", {"procedure": "reregistration"}
    ).json()
    assert verdict["clear"] is False and verdict["blocking"] == [mine.pk]
    month = (clock.today().replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
    response = client.post(
        "/api/billing/declarations",
        {"line_id": line.pk, "month": month, "full_passengers": 120},
        content_type="application/json",
    )
    assert response.status_code == 201 and response.json()["source"] == "permissionario"
    again = client.post(
        "/api/billing/declarations",
        {"line_id": line.pk, "month": month, "full_passengers": 1},
        content_type="application/json",
    )
    assert again.status_code == 422 and "corrija a existente" in again.json()["errors"][0]
    assert (
        client.get("/api/billing/runs/preview", {"jurisdiction": "recife", "period": month}).status_code
        == 403
    )


def test_staff_preview_names_what_is_missing(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    plan = client.get("/api/billing/runs/preview", {"jurisdiction": "recife", "period": "2027-02"}).json()
    assert plan["charges"] == [] and isinstance(plan["refusals"], list)
    assert (
        client.get("/api/billing/runs/preview", {"jurisdiction": "esteio", "period": "2027-02"}).status_code
        == 403
    )
