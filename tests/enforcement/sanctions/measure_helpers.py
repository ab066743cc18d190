"""Helpers of the measures tests: clandestine and registered notices with the engine's
measures, fines, and the steps of a measure (apply, meet a condition, release)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.enforcement.models import Fine, InfractionNotice, Measure
from lotacao.enforcement.notices import services
from lotacao.enforcement.sanctions import measures as svc
from tests.enforcement.conftest import at

DAY = dt.date(2025, 6, 16)


REASON = "Medida registrada no auto"


def _clandestine(j: Any, day: str = "2025-06-16", plate: str = "KLM2N34") -> InfractionNotice:
    return services.draw_up_notice(
        actor=None,
        jurisdiction=j,
        drawn_up_at=at(day),
        offender_kind="unlicensed",
        plate=plate,
        offender_name="Sem Cadastro",
        place="Rodoviária",
    )


def _row(j: Any, number: str, measures: list[str], **over: Any) -> InfractionNotice:
    data: dict[str, Any] = {
        "jurisdiction": j,
        "number": number,
        "drawn_up_at": at("2025-06-16"),
        "infraction_code": "x",
        "offender_kind": "unlicensed",
        "plate": "PEA1B23",
        "penalty": {"penalties": [], "measures": [{"type": m} for m in measures]},
    }
    data.update(over)
    return InfractionNotice.objects.create(**data)


def _fine(notice: InfractionNotice, due_on: dt.date, status: str = "open") -> Fine:
    return Fine.objects.create(
        jurisdiction_id=notice.jurisdiction_id,
        notice=notice,
        holder=notice.holder,
        payer_name=notice.offender_name or "Infrator",
        amount="100.00",
        due_on=due_on,
        status=status,
    )


def _apply(notice: InfractionNotice, kind: str, **over: Any) -> Measure:
    data: dict[str, Any] = {
        "actor": None,
        "notice": notice,
        "kind": kind,
        "applied_at": notice.drawn_up_at + dt.timedelta(minutes=10),
        "detail": "Pátio municipal",
        "reason": REASON,
    }
    data.update(over)
    return svc.apply_measure(**data)


def _meet(
    measure: Measure, condition: str, on: dt.date = DAY, note: str = "Comprovado", **over: Any
) -> Measure:
    return svc.meet_condition(
        actor=over.pop("actor", None),
        measure=measure,
        condition_id=condition,
        met_on=on,
        note=note,
        reason=over.pop("reason", "Condição cumprida"),
    )


def _release(measure: Measure, on: dt.date = DAY, note: str = "", **over: Any) -> Measure:
    return svc.release_measure(
        actor=over.pop("actor", None), measure=measure, released_on=on, note=note, reason="Liberação"
    )
