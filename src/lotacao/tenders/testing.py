"""Objects the shared test `world` needs for the tenders URLs (tests/conftest.py): a call in each
jurisdiction (created directly: the URL test only needs a row)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.tenders.models import Call


def extend_world(world: Any) -> None:
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        call = Call.objects.create(
            jurisdiction=jurisdiction,
            number=f"T-{jurisdiction.code}",
            subject="Edital de teste",
            line=objects["registry.line"],
            places=1,
            opens_on=dt.date(2025, 6, 2),
            closes_on=dt.date(2025, 6, 11),
            tie_break_clause="Item 9",
        )
        objects["tenders.call"] = call
