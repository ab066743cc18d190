"""PDFs of chartering (WeasyPrint): the CRC certificate and the trip manifest, each with a QR code
(segno) to its public page. The manifest lists the passengers only for those who may see them."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from lotacao.chartering import rules
from lotacao.core.law import pack_for
from lotacao.core.pdf import qr_data_uri, render


def crc_pdf(crc: Any, state: Any, public_url: str) -> bytes:
    html = render_to_string(
        "chartering/crc_pdf.html",
        {
            "crc": crc,
            "party": crc.company.holder.company,
            "state": state,
            "jurisdiction": crc.company.jurisdiction,
            "modalities": rules.modality_names(crc.jurisdiction_id, crc.modalities, crc.issued_on),
            "law": pack_for(crc.jurisdiction_id).law,
            "qr": qr_data_uri(public_url),
            "public_url": public_url,
        },
    )
    return render(html, archival=True)


def manifest_pdf(trip: Any, passengers: list[Any] | None, public_url: str) -> bytes:
    html = render_to_string(
        "chartering/manifest_pdf.html",
        {
            "trip": trip,
            "party": trip.company.holder.company,
            "jurisdiction": trip.company.jurisdiction,
            "modality": rules.modality_label(trip.jurisdiction_id, trip.modality, trip.departs_at.date()),
            "passengers": passengers,
            "qr": qr_data_uri(public_url),
            "public_url": public_url,
        },
    )
    return render(html)
