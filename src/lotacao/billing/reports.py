"""Funds: the ledger per earmarked fund (Recife art. 46 and art. 18, p.ú.; Cabo's RST account;
Maricá's TCRPVM, arts. 44, § 2º and 51, § 2º; Pernambuco's FUSP) — monthly revenue and
delinquency per fund, as a chart with its table, and as CSV, XLSX or ODS (lotacao.core.exports)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Sum
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.views import View

from lotacao.audit import exports as audited_exports
from lotacao.billing import lawdata, permissions
from lotacao.billing.ledger.models import Charge
from lotacao.billing.viewkit import jurisdictions, today
from lotacao.core import exports
from lotacao.core.charts import ISSUED, OVERDUE, PAID
from lotacao.core.exports import Column
from lotacao.core.formats import brl
from lotacao.core.models import Jurisdiction

COLUMNS = [
    Column("Jurisdição", lambda r: r["jurisdiction"]),
    Column("Destinação", lambda r: r["fund"]),
    Column("Mês", lambda r: r["month"]),
    Column("Emitido (R$)", lambda r: r["issued"]),
    Column("Arrecadado (R$)", lambda r: r["paid"]),
    Column("Inadimplente (R$)", lambda r: r["overdue"]),
]


def fund_rows(codes: list[str], on: dt.date) -> list[dict[str, Any]]:
    """Per jurisdiction, fund and month of due date: issued, paid and overdue unpaid (in BRL)."""
    data: dict[tuple[str, str, str], dict[str, Decimal]] = defaultdict(
        lambda: {"issued": Decimal("0"), "paid": Decimal("0"), "overdue": Decimal("0")}
    )
    base = Charge.objects.filter(jurisdiction_id__in=codes, cancelled=False)
    for row in base.values("jurisdiction_id", "fund", "due_on__year", "due_on__month").annotate(
        total=Sum("amount")
    ):
        key = (row["jurisdiction_id"], row["fund"], f"{row['due_on__month']:02d}/{row['due_on__year']}")
        data[key]["issued"] += row["total"]
    paid = base.filter(paid_on__isnull=False, paid_on__lte=on)
    for row in paid.values("jurisdiction_id", "fund", "due_on__year", "due_on__month").annotate(
        total=Sum("amount")
    ):
        key = (row["jurisdiction_id"], row["fund"], f"{row['due_on__month']:02d}/{row['due_on__year']}")
        data[key]["paid"] += row["total"]
    late = base.filter(paid_on__isnull=True, due_on__lt=on, contested=False)
    for row in late.values("jurisdiction_id", "fund", "due_on__year", "due_on__month").annotate(
        total=Sum("amount")
    ):
        key = (row["jurisdiction_id"], row["fund"], f"{row['due_on__month']:02d}/{row['due_on__year']}")
        data[key]["overdue"] += row["total"]
    labels = {code: lawdata.fund_labels(code, on) for code in codes}
    names = dict(Jurisdiction.objects.filter(code__in=codes).values_list("code", "name"))
    rows = []
    for (code, fund, month), values in sorted(
        data.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2][3:], kv[0][2][:2])
    ):
        rows.append(
            {
                "jurisdiction": names.get(code, code),
                "fund": labels[code].get(fund, "Sem destinação vinculada na lei")
                if fund
                else "Sem destinação vinculada na lei",
                "month": month,
                **values,
            }
        )
    return rows


def _bars(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Bar widths (0–300 px) of the chart: issued, paid and overdue of each row."""
    top = max((r["issued"] for r in rows), default=Decimal("0")) or Decimal("1")
    return [
        {
            **r,
            "label": f"{r['fund']} — {r['month']}",
            "w_issued": int(300 * r["issued"] / top),
            "w_paid": int(300 * r["paid"] / top),
            "w_overdue": int(300 * r["overdue"] / top),
            "t_issued": brl(r["issued"]),
            "t_paid": brl(r["paid"]),
            "t_overdue": brl(r["overdue"]),
        }
        for r in rows
    ]


class FundReport(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponseBase:
        codes = [c for c, _ in jurisdictions(request, permissions.OFFICE)]
        rows = fund_rows(codes, today())
        # totals per fund, no personal data: not audited
        file = audited_exports.answer(
            request, title="Fundos", columns=COLUMNS, objects=rows, stem="fundos", personal=False
        )
        if file is not None:
            return file
        cites = {code: lawdata.fund_citation(code, today()) for code in codes}
        return render(
            request,
            "billing/funds.html",
            {
                "title": "Fundos e arrecadação",
                "rows": _bars(rows),
                "cites": [c for c in cites.values() if c],
                "export_links": exports.links(request),
                "colours": {"issued": ISSUED, "paid": PAID, "overdue": OVERDUE},
            },
        )
