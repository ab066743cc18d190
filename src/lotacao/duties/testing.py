"""Objects the shared test `world` needs for the duties URLs (tests/conftest.py): in each
jurisdiction an incident report with a photo, an authorization and a delivered periodic report
(created directly: the URL test only needs a row of each model)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.files.base import ContentFile
from django.utils import timezone

from lotacao.duties.models import Authorization, IncidentPhoto, IncidentReport, PeriodicReport


def extend_world(world: Any) -> None:
    now = timezone.now()
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        holder, vehicle = objects["registry.holder"], objects["registry.vehicle"]
        report = IncidentReport.objects.create(
            jurisdiction=jurisdiction,
            protocol=f"OC-T-{jurisdiction.code}",
            holder=holder,
            vehicle=vehicle,
            kind=IncidentReport.Kind.ACCIDENT,
            occurred_at=now,
            reported_at=now,
            description="Ocorrência de teste",
        )
        photo = IncidentPhoto(
            jurisdiction=jurisdiction, report=report, content_type="image/jpeg", size=4, sha256="0"
        )
        photo.file.save("foto.jpg", ContentFile(b"\xff\xd8\xff\xe0"), save=True)
        authorization = Authorization.objects.create(
            jurisdiction=jurisdiction,
            holder=holder,
            vehicle=vehicle,
            kind=Authorization.Kind.OTHER_USE,
            starts_on=today,
            ends_on=today,
            purpose="Pedido de teste",
            citation="teste",
        )
        delivered = PeriodicReport(
            jurisdiction=jurisdiction,
            holder=holder,
            report="operational_data",
            period_start=dt.date(2001, 1, 1),
            period_end=dt.date(2001, 1, 31),
            due_on=dt.date(2001, 2, 10),
            delivered_at=now,
            content_type="application/pdf",
            citation="teste",
        )
        delivered.file.save("relatorio.pdf", ContentFile(b"%PDF-1.4\n"), save=True)
        objects["duties.incidentreport"] = report
        objects["duties.incidentphoto"] = photo
        objects["duties.authorization"] = authorization
        objects["duties.periodicreport"] = delivered
