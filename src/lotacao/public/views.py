from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from lotacao.public.selectors import clean_plate, vehicle_status


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
    result = vehicle_status(plate)
    return render(
        request, "public/vehicle.html", {"result": result}, status=200 if result["valid_plate"] else 400
    )
