"""The payment slip of a fine (guia de pagamento) as PDF (WeasyPrint), in the agency's name."""

from __future__ import annotations

import datetime as dt

from django.template.loader import render_to_string
from weasyprint import HTML

from lotacao.core.formats import br_date, brl
from lotacao.core.law import pack_for
from lotacao.core.pdf import qr_data_uri
from lotacao.enforcement.models import Fine


def slip_reference(fine: Fine) -> str:
    """The text the slip's QR code carries (notice, slip number, due date, amount)."""
    amount = brl(fine.amount) if fine.amount is not None else f"{fine.units:g} {fine.unit}"
    return (
        f"{fine.jurisdiction.official_name} | Multa do auto {fine.notice.number} | guia {fine.slip_count} | "
        f"vencimento {br_date(fine.due_on)} | {amount}"
    )


def slip_html(fine: Fine, *, on: dt.date) -> str:
    notice = fine.notice
    return render_to_string(
        "enforcement/sanctions/fine_slip.html",
        {
            "fine": fine,
            "notice": notice,
            "agency": fine.jurisdiction.official_name,
            "jurisdiction": fine.jurisdiction,
            "law_title": pack_for(fine.jurisdiction_id).law_title,
            "citations": [c for c in dict.fromkeys([*fine.due_citations, *notice.citations]) if c],
            "qr": qr_data_uri(slip_reference(fine)),
            "today": on,
        },
    )


def slip_pdf(fine: Fine, *, on: dt.date) -> bytes:
    return bytes(HTML(string=slip_html(fine, on=on)).write_pdf())
