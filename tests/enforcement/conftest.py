"""Fixtures of the enforcement tests: Maricá and Pernambuco beside the shared world (Recife, Esteio)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest


def make_jurisdiction(code: str) -> Any:
    from lotacao.core.models import Jurisdiction
    from lotacao.law.packs import get_pack

    pack = get_pack(code)
    return Jurisdiction.objects.create(
        code=code,
        name=pack.name,
        official_name=f"Órgão de {pack.name}",
        state=pack.state,
        timezone=pack.timezone,
    )


def at(day: str, hour: int = 10) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=hour, tzinfo=ZoneInfo("America/Recife"))


@pytest.fixture
def recife(world: Any) -> dict[str, Any]:
    o = world.objects["recife"]
    return {
        "j": world.a,
        "holder": o["registry.holder"],
        "vehicle": o["registry.vehicle"],
        "line": o["registry.line"],
        "permit": o["permits.permit"],
        "fiscal": world.users["fiscal.recife"],
    }
