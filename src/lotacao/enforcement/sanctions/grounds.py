"""Grounds of revocation the agency establishes (Maricá art. 58, III, V–VII; art. 55, § 1º).

Where the pack lists the grounds of revocation (`permit.revocation_grounds`), each says who
establishes it: the engine (points, recidivism, interruption beyond the authorized days…) or the
agency, which records the fact and its proof and opens the revocation process the law's authority
decides (`followups.open_revocation_process`). A ground the engine establishes is not opened by
hand, and a law without the list has no such page.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.core.formats import lower_first
from lotacao.core.law import entry
from lotacao.enforcement.models import RevocationProcess
from lotacao.enforcement.sanctions.followups import open_revocation_process
from lotacao.permits.models import Permit

PARAMETER = "permit.revocation_grounds"


def _cites(ground: dict[str, Any]) -> list[str]:
    cite = ground.get("cite") or []
    return [str(c) for c in (cite if isinstance(cite, list) else [cite])]


def agency_grounds(code: str, on: dt.date) -> list[dict[str, Any]]:
    """The grounds the agency establishes, in the law's order (empty where the law has no list)."""
    found = entry(code, PARAMETER, on)
    if found is None or found.status != "value":
        return []
    return [{**g, "citation": "; ".join(_cites(g))} for g in found.value if g.get("by") == "agency"]


def _ground(code: str, ground_id: str, on: dt.date) -> dict[str, Any]:
    found = entry(code, PARAMETER, on)
    if found is None or found.status != "value":
        raise ValidationError("A lei desta jurisdição não lista hipóteses de cassação a apurar pelo órgão.")
    for ground in found.value:
        if ground.get("id") == ground_id:
            if ground.get("by") != "agency":
                raise ValidationError(
                    f"“{ground['label']}” é apurada pelo sistema ({', '.join(_cites(ground))}), "
                    "não por registro do órgão."
                )
            return dict(ground)
    raise ValidationError("Escolha uma das hipóteses de cassação previstas na lei.")


@transaction.atomic
def open_on_ground(
    *, actor: Any, permit: Permit, ground_id: str, facts: str, on: dt.date
) -> RevocationProcess:
    """Record the fact the agency established and open the revocation process on that ground."""
    ground = _ground(permit.jurisdiction_id, ground_id, on)
    if not (facts or "").strip():
        raise ValidationError("Descreva o fato constatado e a prova (documento, sentença, auto).")
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    if permit.status not in Permit.LIVE:
        raise ValidationError(
            f"A permissão está {lower_first(permit.get_status_display())}: não há o que cassar."
        )
    if RevocationProcess.objects.filter(permit=permit, status=RevocationProcess.Status.OPEN).exists():
        raise ValidationError("Já há processo de cassação aberto para esta permissão.")
    cause = f"{ground['label']}. Fato constatado: {facts.strip()}"
    return open_revocation_process(
        actor=actor, notice=None, permit=permit, on=on, cause=cause, citations=_cites(ground)
    )
