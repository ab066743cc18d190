"""The public side of chartering: the register of authorized companies (CNPJ, trade name, CRC
status, modalities, validity — never personal data), a CRC's page (the certificate's QR) and a
trip's page (the manifest's QR). A signed-in inspector or manager of the jurisdiction, or the
company itself, is taken from a trip's public page to the trip's own screen."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from lotacao.chartering import permissions
from lotacao.chartering.models import Crc, Trip
from lotacao.chartering.rules import modality_label, modality_names
from lotacao.chartering.selectors import public_companies
from lotacao.chartering.status import crc_state


def companies(request: HttpRequest) -> HttpResponse:
    rows = public_companies(timezone.localdate(), request.GET.get("jurisdicao") or None)
    # each row links to its CRC's public page (the certificate's QR opens the same page)
    tokens = {
        (j, number): token
        for j, number, token in Crc.unscoped.filter(number__in=[r["crc_number"] for r in rows]).values_list(
            "jurisdiction_id", "number", "token"
        )
    }
    for row in rows:
        row["crc_token"] = tokens.get((row["jurisdiction"], row["crc_number"]))
    return render(request, "public/chartering_companies.html", {"rows": rows})


def crc_page(request: HttpRequest, token: str) -> HttpResponse:
    crc = Crc.unscoped.select_related("company__holder__company", "jurisdiction").filter(token=token).first()
    if crc is None:
        raise Http404("CRC não encontrado.")
    today = timezone.localdate()
    state = crc_state(crc.company, today, crc=crc)
    party = crc.company.party
    context: dict[str, Any] = {
        "crc": crc,
        "state": state,
        "name": party.trade_name or party.legal_name,
        "cnpj": party.cnpj_display,
        "modalities": modality_names(crc.jurisdiction_id, crc.modalities, today),
        "agency": crc.jurisdiction.official_name,
    }
    return render(request, "public/chartering_crc.html", context)


def trip_page(request: HttpRequest, token: str) -> HttpResponse:
    trip = (
        Trip.unscoped.select_related("company__holder__company", "jurisdiction", "vehicle", "crc")
        .filter(token=token)
        .first()
    )
    if trip is None:
        raise Http404("Viagem não encontrada.")
    access = getattr(request, "access", None)
    if permissions.can_see_passengers(access, trip.company):
        return redirect("chartering:trip", pk=trip.pk)
    today = timezone.localdate()
    state = crc_state(trip.company, today)
    party = trip.company.party
    context = {
        "trip": trip,
        "state": state,
        "name": party.trade_name or party.legal_name,
        "cnpj": party.cnpj_display,
        "modality": modality_label(trip.jurisdiction_id, trip.modality, today),
        "agency": trip.jurisdiction.official_name,
    }
    return render(request, "public/chartering_trip.html", context)
