"""The term of permit (termo de permissão) as PDF (WeasyPrint), with a QR code (segno) that opens
the public page of the vehicle's plate."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.template.loader import render_to_string

from lotacao.core.law import pack_for
from lotacao.core.pdf import qr_data_uri, render
from lotacao.permits.models import Permit


def term_pdf(permit: Permit, *, public_url: str, on: dt.date, uncompressed: bool = False) -> bytes:
    pack = pack_for(permit.jurisdiction_id)
    eligibility: dict[str, Any] = permit.eligibility or {}
    citations = [permit.term_citation, *eligibility.get("quota_citations", [])]
    html = render_to_string(
        "permits/term.html",
        {
            "permit": permit,
            "status": permit.effective_status_label(on),
            "agency": permit.jurisdiction.official_name,
            "jurisdiction": permit.jurisdiction,
            "law_title": pack.law_title,
            "citations": [c for c in dict.fromkeys(citations) if c],
            "agents": [a for a in permit.agents.all() if a.is_current(on)],
            "public_url": public_url,
            "qr": qr_data_uri(public_url),
            "today": on,
        },
    )
    return render(html, archival=True, base_url=public_url, uncompressed=uncompressed)
