"""The public's front door (/publico/ and /publico/<jurisdição>/): the plate check, the lines (an
index with a search), the chartering register, the ombudsman (file and follow a manifestation, its
statistics) and open data — every public page is reachable from here. What each jurisdiction
regulates (permits and lines, chartering) is read from its pack, never from its name."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils import timezone

from lotacao.chartering.rules import regulates_chartering
from lotacao.core.models import Jurisdiction
from lotacao.core.text import fold
from lotacao.core.vehicle_verdict import has_permits
from lotacao.lines import selectors as lines_selectors

SEARCH_MAX = 60
OPEN_DATA = "/dados/"


def open_data_url() -> str:
    """The open data catalogue's address, once lotacao.opendata serves it (never a dead link)."""
    try:
        resolve(OPEN_DATA)
    except Resolver404:
        return ""
    return OPEN_DATA


def _places() -> list[dict[str, Any]]:
    out = []
    for j in Jurisdiction.unscoped.filter(active=True).order_by("name"):
        out.append(
            {
                "code": j.code,
                "name": j.name,
                "state": j.state,
                "agency": j.official_name,
                "permits": has_permits(j.code),
                "chartering": regulates_chartering(j.code),
            }
        )
    return out


def home(request: HttpRequest) -> HttpResponse:
    places = _places()
    return render(
        request,
        "public/home.html",
        {
            "places": places,
            "any_chartering": any(p["chartering"] for p in places),
            "open_data": open_data_url(),
        },
    )


def place_home(request: HttpRequest, jurisdiction: str) -> HttpResponse:
    found = next((p for p in _places() if p["code"] == jurisdiction), None)
    if found is None:
        raise Http404("Jurisdição desconhecida.")
    lines = lines_selectors.public_lines(jurisdiction, timezone.localdate()) if found["permits"] else []
    return render(
        request, "public/place_home.html", {"place": found, "lines": lines, "open_data": open_data_url()}
    )


def line_index(request: HttpRequest) -> HttpResponse:
    """Every line in force, by jurisdiction, with a search by code, name or place."""
    raw = request.GET.get("q", "").strip()
    error = ""
    if len(raw) > SEARCH_MAX or "\x00" in raw:
        error = f"Digite até {SEARCH_MAX} caracteres."
        raw = ""
    wanted = fold(raw) if raw else ""
    today = timezone.localdate()
    groups = []
    total = 0
    for place in _places():
        if not place["permits"]:
            continue
        rows = lines_selectors.public_lines(place["code"], today)
        if wanted:
            rows = [
                r
                for r in rows
                if wanted
                in fold(" ".join(str(r.get(k) or "") for k in ("code", "name", "origin", "destination")))
            ]
        total += len(rows)
        if rows or not wanted:
            groups.append({"place": place, "lines": rows})
    return render(
        request, "public/line_index.html", {"groups": groups, "query": raw, "error": error, "total": total}
    )
