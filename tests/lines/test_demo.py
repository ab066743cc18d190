"""The demo: each municipal jurisdiction has lines with stops, shapes and an order in force, a draft
waiting for approval and a bus network; each feed passes the GTFS validator; a second run adds nothing."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command

from lotacao.lines import gtfs, queue, selectors
from lotacao.lines.models import BusNetwork, LineVersion, Place
from lotacao.registry.models import Line
from tests import clock
from tests.lines.test_gtfs import notices

MUNICIPAL = ["recife", "cabo", "esteio", "marica"]


def test_the_demo_has_lines_orders_drafts_and_bus_networks(db: Any, tmp_path: Path) -> None:
    call_command("load_demo", stdout=StringIO())
    today = clock.today()
    for code in MUNICIPAL:
        lines = Line.objects.filter(jurisdiction_id=code)
        in_force = [line for line in lines if selectors.service_order_in_force(line, today)]
        assert len(in_force) >= 2, code
        assert all(len(selectors.stops_of(selectors.version_in_force(x, today))) >= 2 for x in in_force)
        assert LineVersion.objects.filter(line__jurisdiction_id=code, status="draft").count() == 1
        assert BusNetwork.objects.filter(jurisdiction_id=code, current=True).count() == 1
        feed = gtfs.export(code, today, f"https://lotacao.example.org/publico/linhas/{code}/")
        folder = tmp_path / code
        folder.mkdir()
        found = notices(feed, folder)
        assert {c: n for c, (severity, n) in found.items() if severity == "ERROR"} == {}, (code, found)
    assert not Line.objects.filter(jurisdiction_id="pernambuco").exists()
    # Names a rider of each city would recognise (issue 24, defect 12): the drafted L-300 had
    # origin "Bairro", destination "Centro" and stops "Terminal de origem/destino".
    draft = LineVersion.objects.get(line__jurisdiction_id="recife", line__code="L-300", status="draft")
    assert (draft.origin, draft.destination) == ("Jardim São Paulo", "Afogados")
    stops = [s.name for s in selectors.stops_of(draft)]
    assert stops[0] == "Terminal Jardim São Paulo" and stops[-1] == "Terminal Afogados"
    assert not LineVersion.objects.filter(origin="Bairro").exists()
    generic = {"Terminal de origem", "Terminal de destino", "Parada do Mercado", "Parada da Escola"}
    for code in MUNICIPAL:
        names = {
            s.name
            for v in LineVersion.objects.filter(line__jurisdiction_id=code)
            for s in selectors.stops_of(v)
        }
        assert not names & generic, (code, names & generic)
    assert not {s.name for s in selectors.stops_of(draft)} & {
        s.name
        for v in LineVersion.objects.filter(line__jurisdiction_id="marica")
        for s in selectors.stops_of(v)
    }
    assert Place.objects.filter(jurisdiction_id="marica").exists()
    kinds = {(i.jurisdiction_id, i.kind) for i in queue.items(today, 30)}
    assert ("marica", "lines.reaward") in kinds and ("esteio", "lines.unused") in kinds
    assert ("recife", "lines.draft") in kinds
    before = (LineVersion.objects.count(), Place.objects.count(), BusNetwork.objects.count())
    call_command("load_demo", stdout=StringIO())
    assert (LineVersion.objects.count(), Place.objects.count(), BusNetwork.objects.count()) == before
