"""Public endpoints: no authentication, no personal data."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from ninja import Router
from ninja.errors import HttpError

from lotacao.chartering.selectors import public_companies
from lotacao.lines import gtfs
from lotacao.lines import selectors as lines_selectors
from lotacao.public.selectors import vehicle_status

router = Router(tags=["público"], auth=None)


@router.get("/vehicles/{plate}")
def public_vehicle(request: HttpRequest, plate: str) -> Any:
    """Is this vehicle authorized? Permit number, line, seal validity — never personal data."""
    result = vehicle_status(plate)
    if not result["valid_plate"]:
        raise HttpError(422, result["error"])
    return result


@router.get("/gtfs/{jurisdiction}")
def public_gtfs(request: HttpRequest, jurisdiction: str) -> HttpResponse:
    """The jurisdiction's GTFS feed (zip): lines, stops and timetables in force — no personal data."""
    today = timezone.localdate()
    try:
        url = request.build_absolute_uri(reverse("public:lines", kwargs={"jurisdiction": jurisdiction}))
        feed = gtfs.export(jurisdiction, today, url)
    except NoReverseMatch as error:  # not a jurisdiction's code at all
        raise HttpError(404, "Jurisdição desconhecida: não há feed GTFS.") from error
    except gtfs.NoFeed as error:
        raise HttpError(404, "Esta jurisdição não tem linhas: não há feed GTFS.") from error
    response = HttpResponse(feed, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="gtfs-{jurisdiction}-{today:%Y%m%d}.zip"'
    return response


@router.get("/lines/{jurisdiction}")
def public_lines(request: HttpRequest, jurisdiction: str) -> Any:
    """The lines in force in a jurisdiction (code, name, origin, destination)."""
    return lines_selectors.public_lines(jurisdiction, timezone.localdate())


@router.get("/lines/{jurisdiction}/{code}")
def public_line(request: HttpRequest, jurisdiction: str, code: str) -> Any:
    """A line in force: itinerary, stops and the timetable or headways — no personal data."""
    found = lines_selectors.public_line(jurisdiction, code, timezone.localdate())
    if found is None:
        raise HttpError(404, "Linha não encontrada ou sem versão aprovada em vigor.")
    return found


@router.get("/chartering/companies")
def chartering_companies(request: HttpRequest, jurisdiction: str | None = None) -> Any:
    """The register of chartering companies with a CRC: cnpj, name (trade name), crc_status
    (valid, suspended, cancelled, expired), modalities and valid_until — no personal data."""
    keys = ("cnpj", "name", "crc_status", "modalities", "valid_until", "crc_number", "jurisdiction")
    return [{k: row[k] for k in keys} for row in public_companies(timezone.localdate(), jurisdiction)]
