"""Trips (art. 21): the company declares each trip before departure with what the modality must
carry (passenger list, itinerary, return, contractor's declaration), the EPTI authorizes a 7-seat
car's trip, and a trip in a modality the CRC does not hold is refused and flagged for cassação
(art. 35)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.chartering import rules
from lotacao.chartering.fleet import vehicle_check
from lotacao.chartering.models import CharteringCompany, Crc, FleetVehicle, Passenger, Sanction, Trip
from lotacao.chartering.status import crc_state, states
from lotacao.core.formats import lower_first
from lotacao.core.validators import normalize_cnpj
from lotacao.inspections import selectors as inspections_selectors
from lotacao.registry.models import Company, Vehicle

REQUIREMENT_TEXT = {
    "passenger_list": "a lista de passageiros de ida e volta, com nome e documento de identificação com foto",
    "itinerary": "o itinerário da viagem",
    "return": "o dia e a hora do retorno",
    "contractor_declaration": "a declaração do contratante (dispensada quando o contratante é pessoa jurídica de direito público)",  # noqa: E501
    "social_declaration": "a declaração do agente político ou do dirigente da entidade filantrópica",
}


@dataclass(frozen=True)
class TripData:
    """What the company declares (the fields of the manifest)."""

    modality: str
    vehicle: Vehicle
    contractor_name: str
    origin: str
    destination: str
    departs_at: dt.datetime
    driver_name: str
    driver_document: str
    returns_at: dt.datetime | None = None
    itinerary: str = ""
    contractor_document: str = ""
    contractor_public: bool = False
    declaration: str = ""
    subcontractor_cnpj: str = ""


def _local_day(code: str, moment: dt.datetime) -> dt.date:
    from zoneinfo import ZoneInfo

    from lotacao.core.models import Jurisdiction

    zone = (
        Jurisdiction.unscoped.filter(pk=code).values_list("timezone", flat=True).first() or "America/Recife"
    )
    return moment.astimezone(ZoneInfo(zone)).date()


def declare_trip(
    *, actor: Any, company: CharteringCompany, data: TripData, passengers: list[tuple[str, str]], reason: str
) -> Trip:
    """Declare a trip. A modality the CRC does not hold is refused and, in its own transaction,
    flagged to the manager as a risk of cassação (art. 35) — the flag stays, the trip is not written."""
    code = company.jurisdiction_id
    if timezone.is_naive(data.departs_at):
        raise ValidationError("Informe a data e a hora da partida com fuso horário.")
    day = _local_day(code, data.departs_at)
    rules.check_modalities(code, [data.modality], day)
    state = crc_state(company, day)
    if not state.may_operate:
        raise ValidationError(
            [
                "Viagem recusada: a empresa não pode prestar o serviço na data da partida "
                f"({rules.citation(code, 'chartering.crc_sanctions', day) or rules.cite(code, 'art. 23, parágrafo único')}).",  # noqa: E501
                *state.reasons,
            ]
        )
    assert state.crc is not None
    if data.modality not in state.crc.modalities:
        flag_wrong_modality(
            actor=actor, company=company, crc=state.crc, modality=data.modality, on=day, reason=reason
        )
        cite = rules.citation(code, "chartering.wrong_modality", day)
        raise ValidationError(
            f"Viagem recusada: o CRC {state.crc.number} é de {rules.modality_names(code, state.crc.modalities, day)}; "  # noqa: E501
            f"usá-lo em {rules.modality_names(code, [data.modality], day)} sujeita a empresa à cassação do CRC "  # noqa: E501
            f"({cite}). O caso foi comunicado ao gestor."
        )
    return _create(
        actor=actor, company=company, crc=state.crc, data=data, passengers=passengers, reason=reason, day=day
    )


@transaction.atomic
def flag_wrong_modality(
    *, actor: Any, company: CharteringCompany, crc: Crc, modality: str, on: dt.date, reason: str
) -> Sanction:
    """Propose to the manager the cassação of art. 35 (the company tried to use the CRC elsewhere)."""
    code = company.jurisdiction_id
    cite = rules.citation(code, "chartering.wrong_modality", on)
    grounds = (
        f"Viagem de {rules.modality_names(code, [modality], on)} declarada em {rules.pt(on)} com o CRC "
        f"{crc.number}, que é de {rules.modality_names(code, crc.modalities, on)} ({cite})."
    )
    sanction = Sanction(
        jurisdiction_id=code,
        company=company,
        crc=crc,
        kind=Sanction.Kind.REVOCATION,
        grounds=grounds,
        citations=[cite],
    )
    return create_audited(
        actor=actor, instance=sanction, reason=grounds, action="chartering.sanction_proposed"
    )


def _requirements(code: str, data: TripData, passengers: list[tuple[str, str]], day: dt.date) -> list[str]:
    needed = (rules.value(code, "chartering.trip_requirements", day) or {}).get(data.modality, [])
    present = {
        "passenger_list": bool(passengers),
        "itinerary": bool(data.itinerary.strip()),
        "return": data.returns_at is not None,
        "contractor_declaration": data.contractor_public or bool(data.declaration.strip()),
        "social_declaration": bool(data.declaration.strip()),
    }
    cite = rules.citation(code, "chartering.trip_requirements", day)
    return [
        f"Falta {REQUIREMENT_TEXT.get(item, item)} ({cite})."
        for item in needed
        if not present.get(item, False)
    ]


def clean_passengers(passengers: list[tuple[str, str]], seats: int) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    seen: set[str] = set()
    errors: list[str] = []
    for number, (name, document) in enumerate(passengers, start=1):
        name, document = " ".join(str(name or "").split()), str(document or "").strip().upper()
        if not name or not document:
            errors.append(f"Passageiro {number}: informe o nome e o número do documento com foto.")
            continue
        key = "".join(ch for ch in document if ch.isalnum())
        if key in seen:
            errors.append(f"Passageiro {number}: o documento {document} já está na lista.")
        seen.add(key)
        rows.append((name[:200], document[:30]))
    if len(rows) > max(seats - 1, 0):
        errors.append(
            f"A lista tem {len(rows)} passageiros; o veículo leva {max(seats - 1, 0)} além do condutor."
        )
    if errors:
        raise ValidationError(errors)
    return rows


def _require_fields(data: TripData) -> None:
    for label, text in (
        ("o contratante", data.contractor_name),
        ("a origem", data.origin),
        ("o destino", data.destination),
        ("o condutor", data.driver_name),
        ("a CNH do condutor", data.driver_document),
    ):
        if not text.strip():
            raise ValidationError(f"Informe {label}.")


def _vehicle_problems(company: CharteringCompany, data: TripData, day: dt.date) -> list[str]:
    code = company.jurisdiction_id
    entry = FleetVehicle.unscoped.filter(
        company=company, vehicle=data.vehicle, removed_on__isnull=True
    ).first()
    if entry is None:
        return [f"O veículo {data.vehicle} não está na frota de fretamento da empresa."]
    problems, _cites = vehicle_check(code, day, data.vehicle, [data.modality])
    own_only = rules.value(code, "chartering.own_fleet_only", day) or []
    if entry.leased and data.modality in own_only:
        problems.append(
            f"{rules.modality_label(code, data.modality, day)} só com frota própria "
            f"({rules.citation(code, 'chartering.own_fleet_only', day)})."
        )
    if inspections_selectors.current_seal(data.vehicle, day) is None:
        problems.append(
            f"O veículo {data.vehicle} não tem Autorização para Tráfego (vistoria anual) válida em {rules.pt(day)} "  # noqa: E501
            f"({rules.cite(code, 'art. 9º')})."
        )
    return problems


def _subcontractor_problems(code: str, cnpj: str, day: dt.date) -> list[str]:
    if not cnpj.strip():
        return []
    digits = normalize_cnpj(cnpj)
    company = CharteringCompany.unscoped.filter(jurisdiction_id=code, holder__company__cnpj=digits).first()
    state = states([company], day)[company.pk] if company is not None else None
    if state is None or not state.may_operate:
        cite = rules.citation(code, "chartering.subcontracting", day)
        return [f"A subcontratada de CNPJ {cnpj} não tem CRC válido na EPTI ({cite})."]
    return []


@transaction.atomic
def _create(
    *,
    actor: Any,
    company: CharteringCompany,
    crc: Crc,
    data: TripData,
    passengers: list[tuple[str, str]],
    reason: str,
    day: dt.date,
) -> Trip:
    code = company.jurisdiction_id
    if data.departs_at < timezone.now():
        raise ValidationError("A viagem é declarada antes da partida: a hora de partida já passou.")
    if data.returns_at is not None and data.returns_at < data.departs_at:
        raise ValidationError("O retorno não pode ser anterior à partida.")
    _require_fields(data)
    problems = _vehicle_problems(company, data, day) + _requirements(code, data, passengers, day)
    problems += _subcontractor_problems(code, data.subcontractor_cnpj, day)
    if problems:
        raise ValidationError(["Viagem recusada:", *problems])
    rows = clean_passengers(passengers, int(data.vehicle.seats))
    needs_authorization = data.vehicle.category == "car7" and bool(
        rules.value(code, "chartering.car7_trip_authorization", day)
    )
    trip = Trip(
        jurisdiction_id=code,
        company=company,
        crc=crc,
        vehicle=data.vehicle,
        modality=data.modality,
        contractor_name=data.contractor_name.strip(),
        contractor_document="".join(ch for ch in data.contractor_document if ch.isdigit()),
        contractor_public=data.contractor_public,
        declaration=data.declaration.strip(),
        subcontractor_cnpj=normalize_cnpj(data.subcontractor_cnpj) if data.subcontractor_cnpj.strip() else "",
        origin=data.origin.strip(),
        destination=data.destination.strip(),
        itinerary=data.itinerary.strip(),
        departs_at=data.departs_at,
        returns_at=data.returns_at,
        driver_name=data.driver_name.strip(),
        driver_document=data.driver_document.strip(),
        passenger_count=len(rows),
        status=Trip.Status.AWAITING if needs_authorization else Trip.Status.DECLARED,
        citations=[c for c in (rules.citation(code, "chartering.trip_requirements", day),) if c],
    )
    create_audited(actor=actor, instance=trip, reason=reason, action="chartering.trip_declared")
    Passenger.objects.bulk_create(
        [
            Passenger(jurisdiction_id=code, trip=trip, name=name, document=document, position=n)
            for n, (name, document) in enumerate(rows, start=1)
        ]
    )
    return trip


@transaction.atomic
def decide_authorization(*, actor: Any, trip: Trip, granted: bool, reasons: str) -> Trip:
    """The EPTI grants or refuses a 7-seat car's trip, with reasons (art. 21, IV, f)."""
    trip = Trip.unscoped.select_for_update().get(pk=trip.pk)
    if trip.status != Trip.Status.AWAITING:
        raise ValidationError(
            f"Esta viagem não aguarda autorização ({lower_first(trip.get_status_display())})."
        )
    if not reasons.strip():
        raise ValidationError("Informe os motivos da decisão.")
    cite = rules.citation(trip.jurisdiction_id, "chartering.car7_trip_authorization", timezone.localdate())
    return update_audited(
        actor=actor,
        instance=trip,
        changes={
            "status": Trip.Status.AUTHORIZED if granted else Trip.Status.REFUSED,
            "decided_by": actor if getattr(actor, "pk", None) else None,
            "decided_at": timezone.now(),
            "decision_reasons": reasons.strip(),
            "citations": list(dict.fromkeys([*trip.citations, cite])),
        },
        reason=reasons,
        action="chartering.trip_authorized" if granted else "chartering.trip_refused",
    )


@transaction.atomic
def cancel_trip(*, actor: Any, trip: Trip, reason: str) -> Trip:
    trip = Trip.unscoped.select_for_update().get(pk=trip.pk)
    if trip.status not in Trip.LIVE:
        raise ValidationError(f"A viagem está {lower_first(trip.get_status_display())}.")
    if not reason.strip():
        raise ValidationError("Informe o motivo do cancelamento.")
    return update_audited(
        actor=actor,
        instance=trip,
        changes={"status": Trip.Status.CANCELLED, "cancelled_reason": reason.strip()},
        reason=reason,
        action="chartering.trip_cancelled",
    )


def company_for_cnpj(code: str, cnpj: str) -> CharteringCompany | None:
    party = Company.unscoped.filter(jurisdiction_id=code, cnpj=normalize_cnpj(cnpj)).first()
    return CharteringCompany.unscoped.filter(holder__company=party).first() if party else None
