"""The manager's dashboard: what the agency would rather look at than read, per jurisdiction —
notices per month by group, fines issued and paid, permits by status, documents and seals about
to expire, the work queue by age and billing's revenue and delinquency per earmarked fund. Every
figure is counted in the database (`web.charts` draws them; each has its table)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from urllib.parse import urlencode

from django.db.models import Count, Sum
from django.urls import reverse

from lotacao.billing.reports import fund_rows
from lotacao.core.vehicle_verdict import has_permits
from lotacao.web.charts import Chart, Row, layout

MONTHS = 6


def months(today: dt.date, count: int = MONTHS) -> list[tuple[int, int]]:
    """The last `count` months, oldest first, ending with today's."""
    year, month = today.year, today.month
    found = []
    for _ in range(count):
        found.append((year, month))
        month -= 1
        if month == 0:
            year, month = year - 1, 12
    return list(reversed(found))


def _month_label(year: int, month: int) -> str:
    return f"{month:02d}/{year}"


def group_label(group: str) -> str:
    """An infraction group as people read it ("A" → "Grupo A"; none → "Sem grupo")."""
    if not group:
        return "Sem grupo"
    if group.lower().startswith(("grupo", "natureza")):
        return group
    return f"Grupo {group.upper() if len(group) <= 3 else group}"


def notices_by_group(code: str, today: dt.date) -> Chart:
    from lotacao.enforcement.models import InfractionNotice

    span = months(today)
    start = dt.date(*span[0], 1)
    counts: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    groups: set[str] = set()
    rows = (
        InfractionNotice.objects.filter(jurisdiction_id=code, drawn_up_at__date__gte=start)
        .values("drawn_up_at__year", "drawn_up_at__month", "infraction_group")
        .annotate(n=Count("id"))
    )
    for row in rows:
        group = group_label(row["infraction_group"] or "")
        groups.add(group)
        counts[(row["drawn_up_at__year"], row["drawn_up_at__month"])][group] = row["n"]
    series = sorted(groups) or ["Autos"]
    return layout(
        Chart(
            key="autos",
            title="Autos de infração por mês e grupo",
            series=series,
            rows=[Row(_month_label(*ym), [counts[ym].get(group, 0) for group in series]) for ym in span],
            empty="Nenhum auto de infração nos últimos seis meses.",
            link=(reverse("enforcement:notices"), "Ver os autos de infração"),
        )
    )


def fines(code: str, today: dt.date) -> Chart:
    from lotacao.enforcement.models import Fine

    span = months(today)
    start = dt.date(*span[0], 1)
    issued: dict[tuple[int, int], Decimal] = defaultdict(Decimal)
    paid: dict[tuple[int, int], Decimal] = defaultdict(Decimal)
    base = Fine.objects.filter(jurisdiction_id=code).exclude(status="cancelled")
    for row in (
        base.filter(created_at__date__gte=start, amount__isnull=False)
        .values("created_at__year", "created_at__month")
        .annotate(total=Sum("amount"))
    ):
        issued[(row["created_at__year"], row["created_at__month"])] += row["total"] or 0
    for row in (
        base.filter(paid_on__gte=start)
        .values("paid_on__year", "paid_on__month")
        .annotate(total=Sum("paid_amount"))
    ):
        paid[(row["paid_on__year"], row["paid_on__month"])] += row["total"] or 0
    return layout(
        Chart(
            key="multas",
            title="Multas emitidas e pagas por mês (R$)",
            series=["Emitidas", "Pagas"],
            rows=[Row(_month_label(*ym), [issued[ym], paid[ym]]) for ym in span],
            money=True,
            empty="Nenhuma multa emitida ou paga nos últimos seis meses.",
            link=(reverse("enforcement:notices"), "Ver os autos de infração"),
        )
    )


def permits_by_status(code: str, today: dt.date) -> Chart | None:
    if not has_permits(code):
        return None
    from lotacao.permits.models import Permit

    found = dict(
        Permit.objects.filter(jurisdiction_id=code)
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    rows = [
        Row(label, [found.get(value, 0)], url=reverse("permits:list") + "?" + urlencode({"situacao": value}))
        for value, label in Permit.Status.choices
        if found.get(value)
    ]
    return layout(
        Chart(
            key="permissoes",
            title="Permissões por situação",
            series=["Permissões"],
            rows=rows,
            empty="Nenhuma permissão cadastrada.",
            row_header="Situação",
            link=(reverse("permits:list"), "Ver as permissões"),
        )
    )


BUCKETS = ((0, 30, "Em até 30 dias"), (31, 60, "De 31 a 60 dias"), (61, 90, "De 61 a 90 dias"))


def expiring(code: str, today: dt.date) -> Chart:
    """Accepted documents and inspection seals whose validity ends in the next 90 days; a seal
    already replaced by a later one of the same vehicle does not count."""
    from lotacao.documents.models import Document
    from lotacao.inspections.models import Seal

    until = today + dt.timedelta(days=90)
    documents = Document.objects.filter(
        jurisdiction_id=code, status="aceito", valid_until__gte=today, valid_until__lte=until
    ).values_list("valid_until", flat=True)
    latest: dict[int, dt.date] = {}
    for vehicle, valid_until in Seal.objects.filter(jurisdiction_id=code, valid_until__gte=today).values_list(
        "vehicle_id", "valid_until"
    ):
        latest[vehicle] = max(valid_until, latest.get(vehicle, valid_until))
    seals = [d for d in latest.values() if d <= until]

    def bucket(days: list[dt.date], low: int, high: int) -> int:
        return sum(1 for d in days if low <= (d - today).days <= high)

    doc_days = list(documents)
    return layout(
        Chart(
            key="vencimentos",
            title="Documentos e selos de vistoria a vencer",
            series=["Documentos", "Selos de vistoria"],
            rows=[
                Row(label, [bucket(doc_days, low, high), bucket(seals, low, high)])
                for low, high, label in BUCKETS
            ],
            empty="Nenhum documento ou selo vence nos próximos 90 dias.",
            row_header="Vencimento",
            link=(reverse("workqueue:queue"), "Ver a fila de trabalho"),
        )
    )


AGES = (
    (0, 7, "Até 7 dias"),
    (8, 30, "De 8 a 30 dias"),
    (31, 90, "De 31 a 90 dias"),
    (91, 100_000, "Mais de 90 dias"),
)


def queue_by_age(code: str, today: dt.date) -> Chart:
    from lotacao.workqueue.models import WorkItem

    seen = list(
        WorkItem.objects.filter(jurisdiction_id=code, status="aberto").values_list("first_seen", flat=True)
    )
    return layout(
        Chart(
            key="fila",
            title="Fila de trabalho por tempo de espera",
            series=["Itens em aberto"],
            rows=[
                Row(label, [sum(1 for d in seen if low <= (today - d).days <= high)])
                for low, high, label in AGES
            ],
            empty="A fila de trabalho está vazia.",
            row_header="Na fila há",
            link=(reverse("workqueue:queue"), "Ver a fila de trabalho"),
        )
    )


def funds(code: str, today: dt.date) -> Chart:
    """Billing's revenue (paid) and delinquency (overdue unpaid) per earmarked fund and month of
    due date, over the last months (billing.reports.fund_rows, the same figures as /cobranca/fundos/)."""
    wanted = {_month_label(*ym) for ym in months(today)}
    rows = [r for r in fund_rows([code], today) if r["month"] in wanted]
    return layout(
        Chart(
            key="fundos",
            title="Arrecadação e inadimplência por destinação (R$)",
            series=["Arrecadado", "Inadimplente"],
            rows=[Row(f"{r['fund']} — {r['month']}", [r["paid"], r["overdue"]]) for r in rows],
            money=True,
            empty="Nenhuma cobrança vencida nos últimos seis meses.",
            row_header="Destinação e mês de vencimento",
            link=(reverse("billing:funds"), "Ver o relatório de fundos (CSV e XLSX)"),
        )
    )


# The charts read months of notices, fines, permits, documents, seals and charges: on SQLite each
# date extraction is a Python function called per row, the ORM compiles eleven aggregate queries
# and the template draws six SVGs per request. Every change to those records leaves an audit
# event, so the drawn charts are kept in the cache under the audit log's last id (one primary-key
# lookup, `audit_stamp`): any write anywhere gives a new key, and nothing stale is shown; the time
# limit only bounds what a rare unaudited write could leave. The work queue's chart is counted and
# drawn live (its items are written unaudited, by the nightly run).
CACHE_SECONDS = 600


def audit_stamp() -> int:
    """The audit log's last id: changes whenever any record does (the home's cache key)."""
    from lotacao.audit.models import AuditEvent

    last = AuditEvent.unscoped.order_by("-id").values_list("id", flat=True).first()
    return int(last or 0)


def _draw(chart: Chart, prefix: str) -> str:
    from django.template.loader import render_to_string

    return render_to_string("web/_chart.html", {"chart": chart, "prefix": prefix})


def manager_charts_html(code: str, today: dt.date, stamp: int) -> list[str]:
    """The manager's charts drawn (HTML with the SVG and its table): notices, fines, permits where
    the law has them, expiring documents and seals, the work queue, funds; all but the work queue's
    come from the cache while no record changed."""
    from django.core.cache import cache
    from django.utils.safestring import mark_safe

    key = f"lotacao:painel:{code}:{today.isoformat()}:{stamp}"
    recorded: list[str] | None = cache.get(key)
    if recorded is None:
        charts = [notices_by_group(code, today), fines(code, today)]
        permits = permits_by_status(code, today)
        if permits is not None:
            charts.append(permits)
        charts += [expiring(code, today), funds(code, today)]
        recorded = [_draw(chart, code) for chart in charts]
        cache.set(key, recorded, CACHE_SECONDS)
    queue = _draw(queue_by_age(code, today), code)
    return [mark_safe(html) for html in [*recorded[:-1], queue, recorded[-1]]]  # noqa: S308
