"""Funds: the ledger per earmarked fund (Recife art. 46 and art. 18, p.ú.; Cabo's RST account;
Maricá's TCRPVM, arts. 44, § 2º and 51, § 2º; Pernambuco's FUSP) — monthly revenue and
delinquency per fund, as a chart with its table, and as CSV or XLSX."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import View

from lotacao.billing import lawdata, permissions
from lotacao.billing.ledger.models import Charge
from lotacao.billing.viewkit import jurisdictions, today
from lotacao.core.formats import brl
from lotacao.core.models import Jurisdiction

HEADERS = ["Jurisdição", "Destinação", "Mês", "Emitido", "Arrecadado", "Inadimplente"]


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


def _csv(rows: list[dict[str, Any]]) -> HttpResponse:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    writer.writerow(HEADERS)
    for r in rows:
        writer.writerow(
            [
                r["jurisdiction"],
                r["fund"],
                r["month"],
                *(f"{r[k]:.2f}".replace(".", ",") for k in ("issued", "paid", "overdue")),
            ]
        )
    response = HttpResponse(out.getvalue().encode("utf-8-sig"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="fundos.csv"'
    return response


def _xlsx(rows: list[dict[str, Any]]) -> HttpResponse:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Fundos"
    sheet.append(HEADERS)
    for r in rows:
        sheet.append([r["jurisdiction"], r["fund"], r["month"], r["issued"], r["paid"], r["overdue"]])
    for row in sheet.iter_rows(min_row=2, min_col=4, max_col=6):
        for cell in row:
            cell.number_format = '"R$" #,##0.00'
    out = io.BytesIO()
    book.save(out)
    response = HttpResponse(
        out.getvalue(), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    response["Content-Disposition"] = 'attachment; filename="fundos.xlsx"'
    return response


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
    def get(self, request: HttpRequest) -> HttpResponse:
        codes = [c for c, _ in jurisdictions(request, permissions.OFFICE)]
        rows = fund_rows(codes, today())
        fmt = request.GET.get("formato")
        if fmt == "csv":
            return _csv(rows)
        if fmt == "xlsx":
            return _xlsx(rows)
        cites = {code: lawdata.fund_citation(code, today()) for code in codes}
        return render(
            request,
            "billing/funds.html",
            {
                "title": "Fundos e arrecadação",
                "rows": _bars(rows),
                "cites": [c for c in cites.values() if c],
            },
        )
