"""Helpers of the tests of what final decisions do: a place (jurisdiction, holder, active
permit), a final decision with a penalty, the permit's status, the manager."""

from __future__ import annotations

import datetime as dt
from itertools import count
from typing import Any

from lotacao.core.sample_ids import sample_cpf
from lotacao.enforcement.models import (
    Decision,
    InfractionNotice,
)
from lotacao.permits.models import Permit
from lotacao.registry import services as registry
from lotacao.registry.models import Holder
from tests.clock import today
from tests.enforcement.conftest import at, make_jurisdiction


def on() -> dt.date:
    """The day the decision became final: 20 days ago."""
    return today() - dt.timedelta(days=20)


SEQ = count(1)


SUSPENSION = {"penalties": [{"type": "suspension", "days": 15}]}


REVOCATION = {"penalties": [{"type": "revocation", "ban_years": 5}]}


COURSE = {"penalties": [{"type": "course"}]}


def _permit(j: Any, holder: Any) -> Permit:
    return Permit.objects.create(
        jurisdiction=j,
        number=f"T-{next(SEQ)}",
        holder=holder,
        status=Permit.Status.ACTIVE,
        applied_on=today() - dt.timedelta(days=400),
        granted_on=today() - dt.timedelta(days=400),
        valid_until=today() + dt.timedelta(days=365),
        term_citation="teste",
    )


def _place(world: Any, code: str) -> dict[str, Any]:
    """A jurisdiction with a holder and an active permit (the world's for Recife and Esteio)."""
    if code in world.objects:
        o = world.objects[code]
        return {
            "j": o["registry.holder"].jurisdiction,
            "holder": o["registry.holder"],
            "permit": o["permits.permit"],
        }
    j = make_jurisdiction(code)
    person = registry.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(300_000_000 + next(SEQ)),
        full_name=f"Titular de {j.name}",
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )
    holder = Holder.objects.create(jurisdiction=j, person=person)
    return {"j": j, "holder": holder, "permit": _permit(j, holder)}


def _decision(
    place: dict[str, Any], penalty: dict[str, Any], outcome: str = "upheld", **notice: Any
) -> Decision:
    data: dict[str, Any] = {
        "jurisdiction": place["j"],
        "number": f"AI-T-{next(SEQ)}",
        "drawn_up_at": at((on() - dt.timedelta(days=60)).isoformat()),
        "infraction_code": "teste",
        "offender_kind": "permit_holder",
        "permit": place["permit"],
        "holder": place["holder"],
        "penalty": penalty,
    }
    data.update(notice)
    row = InfractionNotice.objects.create(**data)
    return Decision.objects.create(
        jurisdiction=place["j"],
        notice=row,
        instance="first",
        decided_on=on(),
        outcome=outcome,
        reasons="Fundamentação de teste.",
        penalty=penalty,
        citations=["art. de teste"],
        final=True,
        final_on=on(),
    )


def _status(permit: Permit) -> str:
    permit.refresh_from_db()
    return permit.status


def _gestor(world: Any, code: str = "recife") -> Any:
    return world.users[f"gestor.{code}"]
