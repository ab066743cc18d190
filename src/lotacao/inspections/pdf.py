"""PDFs of the inspections app (WeasyPrint): the seal, with a QR code (segno) that opens the
vehicle's public page, and the irregularity notice (Maricá art. 65, § 1º: its required contents)."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from lotacao.core.law import pack_for
from lotacao.core.pdf import qr_data_uri, render


def seal_html(seal: Any, public_url: str) -> str:
    vehicle = seal.vehicle
    return render_to_string(
        "inspections/seal_pdf.html",
        {
            "seal": seal,
            "vehicle": vehicle,
            "jurisdiction": vehicle.jurisdiction,
            "law": pack_for(vehicle.jurisdiction_id).law,
            "qr": qr_data_uri(public_url),
            "public_url": public_url,
        },
    )


def seal_pdf(seal: Any, public_url: str) -> bytes:
    return render(seal_html(seal, public_url), archival=True)


def notice_pdf(notice: Any) -> bytes:
    vehicle = notice.vehicle
    html = render_to_string(
        "inspections/notice_pdf.html",
        {
            "notice": notice,
            "inspection": notice.inspection,
            "vehicle": vehicle,
            "holder": vehicle.holder,
            "jurisdiction": vehicle.jurisdiction,
            "issued_at": timezone.localtime(),
        },
    )
    return render(html)
