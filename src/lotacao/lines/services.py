"""Write services of lines: keyword-only, atomic, checked against the law, audited.

Every refusal is a ValidationError in Portuguese citing the article (from the pack); nothing is
written when a check fails. Line versions and service orders are never rewritten: a new one takes
effect from its date. Places (a permit on a line) are moved only with the act that authorized it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from lotacao.audit.services import create_audited, record, snapshot
from lotacao.core.formats import br_date, lower_first
from lotacao.councils import gates
from lotacao.councils.models import Resolution
from lotacao.lines import busnet, checks
from lotacao.lines import law as lines_law
from lotacao.lines.geometry import valid_itinerary
from lotacao.lines.models import LineVersion, ServiceOrder, ServicePeriod, Stop
from lotacao.lines.selectors import orders_in_force, version_in_force
from lotacao.registry.models import Line, Vehicle


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _reason(reason: str) -> None:
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo (fica no histórico).")


def refuse(findings: list[checks.Finding], head: str, *, missing_too: bool = False) -> None:
    bad = [f for f in findings if f.severity == "error" or (missing_too and f.severity == "missing")]
    if bad:
        raise ValidationError([head, *(f.text() for f in bad)])


def _clean_stops(stops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for n, stop in enumerate(stops, start=1):
        name = str(stop.get("name", "")).strip()
        if not name:
            raise ValidationError(f"Dê um nome ao ponto {n}.")
        try:
            lat, lon = float(stop["lat"]), float(stop["lon"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValidationError(f"O ponto {name} não tem coordenadas válidas.") from error
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise ValidationError(f"O ponto {name} tem coordenadas fora do globo.")
        kind = stop.get("kind") or Stop.Kind.STOP
        if kind not in Stop.Kind.values:
            raise ValidationError(f"Tipo de ponto desconhecido: {kind}.")
        wheelchair = stop.get("wheelchair") or ""
        if wheelchair is True or wheelchair is False:
            wheelchair = Stop.Wheelchair.YES if wheelchair else Stop.Wheelchair.NO
        if wheelchair not in Stop.Wheelchair.values:
            raise ValidationError(f"Acessibilidade desconhecida no ponto {name}: {wheelchair}.")
        out.append({"name": name[:120], "lat": lat, "lon": lon, "kind": kind, "wheelchair": wheelchair})
    return out


@transaction.atomic
def draft_version(
    *,
    actor: Any,
    line: Line,
    shape: str,
    grounds: list[str],
    origin: str,
    destination: str,
    itinerary: Any,
    stops: list[dict[str, Any]],
    reason: str,
    region: str = "",
    description: str = "",
    study: str = "",
    on: dt.date | None = None,
) -> LineVersion:
    """A new version of the line (a draft until its approving act), checked against the law."""
    day = _today(on)
    _reason(reason)
    lines_law.require_lines(line.jurisdiction_id, day)
    if shape not in LineVersion.Shape.values:
        raise ValidationError(f"Tipo de linha desconhecido: {shape}.")
    try:
        coords = valid_itinerary(itinerary)
    except ValueError as error:
        raise ValidationError(str(error)) from error
    clean = _clean_stops(stops)
    if len(clean) < 2:
        raise ValidationError("Marque no mapa ao menos dois pontos (os terminais de origem e de destino).")
    code = line.jurisdiction_id
    findings = checks.version_findings(code, day, shape=shape, grounds=list(grounds), region=region)
    network = busnet.network_for(code)
    findings += checks.stop_findings(code, day, itinerary=coords, stops=clean, network=network)
    findings += checks.bus_road_findings(code, day, itinerary=coords, network=network)
    refuse(findings, f"Linha {line.code} recusada:")
    Line.unscoped.select_for_update().filter(pk=line.pk).first()  # numbers versions one at a time
    number = (LineVersion.unscoped.filter(line=line).aggregate(n=Max("number"))["n"] or 0) + 1
    version = create_audited(
        actor=actor,
        instance=LineVersion(
            jurisdiction_id=code,
            line=line,
            number=number,
            shape=shape,
            grounds=list(grounds),
            region=region.strip(),
            origin=origin.strip(),
            destination=destination.strip(),
            itinerary=coords,
            description=description.strip(),
            study=study.strip(),
            checks=[f.as_dict() for f in findings],
        ),
        reason=reason,
        action="line_version.drafted",
    )
    Stop.unscoped.bulk_create(
        [Stop(jurisdiction_id=code, version=version, sequence=n, **s) for n, s in enumerate(clean, start=1)]
    )
    return version


@transaction.atomic
def draft_from_request(*, actor: Any, request: Any, on: dt.date) -> LineVersion | None:
    """The draft version an approved change of itinerary or stops leads to (lines.life.decide).

    The request holds the change in words (`proposal`), not as a drawn itinerary: the draft
    copies the line's version in force on the change's date (or its latest approved one) — type,
    grounds, region, terminals, itinerary and stops — and carries the request's words in its
    description and its study, linked to the request; the clerk redraws what changes (a new
    version from this one) and approves it with the act. The law's checks are run and recorded
    as for any draft, not refused here: the approval refuses what fails (`approve_version`).
    Timetable and fleet changes are made by a service order, the creation of a line by its
    registration and first version, and the end of a line by `life.end_line`: none drafts here.
    None when the kind drafts nothing or the line has no approved version to start from."""
    from lotacao.lines.models import ChangeRequest

    kinds = (ChangeRequest.Kind.ITINERARY, ChangeRequest.Kind.STOPS)
    if request.kind not in kinds or request.line_id is None:
        return None
    line = Line.unscoped.get(pk=request.line_id)
    day = request.effective_on or on
    base = (
        version_in_force(line, day)
        or LineVersion.unscoped.filter(line=line, status=LineVersion.Status.APPROVED)
        .order_by("-number")
        .first()
    )
    if base is None:
        return None
    code = line.jurisdiction_id
    stops = list(Stop.unscoped.filter(version=base).order_by("sequence"))
    plain = [{"name": s.name, "lat": s.lat, "lon": s.lon} for s in stops]
    findings = checks.version_findings(code, day, shape=base.shape, grounds=base.grounds, region=base.region)
    network = busnet.network_for(code)
    findings += checks.stop_findings(code, day, itinerary=base.itinerary, stops=plain, network=network)
    findings += checks.bus_road_findings(code, day, itinerary=base.itinerary, network=network)
    asked = f"Pedido nº {request.number} ({lower_first(request.get_kind_display())}): {request.proposal}"
    description = f"{asked}\n\n{base.description}".strip() if base.description else asked
    Line.unscoped.select_for_update().filter(pk=line.pk).first()  # numbers versions one at a time
    number = (LineVersion.unscoped.filter(line=line).aggregate(n=Max("number"))["n"] or 0) + 1
    version = create_audited(
        actor=actor,
        instance=LineVersion(
            jurisdiction_id=code,
            line=line,
            number=number,
            shape=base.shape,
            grounds=list(base.grounds),
            region=base.region,
            origin=base.origin,
            destination=base.destination,
            itinerary=base.itinerary,
            description=description,
            study=(request.study or base.study)[:300],
            checks=[f.as_dict() for f in findings],
            change_request=request,
        ),
        reason=(
            f"Rascunho da versão {number} a partir da versão {base.number}, para o pedido nº "
            f"{request.number} aprovado ({request.act})."
        ),
        action="line_version.drafted",
    )
    Stop.unscoped.bulk_create(
        [
            Stop(
                jurisdiction_id=code,
                version=version,
                sequence=s.sequence,
                name=s.name,
                lat=s.lat,
                lon=s.lon,
                kind=s.kind,
                wheelchair=s.wheelchair,
            )
            for s in stops
        ]
    )
    return version


@transaction.atomic
def approve_version(
    *,
    actor: Any,
    version: LineVersion,
    act: str,
    approved_on: dt.date,
    valid_from: dt.date,
    reason: str,
    resolution: Resolution | None = None,
) -> LineVersion:
    """Record the approving act (CMTT resolution, EPT approval…): the version takes effect.

    Where the law submits the creation (version 1) or the change (later versions) of a line to a
    council (councils.gates: Recife art. 3º, § 1º; Esteio art. 26, parágrafo único), the
    council's `resolution` is required and cited in the act and the audit record; a version drafted
    from an approved change request (`draft_from_request`) cites, when none is given, the
    resolution that approved the request."""
    _reason(reason)
    version = LineVersion.unscoped.select_for_update().get(pk=version.pk)
    code = version.jurisdiction_id
    if version.status != LineVersion.Status.DRAFT:
        raise ValidationError(f"A versão {version.number} da linha {version.line.code} já foi aprovada.")
    if resolution is None and version.change_request_id is not None:
        resolution = version.change_request.resolution if version.change_request else None
    gate = "line.create" if version.number == 1 else "line.change"
    cited = gates.require(
        code, gate, approved_on, resolution, otherwise=f"A linha {version.line.code} continua rascunho."
    )
    if cited and not (act or "").strip():
        act = cited
    elif cited and cited not in act:
        act = f"{act.strip()} ({cited})"
    rule, citation = lines_law.approval(code, approved_on)
    body = rule.get("body", "órgão gestor")
    if not (act or "").strip():
        raise ValidationError(
            f"Informe o ato de aprovação ({rule.get('act', 'ato do órgão gestor')}): sem ele a linha "
            f"continua rascunho ({citation})."
        )
    if rule.get("study") and not version.study:
        raise ValidationError(
            f"A aprovação pelo {body} pede o estudo de viabilidade ou projeto técnico da linha, que não "
            f"foi informado ({citation})."
        )
    if valid_from < approved_on:
        raise ValidationError("A versão não pode vigorar antes da data do ato que a aprovou.")
    stops = [{"name": s.name, "lat": s.lat, "lon": s.lon} for s in Stop.unscoped.filter(version=version)]
    findings = checks.version_findings(
        code, valid_from, shape=version.shape, grounds=version.grounds, region=version.region
    )
    network = busnet.network_for(code)
    findings += checks.stop_findings(
        code, valid_from, itinerary=version.itinerary, stops=stops, network=network
    )
    findings += checks.bus_road_findings(code, valid_from, itinerary=version.itinerary, network=network)
    refuse(findings, f"A linha {version.line.code} não pode ser aprovada:", missing_too=True)
    before = snapshot(version)
    version.status = LineVersion.Status.APPROVED
    version.approval_act = act.strip()
    version.approval_body = body
    version.approved_on = approved_on
    version.valid_from = valid_from
    version.approved_by = actor if getattr(actor, "pk", None) else None
    version.checks = [f.as_dict() for f in findings]
    version.full_clean()
    version.save()
    record(
        actor=actor,
        action="line_version.approved",
        instance=version,
        reason=f"{reason} Aprovada pela {cited}." if cited else reason,
        before=before,
        after=snapshot(version),
    )
    return version


def period_data(raw: list[dict[str, Any]]) -> list[checks.PeriodData]:
    out = []
    for p in raw:
        headway = int(p["headway"]) if p.get("headway") else None
        departures = sorted(int(t) for t in p.get("departures") or [])
        first = int(p["first"]) if p.get("first") is not None else (departures[0] if departures else 0)
        last = int(p["last"]) if p.get("last") is not None else (departures[-1] if departures else 0)
        out.append(checks.PeriodData(str(p.get("day_type", "")), first, last, headway, departures))
    return out


def order_findings_for(
    line: Line, valid_from: dt.date, periods: list[checks.PeriodData], trip_minutes: int | None = None
) -> list[checks.Finding]:
    """The law's checks of a service order on `line` taking effect on `valid_from`."""
    code = line.jurisdiction_id
    version = version_in_force(line, valid_from)
    if version is None:
        return [
            checks.Finding(
                "version",
                "error",
                f"A linha {line.code} não tem versão aprovada em vigor em {br_date(valid_from)}",
            )
        ]
    return checks.order_findings(
        code,
        valid_from,
        grounds=version.grounds,
        periods=periods,
        itinerary=version.itinerary,
        network=busnet.network_for(code),
        trip_minutes=trip_minutes,
    )


@transaction.atomic
def issue_service_order(
    *,
    actor: Any,
    line: Line,
    periods: list[dict[str, Any]],
    fleet: int,
    trip_minutes: int,
    valid_from: dt.date,
    act: str,
    reason: str,
    kind: str = ServiceOrder.Kind.REGULAR,
    cause: str = "",
    valid_until: dt.date | None = None,
    vehicle_category: str = "",
    vehicles: list[Vehicle] | None = None,
    terminal_capacity: int | None = None,
    notes: str = "",
    both_directions: bool = False,
    resolution: Resolution | None = None,
) -> ServiceOrder:
    """Issue a new service order from `valid_from` (the previous ones stay as they were).

    A regular order that changes the fleet or the vehicle type of the line's order in force is,
    where the law says so (Recife art. 3º, § 1º: "a modificação do tipo e da quantidade de
    veículos"), the council's decision: its `resolution` is required and cited."""
    code = line.jurisdiction_id
    label = _check_order_input(line, valid_from, act, reason, kind, cause, valid_until, fleet, trip_minutes)
    vehicles = list(vehicles or [])
    _check_vehicles(line, vehicles, int(fleet), valid_from)
    data = period_data(periods)
    findings = order_findings_for(line, valid_from, data, int(trip_minutes))
    refuse(findings, f"{label} da linha {line.code} recusada:", missing_too=True)
    cited = None
    if kind == ServiceOrder.Kind.REGULAR and fleet_changes(line, valid_from, int(fleet), vehicle_category):
        cited = gates.require(
            code,
            "fleet.change",
            valid_from,
            resolution,
            otherwise=f"A {lower_first(label)} não foi emitida: a frota continua a da ordem em vigor.",
        )
    if cited:
        reason = f"{reason} Frota aprovada pela {cited}."
    Line.unscoped.select_for_update().filter(pk=line.pk).first()
    number = (ServiceOrder.unscoped.filter(line=line).aggregate(n=Max("number"))["n"] or 0) + 1
    order = create_audited(
        actor=actor,
        instance=ServiceOrder(
            jurisdiction_id=code,
            line=line,
            version=version_in_force(line, valid_from),
            number=number,
            kind=kind,
            cause=cause if kind == ServiceOrder.Kind.TEMPORARY else "",
            status=ServiceOrder.Status.ISSUED,
            valid_from=valid_from,
            valid_until=valid_until,
            act=act.strip(),
            issued_on=timezone.localdate(),
            fleet=int(fleet),
            vehicle_category=vehicle_category,
            terminal_capacity=terminal_capacity,
            trip_minutes=int(trip_minutes),
            both_directions=bool(both_directions),
            notes=notes.strip(),
            checks=[f.as_dict() for f in findings],
        ),
        reason=reason,
        action="service_order.issued",
    )
    _save_periods(order, data)
    if vehicles:
        order.vehicles.set(vehicles)
    return order


def fleet_changes(line: Line, valid_from: dt.date, fleet: int, vehicle_category: str) -> bool:
    """Whether a regular order from `valid_from` changes the quantity or type of the line's
    vehicles (no regular order in force: the line gets its fleet, a change of quantity)."""
    current = (
        orders_in_force(valid_from)
        .filter(line_id=line.pk, kind=ServiceOrder.Kind.REGULAR)
        .order_by("-valid_from", "-number")
        .first()
    )
    if current is None:
        return True
    return current.fleet != fleet or (current.vehicle_category or "") != (vehicle_category or "")


def _check_order_input(
    line: Line,
    valid_from: dt.date,
    act: str,
    reason: str,
    kind: str,
    cause: str,
    valid_until: dt.date | None,
    fleet: int,
    trip_minutes: int,
) -> str:
    """Refuse what no law allows in an order; the law's name for the order."""
    _reason(reason)
    lines_law.require_lines(line.jurisdiction_id, valid_from)
    label, citation = lines_law.service_order_label(line.jurisdiction_id, valid_from)
    if not (act or "").strip():
        raise ValidationError(f"Informe o ato que emite a {label.lower()} ({citation}).")
    if kind not in ServiceOrder.Kind.values:
        raise ValidationError(f"Espécie desconhecida: {kind}.")
    if kind == ServiceOrder.Kind.TEMPORARY and (valid_until is None or not cause):
        raise ValidationError("Uma ordem temporária precisa do motivo (evento, obras, paralisação) e do fim.")
    if int(fleet) < 1 or int(trip_minutes) < 1:
        raise ValidationError("Informe a frota operante e o tempo de viagem (maiores que zero).")
    return label


def _save_periods(order: ServiceOrder, data: list[checks.PeriodData]) -> None:
    ServicePeriod.unscoped.bulk_create(
        [
            ServicePeriod(
                jurisdiction_id=order.jurisdiction_id,
                order=order,
                day_type=p.day_type,
                first=p.first,
                last=p.last,
                headway=p.headway,
                departures=list(p.departures),
            )
            for p in data
        ]
    )


def _check_vehicles(line: Line, vehicles: list[Vehicle], fleet: int, on: dt.date) -> None:
    from lotacao.lines.selectors import vehicle_place

    if len(vehicles) > fleet:
        raise ValidationError(f"A ordem nomeia {len(vehicles)} veículos para uma frota de {fleet}.")
    for vehicle in vehicles:
        if vehicle.jurisdiction_id != line.jurisdiction_id:
            raise ValidationError(f"O veículo {vehicle.plate_display} é de outra jurisdição.")
        place = vehicle_place(vehicle, on)
        if place is None or place.line_id != line.pk:
            raise ValidationError(
                f"O veículo {vehicle.plate_display} não tem vaga na linha {line.code} em {br_date(on)}."
            )
