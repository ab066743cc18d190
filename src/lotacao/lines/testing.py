"""Objects the shared test `world` needs for the life-of-a-line URLs (tests/conftest.py): in each
jurisdiction a change request of its line with a study file, and a temporary change (created
directly: the URL tests need a row, not the filing's legal checks)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.files.base import ContentFile
from django.utils import timezone

from lotacao.lines.models import ChangeRequest, TemporaryChange

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        line = objects["registry.line"]
        request = ChangeRequest(
            jurisdiction=jurisdiction,
            number=1,
            line=line,
            kind=ChangeRequest.Kind.STOPS,
            origin=ChangeRequest.Origin.AGENCY,
            proposal="Nova parada na praça",
            reasons="Pedido da comunidade",
            study_content_type="application/pdf",
            filed_on=today,
        )
        request.study_file.save("estudo", ContentFile(PDF), save=False)
        request.save()
        objects["lines.changerequest"] = request
        objects["lines.temporarychange"] = TemporaryChange.objects.create(
            jurisdiction=jurisdiction,
            line=line,
            cause=TemporaryChange.Cause.EVENT,
            description="Festa do bairro",
            starts_on=today,
            ends_on=today + dt.timedelta(days=2),
            suspended=True,
            act="Portaria de teste",
        )
