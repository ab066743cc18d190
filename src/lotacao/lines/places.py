"""Permit places on lines: assign, move (only with the authorizing act), end, and record trips.

One open place per permit (a database constraint); one line per holder where the law says so
(`permit.one_line_per_holder`: Recife art. 2, § 5º; Cabo art. 18, p.ú.; Maricá art. 6, § 4º) and
one line per vehicle (`lines.one_line_per_vehicle`: Maricá art. 6, § 3º). A move to another line
needs the act of the body the law names (`lines.place_transfer`: Recife Anexo Único, G4-b; Esteio
Anexo II, IV-03; Cabo art. 18; Maricá art. 42, X).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.lines import law as lines_law
from lotacao.lines.models import Place
from lotacao.lines.selectors import version_in_force
from lotacao.permits.rules import add
from lotacao.registry.models import Line, Vehicle

LIVE_PERMIT = ("active", "suspended")


def _open_places(on: dt.date) -> Any:
    return Place.unscoped.filter(starts_on__lte=on).filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))


def _check(permit: Any, line: Line, vehicle: Vehicle | None, on: dt.date, exclude: int | None = None) -> None:
    code = permit.jurisdiction_id
    lines_law.require_lines(code, on)
    if line.jurisdiction_id != code or (vehicle is not None and vehicle.jurisdiction_id != code):
        raise ValidationError("A linha e o veículo devem ser da jurisdição da permissão.")
    if permit.status not in LIVE_PERMIT:
        raise ValidationError(
            f"A permissão {permit} não está vigente ({lower_first(permit.get_status_display())})."
        )
    if version_in_force(line, on) is None:
        raise ValidationError(f"A linha {line.code} não tem versão aprovada em vigor em {br_date(on)}.")
    others = _open_places(on).exclude(pk=exclude) if exclude else _open_places(on)
    one_line = lines_law.entry(code, "permit.one_line_per_holder", on)
    if one_line is not None and one_line.value:
        clash = (
            others.filter(permit__holder_id=permit.holder_id)
            .exclude(line=line)
            .select_related("line")
            .first()
        )
        if clash is not None:
            raise ValidationError(
                f"O permissionário já tem vaga na linha {clash.line.code}: cada permissionário opera "
                f"apenas uma linha ({one_line.citation})."
            )
    per_vehicle = lines_law.entry(code, "lines.one_line_per_vehicle", on)
    if vehicle is not None and per_vehicle is not None and per_vehicle.value:
        clash = others.filter(vehicle=vehicle).exclude(line=line).select_related("line").first()
        if clash is not None:
            raise ValidationError(
                f"O veículo {vehicle.plate_display} já opera a linha {clash.line.code}: o veículo só pode "
                f"operar em uma linha ({per_vehicle.citation})."
            )


@transaction.atomic
def assign_place(
    *,
    actor: Any,
    permit: Any,
    line: Line,
    starts_on: dt.date,
    reason: str,
    act: str = "",
    vehicle: Vehicle | None = None,
) -> Place:
    """The permit's place on `line` from `starts_on` (the authorization; Maricá counts 30 days from it)."""
    vehicle = vehicle if vehicle is not None else permit.vehicle
    if Place.unscoped.filter(permit_id=permit.pk, ends_on__isnull=True).exists():
        raise ValidationError(
            f"A permissão {permit} já tem vaga em linha: cada permissão ocupa uma única vaga; para "
            "mudar de linha, registre a transferência com o ato que a autorizou."
        )
    _check(permit, line, vehicle, starts_on)
    return create_audited(
        actor=actor,
        instance=Place(
            jurisdiction_id=permit.jurisdiction_id,
            permit=permit,
            line=line,
            vehicle=vehicle,
            starts_on=starts_on,
            act=act.strip(),
        ),
        reason=reason,
        action="place.assigned",
    )


@transaction.atomic
def move_place(*, actor: Any, place: Place, line: Line, on: dt.date, act: str, reason: str) -> Place:
    """Move the permit (and its vehicle) to another line from `on`, with the authorizing act."""
    place = Place.unscoped.select_for_update().get(pk=place.pk)
    code = place.jurisdiction_id
    transfer = lines_law.entry(code, "lines.place_transfer", on)
    who = transfer.value if transfer is not None and transfer.status == "value" else "órgão gestor"
    citation = f" ({transfer.citation})" if transfer is not None else ""
    if not (act or "").strip():
        raise ValidationError(
            f"Passar o veículo para outra linha exige autorização prévia e expressa ({who}): informe o "
            f"ato{citation}."
        )
    if place.ends_on is not None:
        raise ValidationError("Esta vaga já foi encerrada.")
    if place.line_id == line.pk:
        raise ValidationError(f"A permissão já está na linha {line.code}.")
    if on <= place.starts_on:
        raise ValidationError(f"A mudança deve ser posterior ao início da vaga ({br_date(place.starts_on)}).")
    _check(place.permit, line, place.vehicle, on, exclude=place.pk)
    update_audited(
        actor=actor,
        instance=place,
        changes={"ends_on": on - dt.timedelta(days=1)},
        reason=reason,
        action="place.moved",
    )
    return create_audited(
        actor=actor,
        instance=Place(
            jurisdiction_id=code,
            permit=place.permit,
            line=line,
            vehicle=place.vehicle,
            starts_on=on,
            act=act.strip(),
            first_trip_on=None,
        ),
        reason=reason,
        action="place.assigned",
    )


@transaction.atomic
def end_place(*, actor: Any, place: Place, on: dt.date, reason: str) -> Place:
    place = Place.unscoped.select_for_update().get(pk=place.pk)
    if place.ends_on is not None:
        raise ValidationError("Esta vaga já foi encerrada.")
    if on < place.starts_on:
        raise ValidationError(f"A vaga começou em {br_date(place.starts_on)}.")
    return update_audited(
        actor=actor, instance=place, changes={"ends_on": on}, reason=reason, action="place.ended"
    )


@transaction.atomic
def record_trips(*, actor: Any, place: Place, on: dt.date, reason: str) -> Place:
    """The permit operated its line on `on` (start of trips; last operation seen)."""
    place = Place.unscoped.select_for_update().get(pk=place.pk)
    if on < place.starts_on or (place.ends_on is not None and on > place.ends_on):
        raise ValidationError(f"Em {br_date(on)} a permissão não tinha esta vaga.")
    changes: dict[str, Any] = {}
    if place.first_trip_on is None or on < place.first_trip_on:
        changes["first_trip_on"] = on
    if place.last_trip_on is None or on > place.last_trip_on:
        changes["last_trip_on"] = on
    if not changes:
        return place
    return update_audited(
        actor=actor, instance=place, changes=changes, reason=reason, action="place.trips_recorded"
    )


def start_deadline(code: str, authorized_on: dt.date) -> tuple[dt.date | None, str]:
    """The last day to start trips (Maricá art. 6, § 5º, II), or None where the law sets none."""
    found = lines_law.entry(code, "lines.start_deadline", authorized_on)
    if found is None or found.status != "value":
        return None, ""
    return add(authorized_on, found.value), str(found.citation)


def unused_limit(code: str, since: dt.date) -> tuple[dt.date | None, str]:
    """The last day a permit may go unused since `since` (Esteio Anexo II, V-01), or None."""
    found = lines_law.entry(code, "lines.unused_permit", since)
    if found is None or found.status != "value":
        return None, ""
    return add(since, found.value), str(found.citation)
