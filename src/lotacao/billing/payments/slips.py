"""Payment slips (guias): one charge, or a holder's open charges of a month, as a PDF (WeasyPrint)
with the PIX "copia e cola" code and its QR (segno) where the agency recorded its PIX key.

The slip's code travels in the PIX transaction id and comes back in the bank statement:
`<JJJ><12 digits>` for one charge, `<JJJ>M<8 digits of the holder><aaaamm>` for a month.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string

from lotacao.billing import lawdata
from lotacao.billing.ledger.models import Charge
from lotacao.billing.ledger.services import late_amount
from lotacao.billing.payments import pix
from lotacao.core.law import pack_for
from lotacao.core.pdf import one_line_pt, qr_data_uri, render

# The Pix code's line on the slip's page: A4 less the 18 mm margins and the box's padding.
PIX_WIDTH_MM = 210 - 2 * 18 - 4
MONTH_CODE = re.compile(r"^([A-Z]{3})M(\d{8})(\d{4})(\d{2})$")
CHARGE_CODE = re.compile(r"^([A-Z]{3})(\d{12})$")


@dataclass
class Slip:
    code: str
    holder: Any
    jurisdiction: Any
    charges: list[Charge]
    on: dt.date
    title: str
    lines: list[dict[str, Any]] = field(default_factory=list)
    total: Decimal = Decimal("0.00")
    pix_code: str = ""
    pix_missing: str = ""


def month_code(holder: Any, month: dt.date) -> str:
    return f"{holder.jurisdiction_id[:3].upper()}M{holder.pk:08d}{month:%Y%m}"


def month_charges(holder: Any, month: dt.date) -> list[Charge]:
    """The holder's open charges of a month: its competence, or (without one) its due date."""
    qs = Charge.unscoped.filter(holder=holder, cancelled=False, paid_on__isnull=True)
    return [
        c
        for c in qs.order_by("due_on", "id")
        if (c.competence or c.due_on).replace(day=1) == month.replace(day=1)
    ]


def build(holder: Any, charges: list[Charge], code: str, on: dt.date, title: str) -> Slip:
    slip = Slip(
        code=code, holder=holder, jurisdiction=holder.jurisdiction, charges=charges, on=on, title=title
    )
    for charge in charges:
        extra, why = late_amount(charge, on)
        slip.lines.append({"charge": charge, "late": extra, "late_why": why, "total": charge.amount + extra})
        slip.total += charge.amount + extra
    key = lawdata.pix(holder.jurisdiction_id, on)
    if key is None:
        slip.pix_missing = (
            "O órgão ainda não informou a chave PIX: pague no balcão ou na instituição bancária indicada."
        )
    elif slip.total > 0:
        slip.pix_code = pix.payload(
            key=key["key"],
            beneficiary=key.get("beneficiary", ""),
            city=key.get("city", ""),
            amount=slip.total,
            txid=code,
        )
    return slip


def charge_slip(charge: Charge, on: dt.date) -> Slip:
    return build(charge.holder, [charge], charge.slip_code, on, f"Guia de pagamento nº {charge.slip_code}")


def holder_month_slip(holder: Any, month: dt.date, on: dt.date) -> Slip:
    code = month_code(holder, month)
    return build(holder, month_charges(holder, month), code, on, f"Guia do mês {month:%m/%Y} — nº {code}")


def pdf(slip: Slip) -> bytes:
    html = render_to_string(
        "billing/slip_pdf.html",
        {
            "slip": slip,
            "law": pack_for(slip.jurisdiction.code).law,
            "qr": qr_data_uri(slip.pix_code) if slip.pix_code else "",
            "pix_size": f"{one_line_pt(slip.pix_code, PIX_WIDTH_MM):.1f}pt",
        },
    )
    return render(html, archival=True)
