"""Helpers of the fines tests: notices with a penalty, served, with filings and decisions;
Recife's defense deadline; Esteio's fiscal unit (UFRM) values."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core.law import evaluate_case
from lotacao.enforcement.models import Decision, Filing, Fine, InfractionNotice
from lotacao.enforcement.sanctions import fines
from lotacao.web.agency_values import set_agency_value
from tests.enforcement.conftest import at

BRL = {"penalties": [{"type": "fine", "amount": "100.00"}]}


UFRM = {"penalties": [{"type": "fine", "units": "2000", "unit": "UFRM"}]}


def _notice(j: Any, penalty: dict[str, Any], day: str = "2025-05-05", **over: Any) -> InfractionNotice:
    data: dict[str, Any] = {
        "jurisdiction": j,
        "number": f"AI-F-{j.code}-{InfractionNotice.unscoped.count() + 1}",
        "drawn_up_at": at(day),
        "infraction_code": "teste",
        "offender_kind": "permit_holder",
        "penalty": penalty,
    }
    data.update(over)
    return InfractionNotice.objects.create(**data)


def _serve(notice: InfractionNotice, day: dt.date) -> InfractionNotice:
    InfractionNotice.unscoped.filter(pk=notice.pk).update(served_on=day, status="notified")
    notice.refresh_from_db()
    return notice


def _filing(notice: InfractionNotice, instance: str, day: str, **over: Any) -> Filing:
    data: dict[str, Any] = {
        "jurisdiction_id": notice.jurisdiction_id,
        "notice": notice,
        "instance": instance,
        "instance_name": "Defesa" if instance == "defense" else "Recurso",
        "receipt": f"P-{Filing.unscoped.count() + 1}",
        "filed_at": at(day),
        "channel": "counter",
        "text": "Razões",
    }
    data.update(over)
    return Filing.objects.create(**data)


def _decision(notice: InfractionNotice, instance: str, day: str, outcome: str, **over: Any) -> Decision:
    data: dict[str, Any] = {
        "jurisdiction_id": notice.jurisdiction_id,
        "notice": notice,
        "instance": instance,
        "decided_on": dt.date.fromisoformat(day),
        "outcome": outcome,
        "reasons": "Fundamentação",
    }
    data.update(over)
    return Decision.objects.create(**data)


def _defense_end(code: str, served: dt.date, deadline: str = "defense") -> dt.date:
    result = evaluate_case(
        {"jurisdiction": code, "kind": "deadline", "deadline": deadline, "date": served.isoformat()}
    )
    return dt.date.fromisoformat(result["due"])


def _ufrm(world: Any) -> None:
    for day, amount in (("2025-01-01", "4.00"), ("2025-07-01", "4.50")):
        set_agency_value(
            actor=world.users["gestor.esteio"],
            jurisdiction=world.b,
            parameter="fiscal_unit.UFRM",
            valid_from=dt.date.fromisoformat(day),
            value=amount,
            cite=f"Decreto da UFRM de {day}",
            reason="valor da UFRM",
        )


def _esteio_fine(world: Any, due: dt.date, day: str = "2025-05-05", served: dt.date | None = None) -> Fine:
    notice = _notice(world.b, UFRM, day=day, holder=world.objects["esteio"]["registry.holder"])
    if served:
        notice = _serve(notice, served)
    fine = fines.issue_fine(
        actor=None, notice=notice, reason="x", due_on=due, today=dt.date.fromisoformat(day)
    )
    assert fine is not None
    return fine
