"""Demo documents (`manage.py load_demo`): for each jurisdiction's demo persons, the documents the
law lists for a permit holder — most accepted, some expiring within 30 days, one refused and one
waiting for review. Files are small PDFs and PNGs generated here. Idempotent."""

from __future__ import annotations

import datetime as dt
import struct
import zlib
from typing import Any

from django.core.files.base import ContentFile

from lotacao.core.models import Jurisdiction
from lotacao.documents import services
from lotacao.documents.models import Document
from lotacao.documents.rules import document_types
from lotacao.registry.models import Person

REASON = "Dados de demonstração"


def pdf_bytes(title: str) -> bytes:
    """A one-page PDF with a line of text (valid structure and cross-reference table)."""
    text = title.encode("latin-1", "replace").replace(b"(", b"[").replace(b")", b"]")
    stream = b"BT /F1 14 Tf 72 760 Td (" + text + b") Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def png_bytes(width: int = 8, height: int = 8, rgb: tuple[int, int, int] = (11, 110, 79)) -> bytes:
    """A small solid-colour PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def load(today: dt.date, summary: Any) -> None:
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        types = document_types(jurisdiction.code, today, with_cnh=False)  # the demo's CNHs stay untyped
        if not types:
            continue  # the law does not list documents (undefined): nothing to demonstrate
        persons = list(Person.objects.filter(jurisdiction=jurisdiction, holder_records__isnull=False)[:3])
        for n, person in enumerate(persons):
            _person(person, n, types, today, summary)


def _person(person: Person, n: int, types: dict[str, Any], today: dt.date, summary: Any) -> None:
    existing = set(Document.objects.filter(person=person).values_list("code", flat=True))
    for index, (code, requirement) in enumerate(types.items()):
        if code in existing:
            summary.existing += 1
            continue
        issued = today - dt.timedelta(days=60 + index)
        valid_until = None
        if requirement.expires:
            # the first person's first expiring document falls due within 30 days
            valid_until = today + dt.timedelta(days=12 + index) if n == 0 else today + dt.timedelta(days=300)
        content = pdf_bytes(f"{requirement.label} - {person.full_name}") if index % 2 == 0 else png_bytes()
        name = "documento.pdf" if index % 2 == 0 else "documento.png"
        document = services.upload_document(
            actor=None,
            person=person,
            code=code,
            file=ContentFile(content, name=name),
            issued_on=issued,
            valid_until=valid_until,
            reason=REASON,
            on=today,
        )
        summary.created += 1
        if n == 1 and index == 0:
            continue  # one document waiting for review
        refused = n == 2 and index == 0
        services.review_document(
            actor=None,
            document=document,
            accepted=not refused,
            reason="Documento ilegível: digitalize novamente." if refused else "",
        )
