"""Objects the shared test `world` needs for the inspections URLs (tests/conftest.py): in each
jurisdiction an inspection (failed, with its notice), a passed one with its seal, and a
re-registration campaign row, and a provisional authorization already ended, so that no check
reads it (created directly: Esteio's law has no campaign, the URL test only needs a row of each
model)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.inspections.models import (
    Inspection,
    IrregularityNotice,
    ProvisionalAuthorization,
    ReregistrationCampaign,
    Seal,
)


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        vehicle = objects["registry.vehicle"]
        failed = Inspection.objects.create(
            jurisdiction=jurisdiction,
            vehicle=vehicle,
            scheduled_for=today,
            performed_on=today,
            status=Inspection.Status.FAILED,
            faults=["Falha de teste"],
        )
        notice = IrregularityNotice.objects.create(
            jurisdiction=jurisdiction,
            inspection=failed,
            vehicle=vehicle,
            number=f"NI-T-{jurisdiction.code}",
            issued_on=today,
            faults=["Falha de teste"],
            representation_due=today + dt.timedelta(days=10),
            deadline_citation="teste",
        )
        passed = Inspection.objects.create(
            jurisdiction=jurisdiction,
            vehicle=vehicle,
            scheduled_for=today,
            performed_on=today,
            status=Inspection.Status.PASSED,
        )
        seal = Seal.objects.create(
            jurisdiction=jurisdiction,
            vehicle=vehicle,
            inspection=passed,
            number=f"S-T-{jurisdiction.code}",
            issued_on=today,
            valid_until=today + dt.timedelta(days=364),
        )
        campaign = ReregistrationCampaign.objects.create(
            jurisdiction=jurisdiction, year=2001, starts_on=dt.date(2001, 1, 2), ends_on=dt.date(2001, 2, 28)
        )
        objects["inspections.inspection"] = failed
        objects["inspections.irregularitynotice"] = notice
        objects["inspections.seal"] = seal
        objects["inspections.reregistrationcampaign"] = campaign
        objects["inspections.provisionalauthorization"] = ProvisionalAuthorization.objects.create(
            jurisdiction=jurisdiction,
            vehicle=vehicle,
            tender_act="Certame de teste",
            selected_on=today,
            granted_on=today,
            valid_until=today + dt.timedelta(days=90),
            citation="teste",
            status=ProvisionalAuthorization.Status.REPLACED,
            ended_on=today,
        )
