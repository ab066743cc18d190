"""Helpers of the due process tests: a notice against the world's holder (served or not), a moment
on a day, members named to a body."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.enforcement.due_process import judging
from lotacao.enforcement.models import (
    BodyMember,
    InfractionNotice,
    JudgingBody,
)
from tests.enforcement.conftest import at

FINE = {"penalties": [{"type": "fine", "amount": "100.00"}], "measures": []}


def _notice(
    j: Any, *, served: dt.date | None, day: str, penalty: dict[str, Any] | None = None, **over: Any
) -> Any:
    data: dict[str, Any] = {
        "jurisdiction": j,
        "number": f"AI-P-{j.code}-{InfractionNotice.unscoped.count() + 1}",
        "drawn_up_at": at(day),
        "infraction_code": "teste",
        "offender_kind": "permit_holder",
        "penalty": penalty if penalty is not None else FINE,
        "served_on": served,
        "status": InfractionNotice.Status.NOTIFIED if served else InfractionNotice.Status.DRAWN_UP,
    }
    data.update(over)
    return InfractionNotice.objects.create(**data)


def _moment(day: dt.date, hour: int = 11) -> dt.datetime:
    return at(day.isoformat(), hour)


def _members(body: JudgingBody, names: list[str], on: dt.date) -> list[BodyMember]:
    out = []
    for i, name in enumerate(names):
        role = BodyMember.Role.PRESIDENT if i == 0 else BodyMember.Role.MEMBER
        out.append(
            judging.add_member(actor=None, body=body, name=name, role=role, starts_on=on, reason="Portaria 1")
        )
    return out
