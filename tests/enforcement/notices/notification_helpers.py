"""Helpers of the notification tests: notices, the holder of a jurisdiction, and the check that a
refusal changed nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.audit.models import AuditEvent
from lotacao.enforcement.models import InfractionNotice, NoticeService
from lotacao.registry.models import Person
from tests.enforcement.conftest import at

TODAY = dt.date(2025, 7, 1)


def _notice(j: Any, day: str = "2025-05-05", **over: Any) -> InfractionNotice:
    data: dict[str, Any] = {
        "jurisdiction": j,
        "number": f"AI-T-{j.code}-{InfractionNotice.unscoped.count() + 1}",
        "drawn_up_at": at(day),
        "infraction_code": "teste",
        "offender_kind": "permit_holder",
    }
    data.update(over)
    return InfractionNotice.objects.create(**data)


def _holder(world: Any, code: str) -> Any:
    holder = world.objects[code]["registry.holder"]
    Person.unscoped.filter(pk=holder.person_id).update(street="Rua do Titular", number="10", city="Cidade")
    holder.person.refresh_from_db()
    return holder


def _unchanged(notice: InfractionNotice, audits: int) -> None:
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.DRAWN_UP and notice.served_on is None
    assert not NoticeService.unscoped.filter(notice=notice).exists()
    assert AuditEvent.objects.count() == audits
