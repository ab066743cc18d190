"""Objects the shared test `world` needs for the people and documents URLs (tests/conftest.py):
a company, a line representative and a document in each jurisdiction."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.files.base import ContentFile

from lotacao.core.sample_ids import sample_cnpj
from lotacao.documents.models import Document
from lotacao.registry import services

TINY_PDF = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"


def extend_world(world: Any) -> None:
    for seed, jurisdiction in enumerate((world.a, world.b), start=1):
        objects = world.objects[jurisdiction.code]
        person = objects["registry.person"]
        company = services.create_company(
            actor=None,
            jurisdiction=jurisdiction,
            cnpj=sample_cnpj(70_000_000 + seed),
            legal_name=f"Associação dos Permissionários de {jurisdiction.name}",
            kind="associacao",
            reason="teste",
        )
        objects["registry.company"] = company
        document = Document(
            jurisdiction=jurisdiction,
            person=person,
            code="test",
            label="Documento de teste",
            content_type="application/pdf",
            size=len(TINY_PDF),
            sha256="0" * 64,
            valid_until=dt.date(2099, 1, 1),
        )
        document.file.save("teste.pdf", ContentFile(TINY_PDF), save=False)
        document.save()
        objects["documents.document"] = document
