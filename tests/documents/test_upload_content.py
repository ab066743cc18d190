"""Uploads are what they claim to be (issue 15, item 7): a PDF parses as a PDF, an image's pixel
count is bounded (read from its header, never decompressed)."""

from __future__ import annotations

import datetime as dt
import struct
import time
import zlib
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from lotacao.demo.documents import pdf_bytes, png_bytes
from lotacao.documents import services
from lotacao.documents.models import Document
from tests import clock

pytestmark = pytest.mark.django_db

HTML_AS_PDF = b"%PDF-1.4\n<html><body><script>alert('x')</script></body></html>\n"


def bomb_png(width: int = 30_000, height: int = 30_000) -> bytes:
    """A PNG whose header claims width × height pixels, with one compressed row of data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" + b"\x00" * 3 * width))
        + chunk(b"IEND", b"")
    )


def _upload(world: Any, data: bytes, name: str) -> Document:
    return services.upload_document(
        actor=world.users["atendente.recife"],
        person=world.objects["recife"]["registry.person"],
        code="criminal_record_state",
        file=SimpleUploadedFile(name, data),
        reason="balcão",
        valid_until=clock.today() + dt.timedelta(days=90),
    )


def test_a_pdf_header_followed_by_html_is_refused_and_nothing_is_stored(world: Any) -> None:
    before = Document.objects.count()
    with pytest.raises(ValidationError) as info:
        _upload(world, HTML_AS_PDF, "certidao.pdf")
    assert "começa como PDF mas não é um PDF válido" in info.value.messages[0]
    assert "“certidao.pdf”" in info.value.messages[0]
    assert Document.objects.count() == before


def test_a_real_pdf_and_a_real_png_are_accepted(world: Any) -> None:
    assert _upload(world, pdf_bytes("Certidão"), "certidao.pdf").content_type == "application/pdf"
    assert _upload(world, png_bytes(), "foto.png").content_type == "image/png"


def test_a_30000_by_30000_png_is_refused_without_decompressing_it(world: Any) -> None:
    data = bomb_png()
    assert len(data) < 200_000  # a few kilobytes that would decompress to 2.7 GB
    started = time.perf_counter()
    with pytest.raises(ValidationError) as info:
        _upload(world, data, "foto.png")
    assert time.perf_counter() - started < 5
    assert "30000 × 30000 pixels" in info.value.messages[0] or "pixels demais" in info.value.messages[0]


def test_an_image_just_above_the_configured_bound_is_refused(world: Any, settings: Any) -> None:
    settings.LOTACAO_UPLOAD_MAX_PIXELS = 1_000
    with pytest.raises(ValidationError) as info:
        _upload(world, png_bytes(40, 30), "foto.png")
    assert info.value.messages[0].startswith(
        "A imagem “foto.png” tem 40 × 30 pixels (1200 pixels); o limite é 1000 pixels."
    )
    assert _upload(world, png_bytes(20, 20), "foto.png").content_type == "image/png"


def test_a_truncated_png_is_refused(world: Any) -> None:
    with pytest.raises(ValidationError) as info:
        _upload(world, png_bytes()[:40], "foto.png")
    assert "não é uma imagem válida" in info.value.messages[0]


def test_the_api_refuses_html_behind_a_pdf_header_with_a_422(world: Any, client: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    client.force_login(world.users["atendente.recife"])
    response = client.post(
        f"/api/documents/persons/{person.pk}",
        {"code": "medical_report", "reason": "api", "file": SimpleUploadedFile("laudo.pdf", HTML_AS_PDF)},
    )
    assert response.status_code == 422
    assert "não é um PDF válido" in response.json()["detail"]


def test_a_filing_attachment_of_html_behind_a_pdf_header_is_refused() -> None:
    from lotacao.enforcement.due_process.filings import _check_attachment

    with pytest.raises(ValidationError) as info:
        _check_attachment(SimpleUploadedFile("defesa.pdf", HTML_AS_PDF))
    assert "não é um PDF válido" in info.value.messages[0]
    content_type, size, _digest = _check_attachment(SimpleUploadedFile("defesa.pdf", pdf_bytes("Defesa")))
    assert content_type == "application/pdf" and size > 0
