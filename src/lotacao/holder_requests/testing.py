"""Objects the shared test `world` needs for the requests' URLs (tests/conftest.py): in each
jurisdiction a renewal request of the first holder, in analysis (created directly: the URL tests
need a row, not the filing's legal checks)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from lotacao.holder_requests.models import Request


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        objects["holder_requests.request"] = Request.objects.create(
            jurisdiction=jurisdiction,
            protocol=f"REQ-{today.year}-000001",
            holder=objects["registry.holder"],
            kind=Request.Kind.RENEWAL,
            filed_on=today,
            permit=objects.get("permits.permit"),
            requirements=[{"label": "Permissão vigente", "met": True, "detail": "", "citation": ""}],
        )
