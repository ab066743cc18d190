"""The lines' and the public lines' API operations that no other test called with a success: each
answer is checked against its declared schema (tests/api/conformance.py, on every test's answers)
and read here as a client would (issue 24)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.lines import services
from tests.lines.conftest import approved_line, bus_gtfs, resolution_if_gated, straight


def test_the_public_lines_and_a_line_answer_as_declared(world: Any, client: Any, lines_db: Any) -> None:
    line = approved_line("recife", valid_from=dt.date(2025, 1, 1))
    services.issue_service_order(
        actor=None,
        line=line,
        valid_from=dt.date(2025, 1, 1),
        resolution=resolution_if_gated("recife", "fleet.change", dt.date(2025, 1, 1)),
        fleet=1,
        trip_minutes=30,
        act="OSO 1",
        reason="t",
        periods=[{"day_type": "weekday", "departures": [360, 420]}],
    )
    listed = client.get("/api/public/lines/recife")
    assert listed.status_code == 200 and [row["code"] for row in listed.json()] == [line.code]
    one = client.get(f"/api/public/lines/recife/{line.code}")
    assert one.status_code == 200
    body = one.json()
    assert body["order"]["periods"][0]["departures"] == ["06:00", "07:00"]
    assert "vehicles" not in body["order"] and body["stops"] and body["fare"] is not None
    client.force_login(world.users["gestor.recife"])
    staff = client.get(f"/api/lines/lines/{line.pk}").json()
    assert staff["versions"][0]["number"] == 1 and staff["versions"][0]["stops"]


def test_the_order_check_and_the_bus_network_import_answer_as_declared(
    world: Any, client: Any, lines_db: Any, tmp_path: Any
) -> None:
    line = approved_line("recife", valid_from=dt.date(2025, 1, 1))
    client.force_login(world.users["gestor.recife"])
    check = {
        "periods": [{"day_type": "weekday", "first": 360, "last": 1200, "headway": 30}],
        "valid_from": "2025-02-01",
    }
    found = client.post(
        f"/api/lines/lines/{line.pk}/service-orders/check", check, content_type="application/json"
    )
    assert found.status_code == 200 and isinstance(found.json()["findings"], list)
    path = bus_gtfs(
        tmp_path,
        [
            {
                "id": "040",
                "shape": straight("recife"),
                "stops": straight("recife"),
                "departures": {"weekday": ["05:00"]},
            }
        ],
    )
    with path.open("rb") as upload:
        done = client.post(
            "/api/lines/bus-networks", {"jurisdiction": "recife", "file": upload, "reason": "GTFS"}
        )
    assert done.status_code == 201 and done.json()["id"] and done.json()["report"]
