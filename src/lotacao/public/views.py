from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from lotacao.core.models import Jurisdiction
from lotacao.core.vehicle_verdict import clean_plate, headline
from lotacao.lines import maps
from lotacao.lines import selectors as lines_selectors
from lotacao.public.http import conditional
from lotacao.public.selectors import vehicle_status
from lotacao.public.throttle import throttled


def search(request: HttpRequest) -> HttpResponse:
    raw = request.GET.get("placa", "").strip()
    if raw:
        try:
            return redirect("public:vehicle", plate=clean_plate(raw))
        except ValidationError:
            pass  # an invalid plate: the page below shows why
    result = vehicle_status(raw) if raw else None
    return render(request, "public/search.html", {"raw": raw, "result": result})


def vehicle(request: HttpRequest, plate: str) -> HttpResponse:
    refused = throttled(request)
    if refused is not None:  # the page answers in words; the API with a problem body
        page = render(request, "public/too_many.html", {"retry": refused["Retry-After"]}, status=429)
        page["Retry-After"] = refused["Retry-After"]
        return page
    result = vehicle_status(plate)
    response = render(
        request,
        "public/vehicle.html",
        {"result": result, "headline": headline(result["records"])},
        status=200 if result["valid_plate"] else 400,
    )
    return conditional(request, response)


def bare_json(request: HttpRequest) -> HttpResponse:
    """The bench's yardstick (bench/bench_public.py): a JSON view that does nothing, served by the
    same stack. Routed only when LOTACAO_BENCH_VIEWS is on."""
    return JsonResponse({"ok": True})


def lines(request: HttpRequest, jurisdiction: str) -> HttpResponse:
    place = Jurisdiction.unscoped.filter(code=jurisdiction).first()
    if place is None:
        raise Http404("Jurisdição desconhecida.")
    rows = lines_selectors.public_lines(jurisdiction, timezone.localdate())
    return render(request, "public/lines.html", {"jurisdiction": place, "lines": rows})


def line(request: HttpRequest, jurisdiction: str, code: str) -> HttpResponse:
    place = Jurisdiction.unscoped.filter(code=jurisdiction).first()
    found = lines_selectors.public_line(jurisdiction, code, timezone.localdate()) if place else None
    if found is None:
        raise Http404("Linha não encontrada ou sem versão aprovada em vigor.")
    context = {
        "jurisdiction": place,
        "line": found,
        "map": maps.map_data(found, found["stops"]),
        "drawing": maps.svg(found["itinerary"], found["stops"], f"Mapa da linha {found['code']}"),
        **maps.tiles(),
    }
    return maps.allow_tiles(render(request, "public/line.html", context))

