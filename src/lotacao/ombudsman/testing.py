"""Objects the shared test `world` needs for the ombudsman's URLs (tests/conftest.py): in each
jurisdiction a manifestation about the world's vehicle, with a photo."""

from __future__ import annotations

import io
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from lotacao.ombudsman import services
from lotacao.ombudsman.models import ComplaintPhoto


def _png() -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "blue").save(buffer, "PNG")
    return SimpleUploadedFile("foto.png", buffer.getvalue(), content_type="image/png")


def extend_world(world: Any) -> None:
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        complaint, _ = services.file_complaint(
            jurisdiction=jurisdiction.code,
            kind="reclamacao",
            description="Manifestação de teste do mundo compartilhado.",
            plate=objects["registry.vehicle"].plate,
            photos=[_png()],
        )
        objects["ombudsman.complaint"] = complaint
        objects["ombudsman.complaintphoto"] = ComplaintPhoto.unscoped.get(complaint=complaint)
