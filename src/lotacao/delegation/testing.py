"""Objects the shared test `world` needs for the delegation's URLs (tests/conftest.py): in each
jurisdiction a contract of the world's permit and an inquiry on it (created directly: the URL
tests need a row, not the law's checks — Recife's law has no such procedure)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.delegation.models import Contract, Inquiry


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        contract = Contract.objects.create(
            jurisdiction=jurisdiction,
            permit=objects["permits.permit"],
            number=f"CT-{jurisdiction.code}-1",
            signed_on=today - dt.timedelta(days=30),
            starts_on=today - dt.timedelta(days=30),
            ends_on=today + dt.timedelta(days=3650),
            clauses={},
        )
        objects["delegation.contract"] = contract
        objects["delegation.inquiry"] = Inquiry.objects.create(
            jurisdiction=jurisdiction,
            contract=contract,
            number=f"INQ-{jurisdiction.code}-1",
            opened_on=today,
            opening_act="Portaria 1",
            facts="Faltas graves reiteradas.",
        )
