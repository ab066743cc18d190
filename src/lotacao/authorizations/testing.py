"""Objects the shared test `world` needs for the authorizations' URLs (tests/conftest.py): in each
jurisdiction a taxi vehicle and a granted authorization of the world's person (created directly:
the URL tests need a row, not the law's checks — Recife's law has no such register)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.authorizations.models import Authorization
from lotacao.registry.models import Vehicle


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for seed, jurisdiction in enumerate((world.a, world.b), start=1):
        objects = world.objects[jurisdiction.code]
        vehicle = Vehicle.objects.create(
            jurisdiction=jurisdiction,
            plate=f"TX{chr(64 + seed)}1A{seed:02d}",
            manufacture_year=2022,
            category=Vehicle.Category.CAR7,
            seats=5,
            doors=4,
        )
        objects["authorizations.authorization"] = Authorization.objects.create(
            jurisdiction=jurisdiction,
            kind=Authorization.Kind.TAXI_COMMON,
            person=objects["registry.person"],
            vehicle=vehicle,
            number=f"TX-{jurisdiction.code}-1",
            status=Authorization.Status.GRANTED,
            requested_on=today - dt.timedelta(days=20),
            act="Portaria 1 (teste)",
            starts_on=today - dt.timedelta(days=10),
            valid_until=today + dt.timedelta(days=355),
        )
