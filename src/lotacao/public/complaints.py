"""The public ombudsman (Lei federal 13.460/2017): file a manifestation (phone first, identification
optional), follow it with the protocol and the access code, the statistics with charts and the
yearly management report as a PDF (art. 14, II; art. 15, p.ú., II: published on the internet).
Never personal data on these pages: a manifestation's page shows its status and answer only."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone

from lotacao.core import pdf as pdf_pages
from lotacao.core.charts import Chart, Row, layout
from lotacao.core.models import Jurisdiction
from lotacao.ombudsman import selectors, services, stats
from lotacao.ombudsman.forms import ComplaintForm, FollowForm
from lotacao.ombudsman.limits import FilingLimit, FollowLimit, over
from lotacao.ombudsman.models import Kind
from lotacao.public.http import conditional


def _too_many(request: HttpRequest, retry: int) -> HttpResponse:
    page = render(request, "public/too_many.html", {"retry": retry}, status=429)
    page["Retry-After"] = str(retry)
    return page


def _choices() -> list[tuple[str, str]]:
    return list(Jurisdiction.unscoped.filter(active=True).order_by("name").values_list("code", "name"))


def file(request: HttpRequest) -> HttpResponse:
    """`?jurisdicao=`, `?placa=` and `?linha=` pre-fill the form (from a line or a vehicle page)."""
    initial = {
        "jurisdiction": request.GET.get("jurisdicao", "")[:40],
        "plate": request.GET.get("placa", "")[:10],
        "line": request.GET.get("linha", "")[:20],
    }
    form = ComplaintForm(
        request.POST or None, request.FILES or None, jurisdictions=_choices(), initial=initial
    )
    refusal = ""
    if request.method == "POST":
        retry = over(FilingLimit(), request)
        if retry is not None:
            return _too_many(request, retry)
        if form.is_valid():
            try:
                complaint, code = services.file_complaint(
                    **form.filing(),
                )
            except ValidationError as error:
                refusal = " ".join(error.messages)
            else:
                response = render(
                    request,
                    "public/complaint_receipt.html",
                    {"c": complaint, "code": services.display_code(code)},
                    status=201,
                )
                response["Cache-Control"] = "no-store"
                return response
    status = 422 if request.method == "POST" else 200
    return render(request, "public/complaint_form.html", {"form": form, "refusal": refusal}, status=status)


def follow(request: HttpRequest) -> HttpResponse:
    """Protocol and access code in a POST (never in an address, which logs and histories keep)."""
    form = FollowForm(request.POST or None)
    found = None
    refusal = ""
    if request.method == "POST":
        retry = over(FollowLimit(), request)
        if retry is not None:
            return _too_many(request, retry)
        if form.is_valid():
            complaint = selectors.by_protocol_and_code(
                form.cleaned_data["protocol"], form.cleaned_data["code"]
            )
            if complaint is None:
                refusal = "Manifestação não encontrada: confira o protocolo e o código de acesso."
            else:
                found = selectors.public_status(complaint)
    status = 404 if refusal else (422 if request.method == "POST" and not form.is_valid() else 200)
    response = render(
        request,
        "public/complaint_follow.html",
        {"form": form, "found": found, "refusal": refusal},
        status=status,
    )
    response["Cache-Control"] = "no-store"
    return response


def _place(code: str) -> Jurisdiction:
    place = Jurisdiction.unscoped.filter(code=code, active=True).first()
    if place is None:
        raise Http404("Jurisdição desconhecida.")
    return place


def _year(request: HttpRequest, place: Jurisdiction) -> int:
    raw = request.GET.get("ano", "")
    choices = stats.years(place)
    if raw.isdigit() and int(raw) in choices:
        return int(raw)
    return choices[0]


def _count(s: stats.YearStats, month: int, kind: str) -> int:
    return s.by_month[month][kind] if month in s.by_month else 0


def _charts(s: stats.YearStats) -> list[Chart]:
    kinds = list(Kind)
    monthly = Chart(
        key="mes",
        title=f"Manifestações recebidas por mês em {s.year}",
        series=[k.label for k in kinds],
        rows=[
            Row(stats.month_label(m, s.year), [_count(s, m, k.value) for k in kinds]) for m in range(1, 13)
        ],
        row_header="Mês",
    )
    by_kind = Chart(
        key="tipo",
        title="Por tipo",
        series=["Manifestações"],
        rows=[Row(k.label, [s.by_kind.get(k.value, 0)]) for k in kinds],
        row_header="Tipo",
    )
    by_line = Chart(
        key="linha",
        title="Por linha (as dez mais citadas)",
        series=["Manifestações"],
        rows=[Row(name, [n]) for name, n in s.by_line.most_common(10)],
        row_header="Linha",
    )
    by_operator = Chart(
        key="operador",
        title="Por operador (as dez mais citadas)",
        series=["Manifestações"],
        rows=[Row(name, [n]) for name, n in s.by_operator.most_common(10)],
        row_header="Operador",
        note=(
            "Permissionários que são pessoas físicas não são nomeados: suas manifestações são "
            "contadas juntas."
        ),
    )
    return [layout(c) for c in (monthly, by_kind, by_line, by_operator)]


def _mean(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}".replace(".", ",")


def statistics(request: HttpRequest, jurisdiction: str) -> HttpResponse:
    place = _place(jurisdiction)
    year = _year(request, place)
    s = stats.year_stats(place, year)
    context: dict[str, Any] = {
        "place": place,
        "year": year,
        "years": stats.years(place),
        "s": s,
        "mean": _mean(s.mean_days),
        "charts": _charts(s),
    }
    return conditional(request, render(request, "public/complaint_stats.html", context))


def report_pdf(request: HttpRequest, jurisdiction: str, year: int) -> HttpResponse:
    """The yearly management report (Lei 13.460/2017, art. 14, II; contents of art. 15)."""
    place = _place(jurisdiction)
    if year not in stats.years(place):
        raise Http404("Não há relatório deste ano.")
    s = stats.year_stats(place, year)
    kinds = [(k.label, s.by_kind.get(k.value, 0)) for k in Kind]
    months = [(stats.month_label(m, year), sum(s.by_month.get(m, {}).values())) for m in range(1, 13)]
    html = render_to_string(
        "public/complaint_report_pdf.html",
        {
            "place": place,
            "year": year,
            "s": s,
            "kinds": kinds,
            "months": months,
            "lines": s.by_line.most_common(10),
            "operators": s.by_operator.most_common(10),
            "mean": _mean(s.mean_days),
            "issued_on": timezone.localdate(),
            "complete": year < timezone.localdate().year,
            "measures": s.measures[:200],
        },
    )
    pdf = pdf_pages.render(html, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="relatorio-ouvidoria-{place.code}-{year}.pdf"'
    return response
