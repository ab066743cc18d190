"""The open data catalogue: the page at /dados/, its DCAT JSON-LD and the CSVs from storage."""

from __future__ import annotations

import datetime as dt

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from lotacao.core.models import Jurisdiction
from lotacao.lines import law as lines_law
from lotacao.opendata import dcat
from lotacao.opendata.catalogue import BY_SLUG, datasets_for
from lotacao.opendata.models import Distribution


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    stored = {(d.jurisdiction_id, d.dataset): d for d in Distribution.unscoped.all()}
    groups = []
    for jurisdiction in Jurisdiction.unscoped.order_by("name"):
        rows = [
            {"dataset": d, "file": stored.get((jurisdiction.code, d.slug))}
            for d in datasets_for(jurisdiction.code, today)
        ]
        groups.append(
            {
                "jurisdiction": jurisdiction,
                "rows": rows,
                "gtfs": lines_law.has_lines(jurisdiction.code, today),
            }
        )
    return render(request, "opendata/index.html", {"groups": groups, "licence": dcat.licence()})


@require_GET
def catalogue(request: HttpRequest) -> HttpResponse:
    code = request.GET.get("jurisdicao") or None
    if code and not Jurisdiction.unscoped.filter(code=code).exists():
        raise Http404("Jurisdição desconhecida.")
    body = dcat.catalogue(request.build_absolute_uri, timezone.localdate(), code)
    response = JsonResponse(
        body, content_type="application/ld+json", json_dumps_params={"ensure_ascii": False}
    )
    response["Access-Control-Allow-Origin"] = "*"  # harvesters read it from anywhere
    return response


@require_GET
def download(request: HttpRequest, jurisdiction: str, slug: str) -> FileResponse:
    dataset = BY_SLUG.get(slug)
    found = Distribution.unscoped.filter(jurisdiction_id=jurisdiction, dataset=slug).first()
    if dataset is None or found is None or not default_storage.exists(found.path):
        raise Http404("Arquivo não encontrado: os dados abertos são gerados todas as noites.")
    response = FileResponse(
        default_storage.open(found.path, "rb"),
        content_type="text/csv; charset=utf-8",
        as_attachment=True,
        filename=f"{jurisdiction}-{slug}.csv",
    )
    response["Last-Modified"] = _http_date(found.modified)
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _http_date(moment: dt.datetime) -> str:
    from django.utils.http import http_date

    return http_date(moment.timestamp())
