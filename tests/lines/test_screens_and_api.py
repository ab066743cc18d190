"""The agency's screens and API, and the public pages (no personal data)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.urls import reverse
from django.utils import timezone

from lotacao.councils.testing import resolution_for
from lotacao.lines import places, services
from lotacao.lines.models import LineVersion, ServiceOrder
from tests.lines.conftest import approved_line, import_bus, permit, resolution_if_gated, straight


def _stops(code: str) -> str:
    path = straight(code)
    return json.dumps(
        [
            {"name": "Terminal A", "lat": path[0][1], "lon": path[0][0], "kind": "terminal"},
            {"name": "Terminal B", "lat": path[-1][1], "lon": path[-1][0], "kind": "terminal"},
        ]
    )


def test_a_clerk_creates_a_line_and_a_manager_approves_it(world: Any, client: Any, lines_db: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    assert client.get(reverse("lines:list")).status_code == 200
    data = {
        "code": "n-10",
        "name": "Noturna",
        "shape": "radial",
        "grounds": ["geographic"],
        "origin": "Ibura",
        "destination": "Derby",
        "itinerary": json.dumps(straight("recife")),
        "stops": _stops("recife"),
        "study": "Estudo 3/2025",
        "reason": "Criação da linha",
    }
    refused = client.post(reverse("lines:create"), data)
    assert refused.status_code == 422
    assert (
        "Linha radial vedada" in refused.content.decode()
        and "art. 4º, parágrafo único" in refused.content.decode()
    )
    data["grounds"] = ["temporal"]
    done = client.post(reverse("lines:create"), data)
    assert done.status_code == 302
    version = LineVersion.objects.get(line__code="N-10")
    page = client.get(done["Location"]).content.decode()
    assert "Sem versão aprovada" in page and 'id="line-map"' in page
    client.force_login(world.users["gestor.recife"])
    approve = reverse("lines:approve", kwargs={"pk": version.line_id})
    today = timezone.localdate().isoformat()
    payload = {"version": 1, "act": "", "approved_on": today, "valid_from": today, "reason": "Aprovação"}
    refused = client.post(approve, payload).content.decode()
    assert "aprovação do CMTT/Recife" in refused and "art. 3º, § 1º" in refused
    assert 'name="resolution"' in refused
    payload["resolution"] = resolution_for("recife", "line.create", timezone.localdate()).pk
    assert client.post(approve, payload).status_code == 302
    version.refresh_from_db()
    assert version.status == "approved" and version.approval_body == "CMTT/Recife"
    assert version.approval_act.startswith("Resolução nº ") and "do CMTT/Recife" in version.approval_act


def test_the_order_editor_checks_as_you_type_and_refuses_with_the_article(
    world: Any, client: Any, lines_db: Any
) -> None:
    line = approved_line("recife", grounds=["temporal"], valid_from=dt.date(2025, 1, 1))
    client.force_login(world.users["atendente.recife"])
    check = reverse("lines:order_check", kwargs={"pk": line.pk})
    found = client.get(
        check, {"p0_day": "weekday", "p0_first": "21:30", "p0_last": "04:00", "p0_headway": "20"}
    )
    assert "art. 1º, § 3º" in found.json()["findings"][0]["text"]
    assert client.get(
        check, {"p0_day": "weekday", "p0_first": "22:00", "p0_last": "04:00", "p0_headway": "20"}
    ).json() == {"findings": []}
    url = reverse("lines:order_create", kwargs={"pk": line.pk})
    assert 'id="order-checks"' in client.get(url).content.decode()
    form = {
        "kind": "regular",
        "valid_from": timezone.localdate().isoformat(),
        "fleet": 2,
        "trip_minutes": 40,
        "act": "OSO 7/2025",
        "reason": "Nova OSO",
        "p0_day": "weekday",
        "p0_first": "21:30",
        "p0_last": "04:00",
        "p0_headway": 20,
    }
    refused = client.post(url, form)
    assert refused.status_code == 422 and "art. 1º, § 3º" in refused.content.decode()
    form["p0_first"] = "22:00"
    refused = client.post(url, form)
    assert (
        refused.status_code == 422
        and "modificação do tipo ou da quantidade de veículos" in refused.content.decode()
    )
    form["resolution"] = resolution_for("recife", "fleet.change", timezone.localdate()).pk
    assert client.post(url, form).status_code == 302
    assert ServiceOrder.objects.get(line=line).periods.get().last == 28 * 60


def test_outsiders_cannot_write_and_the_api_is_scoped(world: Any, client: Any, lines_db: Any) -> None:
    line = world.objects["recife"]["registry.line"]
    client.force_login(world.users["fiscal.recife"])
    assert client.get(reverse("lines:order_create", kwargs={"pk": line.pk})).status_code == 403
    client.force_login(world.users["gestor.esteio"])
    assert client.get(f"/api/lines/lines/{line.pk}").status_code == 404
    assert [x["jurisdiction"] for x in client.get("/api/lines/lines").json()] == ["esteio"]


def test_the_api_drafts_checks_and_reads_the_order_in_force(world: Any, client: Any, lines_db: Any) -> None:
    line = world.objects["esteio"]["registry.line"]
    client.force_login(world.users["gestor.esteio"])
    path = straight("esteio")
    body = {
        "shape": "local",
        "origin": "Centro",
        "destination": "Parque Amador",
        "itinerary": path,
        "stops": [
            {"name": "A", "lat": path[0][1], "lon": path[0][0]},
            {"name": "B", "lat": path[-1][1], "lon": path[-1][0]},
        ],
    }
    made = client.post(f"/api/lines/lines/{line.pk}/versions", body, content_type="application/json")
    assert made.status_code == 201 and made.json()["status"] == "draft"
    approve = {"act": "Decisão SMOVT/CMTT 1", "approved_on": "2025-01-02", "valid_from": "2025-01-02"}
    assert (
        client.post(
            f"/api/lines/lines/{line.pk}/versions/1/approve", approve, content_type="application/json"
        ).status_code
        == 200
    )
    order = {
        "periods": [{"day_type": "weekday", "first": 360, "last": 1200, "headway": 30}],
        "fleet": 2,
        "trip_minutes": 30,
        "valid_from": "2025-02-01",
        "act": "OSO 1/2025",
    }
    assert (
        client.post(
            f"/api/lines/lines/{line.pk}/service-orders", order, content_type="application/json"
        ).status_code
        == 201
    )
    got = client.get(f"/api/lines/lines/{line.pk}/service-order", {"on": "2025-03-01"}).json()
    assert got["number"] == 1 and got["periods"][0]["headway"] == 30
    assert client.get(f"/api/lines/lines/{line.pk}/service-order", {"on": "2025-01-15"}).status_code == 404
    bad = client.post(
        f"/api/lines/lines/{line.pk}/versions",
        {**body, "itinerary": [[0, 0]]},
        content_type="application/json",
    )
    assert bad.status_code == 422 and "dois pontos" in bad.json()["errors"][0]


def test_public_pages_and_the_plate_link(world: Any, client: Any, lines_db: Any) -> None:
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
    car = permit("recife", line)
    places.assign_place(actor=None, permit=car, line=line, starts_on=dt.date(2025, 1, 1), reason="t")
    listing = client.get(reverse("public:lines", kwargs={"jurisdiction": "recife"})).content.decode()
    assert line.code in listing
    page = client.get(reverse("public:line", kwargs={"jurisdiction": "recife", "code": line.code}))
    text = page.content.decode()
    assert page.status_code == 200 and "06:00, 07:00" in text and "Terminal Centro" in text
    assert car.holder.person.full_name not in text and car.vehicle.plate not in text
    plate = client.get(f"/publico/veiculos/{car.vehicle.plate}/").content.decode()
    assert reverse("public:line", kwargs={"jurisdiction": "recife", "code": line.code}) in plate
    assert client.get("/api/public/gtfs/recife")["Content-Type"] == "application/zip"
    assert client.get("/api/public/gtfs/nao-existe").status_code == 404


def test_the_bus_gtfs_import_reports_what_it_read(
    world: Any, client: Any, lines_db: Any, tmp_path: Any
) -> None:
    from tests.lines.conftest import bus_gtfs

    client.force_login(world.users["atendente.recife"])
    path = bus_gtfs(
        tmp_path,
        [
            {
                "id": "040",
                "shape": straight("recife"),
                "stops": straight("recife"),
                "departures": {"weekday": ["05:00", "05:30"]},
            }
        ],
    )
    with path.open("rb") as upload:
        done = client.post(
            reverse("lines:bus_networks"), {"jurisdiction": "recife", "file": upload, "reason": "GTFS"}
        )
    assert done.status_code == 302
    page = client.get(reverse("lines:bus_networks")).content.decode()
    assert "1 linha, 3 paradas, 2 viagens" in page
    bad = tmp_path / "x.zip"
    bad.write_bytes(b"not a zip")
    with bad.open("rb") as upload:
        refused = client.post(
            reverse("lines:bus_networks"), {"jurisdiction": "recife", "file": upload, "reason": "x"}
        )
    assert refused.status_code == 422 and "não é um GTFS" in refused.content.decode()
    assert import_bus  # the helper the law scenarios use
