"""Read-side helpers of enforcement: the pack's catalogue for the form, penalties in words."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core.formats import brl
from lotacao.core.law import pack_for

PENALTY_LABELS = {
    "warning": "Advertência",
    "fine": "Multa",
    "suspension": "Suspensão",
    "revocation": "Cassação",
    "course": "Curso obrigatório",
    "intervention": "Intervenção",
}


def catalogue(jurisdiction_code: str) -> list[dict[str, Any]]:
    """The infractions of the pack (code, group, description, citation), for search and choice."""
    pack = pack_for(jurisdiction_code)
    rows = [
        {"code": code, "group": row.group or "", "description": row.description, "citation": row.citation}
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


def describe_penalty(penalty: dict[str, Any] | None) -> str:
    """`Multa de R$ 100,00; Suspensão de 15 dias` — the penalty in Portuguese."""
    parts = []
    for item in (penalty or {}).get("penalties", []):
        label = PENALTY_LABELS.get(item.get("type", ""), item.get("type", ""))
        if item.get("amount") is not None:
            label += f" de {brl(item['amount'])}"
        elif item.get("units") is not None:
            label += f" de {item['units']} {item.get('unit', '')}".rstrip()
        if item.get("days"):
            label += f" de {item['days']} dias"
        if item.get("ban_years"):
            label += f" (impedimento de {item['ban_years']} anos)"
        parts.append(label)
    return "; ".join(parts) or "—"


def law_date(value: dt.datetime | dt.date) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value
