"""Public endpoints: no authentication, no personal data."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET
from ninja import Router, Schema
from ninja.errors import HttpError

from lotacao.chartering.selectors import public_companies
from lotacao.core.api_schema import ProblemDetail, file_response
from lotacao.core.problems import problem
from lotacao.lines import gtfs
from lotacao.lines import selectors as lines_selectors
from lotacao.lines.api import OrderSummaryOut
from lotacao.public import throttle
from lotacao.public.http import conditional
from lotacao.public.selectors import vehicle_status

router = Router(tags=["publico"], auth=None)


class PlateAnswerOut(Schema):
    plate: str
    valid_plate: bool
    checked_on: str
    authorized: bool
    reasons: list[str]
    records: list[dict[str, Any]]


class PublicLineOut(Schema):
    code: str
    name: str
    origin: str
    destination: str
    shape: str
    region: str


class PublicStopOut(Schema):
    name: str
    kind: str
    kind_label: str
    wheelchair: str
    wheelchair_label: str
    lat: float
    lon: float


class BenefitOut(Schema):
    code: str
    who: str
    rule: str


class FareOut(Schema):
    amount: Decimal | None
    reduced_amount: Decimal | None
    act: str
    valid_from: dt.date | None
    benefits: list[BenefitOut]
    benefits_cite: str
    benefits_note: str
    benefits_missing: str
    seats: int | None
    seats_cite: str
    seats_note: str


class PublicLineDetailOut(Schema):
    code: str
    name: str
    jurisdiction: str
    origin: str
    destination: str
    shape: str
    region: str
    description: str
    itinerary: list[list[float]]  # [[lon, lat], ...]
    approval_act: str
    valid_from: dt.date | None
    stops: list[PublicStopOut]
    order: OrderSummaryOut | None  # the service order in force (without the plates)
    both_directions: bool
    fare: FareOut


class PublicCompanyOut(Schema):
    cnpj: str
    name: str
    crc_status: str
    modalities: list[str]
    valid_until: dt.date
    crc_number: str
    jurisdiction: str


@router.get(
    "/vehicles/{plate}",
    response={200: PlateAnswerOut, 304: None, 422: ProblemDetail, 429: ProblemDetail},
)
def public_vehicle(request: HttpRequest, plate: str) -> Any:
    """Is this vehicle authorized? `authorized` and the `reasons` for every valid plate (an unknown
    plate is not authorized), and one record per jurisdiction: permit number, line, seal validity —
    never personal data. Sends an ETag (If-None-Match → 304); more than the public rate limit of
    requests from one address → 429 with Retry-After."""
    over_limit = throttle.start(request)  # the cache's answer is read after the database's
    try:
        result = vehicle_status(plate)
    finally:
        refused = over_limit()
    if refused is not None:
        return refused
    if not result["valid_plate"]:
        return problem(422, result["error"])
    response = HttpResponse(orjson.dumps(result), content_type="application/json")
    return conditional(request, response)


# Served directly by lotacao.config.urls, as the operation: exempt from CSRF as django-ninja's views
# are (another method is a 405, not CSRF's 403; lotacao.core.middleware makes it problem details).
plate_check = require_GET(public_vehicle)
plate_check.csrf_exempt = True  # type: ignore[attr-defined]  # as csrf_exempt() marks it, unwrapped


@router.get(
    "/gtfs/{jurisdiction}", openapi_extra=file_response("O feed GTFS da jurisdição (zip).", "application/zip")
)
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


@router.get("/lines/{jurisdiction}", response=list[PublicLineOut])
def public_lines(request: HttpRequest, jurisdiction: str) -> Any:
    """The lines in force in a jurisdiction (code, name, origin, destination)."""
    return lines_selectors.public_lines(jurisdiction, timezone.localdate())


@router.get("/lines/{jurisdiction}/{code}", response=PublicLineDetailOut)
def public_line(request: HttpRequest, jurisdiction: str, code: str) -> Any:
    """A line in force: itinerary, stops and the timetable or headways — no personal data."""
    found = lines_selectors.public_line(jurisdiction, code, timezone.localdate())
    if found is None:
        raise HttpError(404, "Linha não encontrada ou sem versão aprovada em vigor.")
    return found


@router.get("/chartering/companies", response=list[PublicCompanyOut])
def chartering_companies(request: HttpRequest, jurisdiction: str | None = None) -> Any:
    """The register of chartering companies with a CRC: cnpj, name (trade name), crc_status
    (valid, suspended, cancelled, expired), modalities and valid_until — no personal data."""
    keys = ("cnpj", "name", "crc_status", "modalities", "valid_until", "crc_number", "jurisdiction")
    return [{k: row[k] for k in keys} for row in public_companies(timezone.localdate(), jurisdiction)]
