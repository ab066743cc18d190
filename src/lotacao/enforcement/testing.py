"""Objects the shared test `world` needs for the enforcement URLs (tests/conftest.py): one
infraction notice per jurisdiction, against the world's holder and vehicle (created directly:
the URL tests need a row, not the engine's computation)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from lotacao.enforcement.models import InfractionNotice


def extend_world(world: Any) -> None:
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        vehicle = objects["registry.vehicle"]
        objects["enforcement.infractionnotice"] = InfractionNotice.objects.create(
            jurisdiction=jurisdiction,
            number=f"AI-T-{jurisdiction.code}",
            drawn_up_at=timezone.now(),
            place="Teste",
            infraction_code="teste",
            offender_kind="permit_holder",
            holder=objects["registry.holder"],
            vehicle=vehicle,
            plate=vehicle.plate,
        )
