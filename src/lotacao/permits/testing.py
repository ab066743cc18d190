"""Objects the shared test `world` needs for the permits URLs (tests/conftest.py): in each
jurisdiction an active permit of the first holder, with the world's line and vehicle (created
directly: the URL tests need a row, not the grant's legal checks)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.permits.models import Permit


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        objects["permits.permit"] = Permit.objects.create(
            jurisdiction=jurisdiction,
            number=f"{jurisdiction.code[:3].upper()}-0001/{today.year}",
            holder=objects["registry.holder"],
            line=objects["registry.line"],
            vehicle=objects["registry.vehicle"],
            status=Permit.Status.ACTIVE,
            applied_on=today - dt.timedelta(days=30),
            granted_on=today - dt.timedelta(days=30),
            valid_until=today + dt.timedelta(days=365),
            term_citation="teste",
        )
