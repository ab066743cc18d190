"""Rows of the sanctions screens for the shared test `world` (called by enforcement/testing.py),
against the world's permit and notice (created directly: the URL tests need a row, not the
services' checks): the notice's fine (its page and slip), a measure (already released, so the
world's vehicle stays authorized in the public plate check), and one revocation process,
suspension follow-up and intervention per jurisdiction."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.enforcement.models import Fine, Intervention, Measure, RevocationProcess, SuspensionFollowUp


def fine_and_measure(jurisdiction: Any, objects: dict[str, Any]) -> None:
    notice = objects["enforcement.infractionnotice"]
    if "enforcement.fine" not in objects:
        objects["enforcement.fine"] = Fine.objects.create(
            jurisdiction=jurisdiction,
            notice=notice,
            holder=objects["registry.holder"],
            payer_name=str(objects["registry.holder"]),
            amount="100.00",
            due_on=timezone.localdate() + dt.timedelta(days=10),
            status="open",
            slip_count=1,
        )
    if "enforcement.measure" not in objects:
        objects["enforcement.measure"] = Measure.objects.create(
            jurisdiction=jurisdiction,
            notice=notice,
            kind="document_seizure",
            applied_at=timezone.now(),
            status="released",
            released_on=timezone.localdate(),
        )


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
