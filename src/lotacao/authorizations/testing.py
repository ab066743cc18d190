"""Objects the shared test `world` needs for the authorizations' URLs (tests/conftest.py): in each
jurisdiction a granted taxi authorization of the world's person with the world's vehicle (created
directly: the URL tests need a row, not the law's checks — the vehicle also serves the world's
permit, and Recife's law has no such register)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.authorizations.models import Authorization


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        objects["authorizations.authorization"] = Authorization.objects.create(
            jurisdiction=jurisdiction,
            kind=Authorization.Kind.TAXI_COMMON,
            person=objects["registry.person"],
            vehicle=objects["registry.vehicle"],
            number=f"TX-{jurisdiction.code}-1",
            status=Authorization.Status.GRANTED,
            requested_on=today - dt.timedelta(days=20),
            act="Portaria 1 (teste)",
            starts_on=today - dt.timedelta(days=10),
            valid_until=today + dt.timedelta(days=355),
        )
