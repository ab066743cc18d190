"""Read side of chartering: the road check, the notice prefill for enforcement, the public
register and plate check, the home page's figures and the company's portal.

Public answers never carry personal data: a company's CNPJ and trade name are public; drivers,
passengers and contractors are not.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Q, QuerySet
from django.utils import timezone

from lotacao.chartering import rules, tracking
from lotacao.chartering.fleet import company_modalities
from lotacao.chartering.models import CharteringCompany, Crc, CrcApplication, FleetVehicle, Sanction, Trip
from lotacao.chartering.status import crc_state, no_crc, states
from lotacao.core.bulk import among
from lotacao.core.formats import lower_first
from lotacao.core.models import Jurisdiction
from lotacao.inspections import selectors as inspections_selectors
from lotacao.registry.models import Vehicle

NOTICE_TEXT = {
    "II-f": "Passageiro fora da lista de passageiros da viagem",
    "IV-b": "Fretamento sem CRC válido",
    "IV-d": "Viagem sem a autorização exigida",
    "IV-i": "Rastreador sem informações disponíveis",
}


def _day_bounds(code: str, on: dt.date) -> tuple[dt.datetime, dt.datetime]:
    zone = ZoneInfo(
        Jurisdiction.unscoped.filter(pk=code).values_list("timezone", flat=True).first() or "America/Recife"
    )
    start = dt.datetime.combine(on, dt.time.min, tzinfo=zone)
    return start, start + dt.timedelta(days=1)


def trips_of_day(vehicle: Any, on: dt.date) -> QuerySet[Trip]:
    """The vehicle's live or refused trips under way on `on` (departed by the day's end and not back
    before it started)."""
    start, end = _day_bounds(vehicle.jurisdiction_id, on)
    return (
        Trip.unscoped.filter(vehicle_id=vehicle.pk, departs_at__lt=end)
        .filter(Q(returns_at__gte=start) | Q(returns_at__isnull=True, departs_at__gte=start))
        .exclude(status=Trip.Status.CANCELLED)
        .select_related("company__holder__company", "crc")
        .order_by("departs_at")
    )


def fleet_entry(vehicle: Any) -> FleetVehicle | None:
    return (
        FleetVehicle.unscoped.filter(vehicle_id=vehicle.pk, removed_on__isnull=True)
        .select_related("company__holder__company")
        .first()
    )


def offered_notices(
    vehicle: Any, entry: FleetVehicle | None, state: Any, trips: list[Trip], on: dt.date
) -> list[dict[str, str]]:
    """The notices the inspector may draw up at once, each with its reason (the fields prefilled)."""
    code = vehicle.jurisdiction_id
    offers: list[dict[str, str]] = []
    if state is None or not state.may_operate:
        why = (
            state.reasons[0]
            if state is not None and state.reasons
            else "Veículo fora de frota de fretamento com CRC."
        )
        offers.append({"code": "IV-b", "reason": why})
    if inspections_selectors.current_seal(vehicle, on) is None:
        offers.append({"code": "IV-d", "reason": "Sem Autorização para Tráfego (vistoria anual) válida."})
    for trip in trips:
        if trip.vehicle.category == "car7" and trip.status != Trip.Status.AUTHORIZED:
            offers.append(
                {
                    "code": "IV-d",
                    "reason": "Viagem em automóvel de 7 lugares sem autorização da EPTI "
                    f"({lower_first(trip.get_status_display())}).",
                }
            )
        if trip.passenger_count:
            offers.append({"code": "II-f", "reason": "Se houver passageiro que não está na lista da viagem."})
    if entry is not None:
        silent = tracking.is_silent(entry, timezone.now(), tracking.silence_minutes(code, on))
        if silent:
            offers.append({"code": "IV-i", "reason": "Rastreador sem posição no tempo fixado pelo órgão."})
    seen: set[str] = set()
    unique = []
    for offer in offers:
        if offer["code"] not in seen:
            seen.add(offer["code"])
            unique.append(offer)
    return unique


# Offers that are the inspector's to verify on the spot (an unlisted passenger), not a finding.
CONDITIONAL_OFFERS = frozenset({"II-f"})


def verdict(state: Any, offers: list[dict[str, str]]) -> dict[str, Any]:
    """The road check's one headline: green only when the CRC allows operating AND nothing else
    found today (no traffic authorization missing, no trip without authorization, no silent tracker).
    """
    findings = [o["reason"] for o in offers if o["code"] not in CONDITIONAL_OFFERS]
    if state is None:
        return {"ok": False, "headline": "FORA DO FRETAMENTO", "findings": findings}
    if not state.may_operate:
        return {"ok": False, "headline": f"CRC {str(state.label).upper()}", "findings": findings}
    if findings:
        return {"ok": False, "headline": "CRC VÁLIDO, MAS COM IRREGULARIDADE", "findings": findings}
    return {"ok": True, "headline": "CRC VÁLIDO", "findings": []}


def road_check(vehicle: Vehicle, on: dt.date) -> dict[str, Any]:
    """What the inspector on the road sees for a plate: company, CRC, modality, traffic
    authorization, insurance, tracker, today's trips (the passengers are opened separately,
    audited) and the notices to draw up."""
    entry = fleet_entry(vehicle)
    company = entry.company if entry is not None else None
    state = crc_state(company, on) if company is not None else None
    trips = list(trips_of_day(vehicle, on))
    seal = inspections_selectors.current_seal(vehicle, on)
    insurance = inspections_selectors.current_insurance(vehicle, on)
    minutes = tracking.silence_minutes(vehicle.jurisdiction_id, on)
    offers = offered_notices(vehicle, entry, state, trips, on)
    return {
        "vehicle": vehicle,
        "entry": entry,
        "company": company,
        "state": state,
        "modalities": rules.modality_names(vehicle.jurisdiction_id, state.modalities, on) if state else "",
        "seal": seal,
        "insurance": insurance,
        "trips": trips,
        "silent": tracking.is_silent(entry, timezone.now(), minutes) if entry is not None else None,
        "silence_minutes": minutes,
        "offers": offers,
        "verdict": verdict(state, offers),
        "wait_hours": rules.value(vehicle.jurisdiction_id, "chartering.replacement_wait", on),
    }


def notice_prefill(
    *,
    infraction_code: str,
    trip: Trip | None = None,
    vehicle: Vehicle | None = None,
    on: dt.date | None = None,
) -> dict[str, Any]:
    """The fields of an infraction notice for a trip or a vehicle — enforcement's notice form calls
    this (II-f unlisted passenger, IV-d missing authorization, IV-b no CRC, IV-i tracker): the keys
    are the keyword arguments of `enforcement.services.prepare_notice` the road check knows."""
    vehicle = trip.vehicle if trip is not None else vehicle
    if vehicle is None:
        raise ValueError("notice_prefill needs a trip or a vehicle")
    day = on or timezone.localdate()
    entry = fleet_entry(vehicle)
    company = trip.company if trip is not None else (entry.company if entry is not None else None)
    party = company.party if company is not None else None
    lines = [NOTICE_TEXT.get(infraction_code, "")]
    if trip is not None:
        lines.append(
            f"Viagem de {lower_first(rules.modality_label(vehicle.jurisdiction_id, trip.modality, day))} "
            f"{trip.origin} — {trip.destination}, partida {timezone.localtime(trip.departs_at):%d/%m/%Y %H:%M}, "  # noqa: E501
            f"manifesto {trip.token}; situação: {lower_first(trip.get_status_display())}; "
            f"{trip.passenger_count} passageiros na lista."
        )
    return {
        "jurisdiction": vehicle.jurisdiction,
        "infraction_code": infraction_code,
        "offender_kind": "company" if company is not None else "unlicensed",
        "holder": company.holder if company is not None else None,
        "vehicle": vehicle,
        "plate": vehicle.plate,
        "offender_name": party.legal_name if party is not None else "",
        "offender_document": party.cnpj if party is not None else "",
        "description": " ".join(line for line in lines if line),
    }


# --------------------------------------------------------------------------- public


def public_companies(on: dt.date, jurisdiction: str | None = None) -> list[dict[str, Any]]:
    """The register: companies with a CRC (CNPJ and trade name are public; no personal data)."""
    companies = (
        CharteringCompany.unscoped.filter(crcs__isnull=False).distinct().select_related("holder__company")
    )
    if jurisdiction:
        companies = companies.filter(jurisdiction_id=jurisdiction)
    rows = [
        c
        for c in companies.order_by("holder__company__legal_name")
        if rules.regulates_chartering(c.jurisdiction_id)
    ]
    found = states(rows, on)
    out = []
    for company in rows:
        state = found[company.pk]
        if state.crc is None:
            continue
        party = company.party
        out.append(
            {
                "cnpj": party.cnpj_display,
                "name": party.trade_name or party.legal_name,
                "jurisdiction": company.jurisdiction_id,
                "crc_number": state.crc.number,
                "crc_status": state.public_status,
                "modalities": list(state.crc.modalities),
                "modality_names": rules.modality_names(company.jurisdiction_id, state.crc.modalities, on),
                "valid_until": state.crc.valid_until.isoformat(),
            }
        )
    return out


def public_vehicle_info(vehicle: Any, on: dt.date) -> dict[str, Any]:
    """For the public plate check: a chartering vehicle's company, CRC status and modality. A vehicle
    outside any chartering fleet gets nothing from here (another regime answers for it)."""
    if not rules.regulates_chartering(vehicle.jurisdiction_id):
        return {}
    entry = fleet_entry(vehicle)
    if entry is None:
        return {"reasons": ["Veículo fora da frota de fretamento de empresa com CRC."], "authorized": False}
    state = crc_state(entry.company, on)
    party = entry.company.party
    info: dict[str, Any] = {
        "company_name": party.trade_name or party.legal_name,
        "company_cnpj": party.cnpj_display,
        "crc_status": state.public_status,
        "crc_valid_until": state.crc.valid_until.isoformat() if state.crc else None,
        "modalities": rules.modality_names(vehicle.jurisdiction_id, state.modalities, on)
        if state.crc
        else None,
        "authorized": state.may_operate,
        "reasons": [] if state.may_operate else list(state.reasons),
    }
    return info


def public_vehicle_info_many(vehicles: list[Any], on: dt.date) -> dict[int, dict[str, Any]]:
    """`public_vehicle_info` of many vehicles with three queries (the read model's rebuild), each
    part with `changes_on`: the first day after `on` the CRC's state may change by the date alone (a
    renewal issued for a later day, a cancellation, cassação or sanction dated ahead, the validity
    or a sanction's term running out)."""
    out: dict[int, dict[str, Any]] = {}
    regulated = [v for v in vehicles if rules.regulates_chartering(v.jurisdiction_id)]
    for vehicle in vehicles:
        out[vehicle.pk] = {}
    if not regulated:
        return out
    entries = {
        e.vehicle_id: e
        for e in FleetVehicle.unscoped.filter(
            among("vehicle_id", [v.pk for v in regulated]), removed_on__isnull=True
        ).select_related("company__holder__company")
    }
    company_ids = sorted({e.company_id for e in entries.values()})
    crcs: dict[int, list[Crc]] = {}
    for row in Crc.unscoped.filter(company_id__in=company_ids).order_by("-issued_on", "-id"):
        crcs.setdefault(row.company_id, []).append(row)
    current = {
        company: next((c for c in rows if c.issued_on is not None and c.issued_on <= on), None)
        for company, rows in crcs.items()
    }
    sanctions: dict[int, list[Sanction]] = {}
    for sanction in Sanction.unscoped.filter(
        crc_id__in=[c.pk for c in current.values() if c is not None], status=Sanction.Status.IN_FORCE
    ).order_by("starts_on", "id"):
        sanctions.setdefault(sanction.crc_id, []).append(sanction)
    by_company: dict[int, tuple[Any, dt.date | None]] = {}
    for company in company_ids:
        crc = current.get(company)
        changes = [c.issued_on for c in crcs.get(company, ()) if c.issued_on is not None]
        in_force = None
        if crc is not None:
            changes += [d for d in (crc.revoked_on, crc.cancelled_on) if d is not None]
            changes.append(crc.valid_until + dt.timedelta(days=1))
            for sanction in sanctions.get(crc.pk, ()):
                changes += [d for d in (sanction.starts_on, sanction.ended_on) if d is not None]
                if sanction.ends_on is not None:
                    changes.append(sanction.ends_on + dt.timedelta(days=1))
                if (
                    in_force is None
                    and sanction.starts_on is not None
                    and sanction.starts_on <= on
                    and (sanction.ended_on is None or sanction.ended_on > on)
                ):
                    in_force = sanction
        later = [d for d in changes if d > on]
        by_company[company] = (crc, in_force), min(later) if later else None
    modality_names: dict[tuple[str, tuple[str, ...]], str] = {}
    for vehicle in regulated:
        entry = entries.get(vehicle.pk)
        if entry is None:
            out[vehicle.pk] = {
                "reasons": ["Veículo fora da frota de fretamento de empresa com CRC."],
                "authorized": False,
            }
            continue
        (crc, in_force), changes_on = by_company[entry.company_id]
        state = crc_state(entry.company, on, crc=crc, sanction=in_force) if crc else no_crc()
        key = (vehicle.jurisdiction_id, tuple(state.modalities))
        if state.crc and key not in modality_names:
            modality_names[key] = rules.modality_names(vehicle.jurisdiction_id, state.modalities, on)
        party = entry.company.party
        part: dict[str, Any] = {
            "company_name": party.trade_name or party.legal_name,
            "company_cnpj": party.cnpj_display,
            "crc_status": state.public_status,
            "crc_valid_until": state.crc.valid_until.isoformat() if state.crc else None,
            "modalities": modality_names[key] if state.crc else None,
            "authorized": state.may_operate,
            "reasons": [] if state.may_operate else list(state.reasons),
        }
        if changes_on is not None:
            part["changes_on"] = changes_on
        out[vehicle.pk] = part
    return out


# --------------------------------------------------------------------------- home and portal


def home_counts(code: str, on: dt.date) -> list[tuple[str, int, str]]:
    """What the state regulates, counted in the database: (label, count, url name)."""
    companies = list(CharteringCompany.unscoped.filter(jurisdiction_id=code))
    found = states(companies, on)
    by_status: dict[str, int] = {}
    for state in found.values():
        by_status[state.status] = by_status.get(state.status, 0) + 1
    start, end = _day_bounds(code, on)
    expiring = sum(
        1
        for s in found.values()
        if s.status == "valid" and s.crc is not None and s.crc.valid_until <= on + dt.timedelta(days=60)
    )
    counts = [
        ("Empresas de fretamento", len(companies), "chartering:companies"),
        ("CRCs válidos", by_status.get("valid", 0), "chartering:companies"),
        ("CRCs suspensos", by_status.get("suspended", 0), "chartering:companies"),
        (
            "CRCs cancelados ou cassados",
            by_status.get("cancelled", 0) + by_status.get("revoked", 0),
            "chartering:companies",
        ),
        ("CRCs vencidos", by_status.get("expired", 0), "chartering:companies"),
        ("CRCs vencendo em 60 dias", expiring, "chartering:companies"),
        (
            "Veículos na frota de fretamento",
            FleetVehicle.unscoped.filter(jurisdiction_id=code, removed_on__isnull=True).count(),
            "chartering:companies",
        ),
        (
            "Viagens hoje",
            Trip.unscoped.filter(jurisdiction_id=code, departs_at__gte=start, departs_at__lt=end)
            .exclude(status=Trip.Status.CANCELLED)
            .count(),
            "chartering:trips",
        ),
        (
            "Requerimentos de CRC em análise",
            CrcApplication.unscoped.filter(jurisdiction_id=code, status__in=CrcApplication.OPEN).count(),
            "chartering:companies",
        ),
        (
            "Viagens aguardando autorização",
            Trip.unscoped.filter(jurisdiction_id=code, status=Trip.Status.AWAITING).count(),
            "chartering:trips",
        ),
    ]
    return counts


def company_summary(company: CharteringCompany, on: dt.date) -> dict[str, Any]:
    """One company's file: CRC state, requests, fleet, trips, sanctions (staff page and portal)."""
    code = company.jurisdiction_id
    fleet = list(
        FleetVehicle.unscoped.filter(company=company)
        .select_related("vehicle")
        .order_by("removed_on", "vehicle__plate")
    )
    minutes = tracking.silence_minutes(code, on)
    now = timezone.now()
    rows = []
    for entry in fleet:
        rows.append(
            {
                "entry": entry,
                "seal": inspections_selectors.current_seal(entry.vehicle, on),
                "insurance": inspections_selectors.current_insurance(entry.vehicle, on),
                "silent": tracking.is_silent(entry, now, minutes) if entry.removed_on is None else None,
            }
        )
    state = crc_state(company, on)
    return {
        "company": company,
        "party": company.holder.company,
        "state": state,
        "modalities": rules.modality_names(code, state.modalities, on) if state.crc else "",
        "applications": list(
            CrcApplication.unscoped.filter(company=company).order_by("-filed_on", "-id")[:10]
        ),
        "crcs": list(Crc.unscoped.filter(company=company).order_by("-issued_on")[:10]),
        "fleet": rows,
        "trips": list(
            Trip.unscoped.filter(company=company).select_related("vehicle").order_by("-departs_at")[:20]
        ),
        "sanctions": list(Sanction.unscoped.filter(company=company).order_by("-created_at")[:20]),
        "silence_minutes": minutes,
    }


def vehicle_modalities(vehicle: Any, on: dt.date) -> list[str] | None:
    """The seam `vehicle_modalities`: the modalities of the company owning the vehicle (its live
    fleet's company, else the company whose holder the vehicle is registered to) on `on` — those of
    its CRC and of its request in analysis — or None when the vehicle is not a chartering one. The
    inspection judges the vehicle for them (the 7-seat car only in tourism, art. 3º, § 3º)."""
    entry = fleet_entry(vehicle)
    company = entry.company if entry is not None else None
    if company is None and vehicle.holder_id is not None:
        company = CharteringCompany.unscoped.filter(holder_id=vehicle.holder_id).first()
    if company is None:
        return None
    return company_modalities(company, on)
