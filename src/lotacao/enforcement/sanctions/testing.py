"""Rows of the effects screens for the shared test `world` (called by enforcement/testing.py):
one revocation process, suspension follow-up and intervention per jurisdiction, against the
world's permit and notice (created directly: the URL tests need a row, not the services' checks)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.enforcement.models import Intervention, RevocationProcess, SuspensionFollowUp


def effect_objects(jurisdiction: Any, objects: dict[str, Any]) -> dict[str, Any]:
    today = timezone.localdate()
    permit = objects["permits.permit"]
    notice = objects["enforcement.infractionnotice"]
    return {
        "enforcement.revocationprocess": RevocationProcess.objects.create(
            jurisdiction=jurisdiction,
            notice=notice,
            permit=permit,
            opened_on=today,
            cause="Teste",
            decided_by_label="Autoridade de teste",
        ),
        "enforcement.suspensionfollowup": SuspensionFollowUp.objects.create(
            jurisdiction=jurisdiction,
            notice=notice,
            permit=permit,
            starts_on=today - dt.timedelta(days=20),
            ends_on=today - dt.timedelta(days=5),
            requires_proof=True,
            status=SuspensionFollowUp.Status.AWAITING_PROOF,
        ),
        "enforcement.intervention": Intervention.objects.create(
            jurisdiction=jurisdiction,
            permit=permit,
            decree="Decreto de teste",
            decreed_on=today,
            interventor="Interventor de teste",
            term_until=today + dt.timedelta(days=90),
            goals="Teste",
            limits="Teste",
            procedure_due=today + dt.timedelta(days=30),
        ),
    }
