"""The payment slip of a fine (guia de pagamento) as PDF (WeasyPrint), in the agency's name.

The slip collects the fine's billing Charge: its number is the charge's slip code, its amount the
value in R$ due on the day (a fine in a fiscal unit: the units × the unit's value in force), and
its QR carries the PIX BR Code "copia e cola" (with CRC) that billing builds for that charge —
the same code the bank statement brings back. Without a payable charge the screens offer no slip
(`fine_payment.slip_refusal` says why)."""

from __future__ import annotations

import datetime as dt

from django.template.loader import render_to_string

from lotacao.billing.payments import slips
from lotacao.core.law import pack_for
from lotacao.core.pdf import one_line_pt, qr_data_uri, render
from lotacao.enforcement.models import Fine
from lotacao.enforcement.sanctions.fine_payment import payable_charge

# The Pix code's line on the slip's page: A4 less the 2 cm margins and the box's padding.
PIX_WIDTH_MM = 210 - 2 * 20 - 4


def slip_html(fine: Fine, *, on: dt.date) -> str:
    notice = fine.notice
    charge = payable_charge(fine)
    slip = slips.charge_slip(charge, on) if charge is not None else None
    code = slip.pix_code if slip is not None else ""
    return render_to_string(
        "enforcement/sanctions/fine_slip.html",
        {
            "fine": fine,
            "notice": notice,
            "slip": slip,
            "agency": fine.jurisdiction.official_name,
            "jurisdiction": fine.jurisdiction,
            "law_title": pack_for(fine.jurisdiction_id).law_title,
            "citations": [c for c in dict.fromkeys([*fine.due_citations, *notice.citations]) if c],
            "qr": qr_data_uri(slip.pix_code) if slip is not None and slip.pix_code else "",
            "pix_size": f"{one_line_pt(code, PIX_WIDTH_MM):.1f}pt",
            "today": on,
        },
    )


def slip_pdf(fine: Fine, *, on: dt.date) -> bytes:
    return render(slip_html(fine, on=on), archival=True)
