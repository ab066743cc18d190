"""Reads of the notices wing: the pack's catalogue for the form and the notice as plain data
(the API's body). Penalties in words: `lotacao.enforcement.reading.describe_penalty`."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from lotacao.core.law import pack_for
from lotacao.enforcement.models import InfractionNotice


def catalogue(jurisdiction_code: str) -> list[dict[str, Any]]:
    """The infractions of the pack (code, group, description, citation), for search and choice."""
    pack = pack_for(jurisdiction_code)
    rows = [
        {
            "code": code,
            "group": row.group or "",
            "description": row.description,
            "citation": row.citation,
            "cite": row.cite,
        }
        for code, row in pack.infractions.items()
    ]
    return rows


def groups(jurisdiction_code: str) -> list[dict[str, str]]:
    pack = pack_for(jurisdiction_code)
    if not pack.accepts_group_only:
        return []
    return [{"id": gid, "label": group.label} for gid, group in pack.groups.items()]


def accepts_group_only(jurisdiction_code: str) -> bool:
    return bool(pack_for(jurisdiction_code).accepts_group_only)


def notice_data(notice: InfractionNotice) -> dict[str, Any]:
    """The notice as plain JSON data (the API's response body, replayed as is on a retry)."""
    return {
        "id": notice.pk,
        "number": notice.number,
        "jurisdiction": notice.jurisdiction_id,
        "status": notice.status,
        "drawn_up_at": notice.drawn_up_at.astimezone(ZoneInfo(notice.jurisdiction.timezone)).isoformat(),
        "place": notice.place,
        "infraction_code": notice.infraction_code,
        "infraction_group": notice.infraction_group,
        "offender_kind": notice.offender_kind,
        "permit_id": notice.permit_id,
        "holder_id": notice.holder_id,
        "agent_id": notice.agent_id,
        "vehicle_id": notice.vehicle_id,
        "line_id": notice.line_id,
        "plate": notice.plate,
        "penalty": notice.penalty,
        "group": notice.engine_result.get("group"),
        "repeat": notice.engine_result.get("repeat"),
        "points": notice.engine_result.get("points"),
        "citations": notice.citations,
        "explanation": notice.explanation,
        "law": notice.law,
        "missing_parameters": notice.missing_parameters,
        "charged_to_holder": notice.charged_to_holder,
    }
