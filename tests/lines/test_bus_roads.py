"""Recife art. 1, § 5º and art. 3, § 3º: the STCP may use only small stretches of the bus system's
roads, without another way and without direct competition. The law sets no limit, so the system
measures the overlap (length and share, per bus line) and shows it with the version to whoever
approves it; it never refuses on its own."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from lotacao.councils.testing import resolution_for
from lotacao.lines import services
from lotacao.lines.models import LineVersion
from tests.lines.conftest import ORIGIN, east, import_bus, new_line, straight, version_kwargs


def _bus_on_the_first_half(code: str, tmp_path: Path) -> None:
    lon, lat = ORIGIN[code]
    half = [[lon, lat], [east(lon, lat, 1000), lat]]
    import_bus(
        code,
        tmp_path,
        [
            {
                "id": "B1",
                "name": "Ônibus 1",
                "shape": half,
                "stops": half,
                "departures": {"weekday": ["07:00"]},
            }
        ],
    )


def test_the_approver_sees_how_much_of_the_line_runs_on_bus_roads(lines_db: Any, tmp_path: Path) -> None:
    _bus_on_the_first_half("recife", tmp_path)
    line = new_line("recife")
    version = services.draft_version(
        actor=None,
        line=line,
        on=dt.date(2025, 1, 1),
        **version_kwargs("recife", itinerary=straight("recife")),
    )
    found = [c for c in version.checks if c["rule"] == "bus_roads"]
    assert len(found) == 1 and found[0]["severity"] == "info", version.checks
    text = found[0]["message"]
    assert "1,0 km de 2,0 km (51%)" in text and "B1" in text and "pequenos trechos" in text
    assert "art. 3º, § 3º" in found[0]["citation"]
    approved = services.approve_version(
        actor=None,
        version=version,
        act="Resolução CMTT nº 1/2025",
        approved_on=dt.date(2025, 1, 2),
        valid_from=dt.date(2025, 1, 2),
        reason="teste",
        resolution=resolution_for("recife", "line.create", dt.date(2025, 1, 2)),
    )
    assert approved.status == LineVersion.Status.APPROVED  # a measure, not a refusal
    assert any(c["rule"] == "bus_roads" for c in approved.checks)


def test_a_line_off_the_bus_roads_says_so_and_other_laws_measure_nothing(
    lines_db: Any, tmp_path: Path
) -> None:
    lon, lat = ORIGIN["recife"]
    far = [[lon, lat + 0.05], [east(lon, lat + 0.05, 1000), lat + 0.05]]
    import_bus(
        "recife",
        tmp_path,
        [{"id": "B9", "name": "Longe", "shape": far, "stops": far, "departures": {"weekday": ["07:00"]}}],
    )
    version = services.draft_version(
        actor=None, line=new_line("recife"), on=dt.date(2025, 1, 1), **version_kwargs("recife")
    )
    found = [c for c in version.checks if c["rule"] == "bus_roads"]
    assert [c["message"] for c in found] == ["O itinerário não usa vias das linhas de ônibus"]
    esteio = services.draft_version(
        actor=None, line=new_line("esteio"), on=dt.date(2025, 1, 1), **version_kwargs("esteio")
    )
    assert not [c for c in esteio.checks if c["rule"] == "bus_roads"]
