"""The engine's penalty for a notice: the offender's earlier notices in the engine's terms (only
final decisions count as history; annulled ones are said to be annulled), the case sent to the
engine, and its result. Read only."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q

from lotacao.core.law import evaluate_penalty
from lotacao.enforcement.models import AGENT_KINDS, InfractionNotice, OffenderKind
from lotacao.enforcement.reading import infraction_day, local_day
from lotacao.law.results import PenaltyResult

HISTORY_STATUS: dict[str, str] = {
    InfractionNotice.Status.DECIDED_FINAL.value: "final",
    InfractionNotice.Status.ANNULLED.value: "annulled",
}


def offender_history(notice: InfractionNotice) -> list[dict[str, Any]]:
    """Earlier notices of the same offender, in the engine's terms (final / pending / annulled)."""
    qs = InfractionNotice.unscoped.filter(
        jurisdiction_id=notice.jurisdiction_id, drawn_up_at__lt=notice.drawn_up_at
    ).exclude(pk=notice.pk)
    kind = notice.offender_kind
    if kind in AGENT_KINDS and notice.agent_id is not None:
        qs = qs.filter(agent_id=notice.agent_id, offender_kind__in=[k.value for k in AGENT_KINDS])
    elif kind in AGENT_KINDS:
        return []
    elif kind == OffenderKind.UNLICENSED:
        condition = Q()
        if notice.offender_document:
            condition |= Q(offender_document=notice.offender_document)
        if notice.plate:
            condition |= Q(plate=notice.plate)
        if not condition:
            return []
        qs = qs.filter(condition, offender_kind=OffenderKind.UNLICENSED)
    elif notice.holder_id is None:
        return []
    else:
        qs = qs.filter(holder_id=notice.holder_id, offender_kind=kind)
    history = []
    for row in qs.order_by("drawn_up_at").values(
        "pk", "drawn_up_at", "infraction_code", "infraction_group", "status"
    ):
        entry: dict[str, Any] = {
            "date": local_day(notice.jurisdiction, row["drawn_up_at"]).isoformat(),
            "code": row["infraction_code"] or unclassified_code(row["pk"]),
            "status": HISTORY_STATUS.get(row["status"], "pending"),
        }
        if row["infraction_group"]:
            entry["group"] = row["infraction_group"]
        history.append(entry)
    return history


def unclassified_code(pk: int | None) -> str:
    """The engine's code for a notice recorded by group only (a law whose catalogue is left to a
    regulation not in the text, as Cabo's): unique, so two such notices are never taken for the
    same violation."""
    return f"sem-enquadramento-{pk or 'novo'}"


def penalty_case(notice: InfractionNotice, on: dt.date) -> dict[str, Any]:
    infraction: dict[str, Any] = {"code": notice.infraction_code or unclassified_code(notice.pk)}
    if notice.infraction_group:
        infraction["group"] = notice.infraction_group
    return {
        "jurisdiction": notice.jurisdiction_id,
        "kind": "penalty",
        "date": on.isoformat(),
        "offender": notice.offender_kind,
        "infraction": infraction,
        "history": offender_history(notice),
    }


def compute_penalty(notice: InfractionNotice) -> PenaltyResult:
    """The engine's result for the notice (for the preview before confirming, and to store); a
    case the engine refuses is a LawError (a ValidationError with its Portuguese message)."""
    return evaluate_penalty(penalty_case(notice, infraction_day(notice)))


def final_infractions(*, holder_id: int, code: str, on: dt.date) -> int:
    """How many infractions of the holder in the jurisdiction have a final decision by `on` (the
    tenders' criterion of infractions committed; annulled and pending notices do not count)."""
    return InfractionNotice.unscoped.filter(
        jurisdiction_id=code,
        holder_id=holder_id,
        status=InfractionNotice.Status.DECIDED_FINAL,
        drawn_up_at__date__lte=on,
    ).count()
