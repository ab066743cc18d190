"""Tracker positions online to the EPTI (art. 14, IV): a company's tracker posts positions as JSON
or as GTFS Realtime VehiclePositions (gtfs-realtime-bindings); the agency sees the last position
and which vehicles stopped reporting after the silence it sets (`chartering.tracker_silence`).

A batch is all or nothing: one position of a vehicle outside the company's fleet, or out of range,
refuses the whole batch with the reason, and nothing is stored.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.chartering import rules
from lotacao.chartering.models import CharteringCompany, FleetVehicle, Position
from lotacao.core.validators import normalize_plate

MAX_BATCH = 5000


@dataclass(frozen=True)
class Fix:
    plate: str
    at: dt.datetime
    latitude: Decimal
    longitude: Decimal
    speed: Decimal | None = None


def _decimal(value: Any, what: str, low: int, high: int, number: int) -> Decimal:
    try:
        result = Decimal(str(value)).quantize(Decimal("0.000001"))
    except (InvalidOperation, ValueError) as error:
        raise ValidationError(f"Posição {number}: {what} inválida ({value}).") from error
    if not low <= result <= high:
        raise ValidationError(f"Posição {number}: {what} {value} fora do intervalo de {low} a {high}.")
    return result


def fixes_from_json(items: list[dict[str, Any]]) -> list[Fix]:
    """[{"plate": "ABC1D23", "at": ISO datetime with zone, "latitude": ..., "longitude": ..., "speed": km/h}]"""  # noqa: E501
    fixes = []
    for number, item in enumerate(items, start=1):
        try:
            at = dt.datetime.fromisoformat(str(item.get("at", "")))
        except ValueError as error:
            raise ValidationError(f"Posição {number}: data e hora inválidas ({item.get('at')}).") from error
        if timezone.is_naive(at):
            raise ValidationError(f"Posição {number}: informe o fuso horário da data e hora.")
        speed = item.get("speed")
        fixes.append(
            Fix(
                plate=str(item.get("plate", "")),
                at=at,
                latitude=_decimal(item.get("latitude"), "latitude", -90, 90, number),
                longitude=_decimal(item.get("longitude"), "longitude", -180, 180, number),
                speed=None if speed is None else _decimal(speed, "velocidade", 0, 400, number),
            )
        )
    return fixes


def fixes_from_gtfs_rt(payload: bytes) -> list[Fix]:
    """A GTFS Realtime FeedMessage: each VehiclePosition's vehicle.license_plate (or vehicle.id),
    position and timestamp (POSIX seconds); speed in m/s becomes km/h."""
    from google.protobuf.message import DecodeError
    from google.transit import gtfs_realtime_pb2

    feed = gtfs_realtime_pb2.FeedMessage()
    try:
        feed.ParseFromString(payload)
    except DecodeError as error:
        raise ValidationError("O corpo não é uma mensagem GTFS Realtime válida.") from error
    fixes = []
    for number, entity in enumerate(feed.entity, start=1):
        if not entity.HasField("vehicle"):
            continue
        vp = entity.vehicle
        if not vp.HasField("position") or not vp.timestamp:
            raise ValidationError(f"Posição {number}: sem coordenadas ou sem horário (timestamp).")
        plate = vp.vehicle.license_plate or vp.vehicle.id
        speed = Decimal(str(vp.position.speed * 3.6)) if vp.position.HasField("speed") else None
        fixes.append(
            Fix(
                plate=plate,
                at=dt.datetime.fromtimestamp(vp.timestamp, tz=dt.UTC),
                latitude=_decimal(vp.position.latitude, "latitude", -90, 90, number),
                longitude=_decimal(vp.position.longitude, "longitude", -180, 180, number),
                speed=None if speed is None else _decimal(speed, "velocidade", 0, 400, number),
            )
        )
    return fixes


@transaction.atomic
def record_positions(*, company: CharteringCompany, fixes: list[Fix]) -> int:
    """Store a batch of positions of the company's own fleet; repeated instants are ignored."""
    if not fixes:
        raise ValidationError("Nenhuma posição recebida.")
    if len(fixes) > MAX_BATCH:
        raise ValidationError(f"Envie no máximo {MAX_BATCH} posições por vez.")
    fleet = {
        e.vehicle.plate: e
        for e in FleetVehicle.unscoped.filter(company=company, removed_on__isnull=True).select_related(
            "vehicle"
        )
    }
    now = timezone.now()
    rows: list[Position] = []
    for number, fix in enumerate(fixes, start=1):
        try:
            plate = normalize_plate(fix.plate)
        except ValidationError as error:
            raise ValidationError(f"Posição {number}: {error.messages[0]}") from error
        if plate not in fleet:
            raise ValidationError(
                f"Posição {number}: a placa {fix.plate} não está na frota de fretamento da empresa."
            )
        if fix.at > now + dt.timedelta(minutes=5):
            raise ValidationError(f"Posição {number}: data e hora no futuro.")
        rows.append(
            Position(
                jurisdiction_id=company.jurisdiction_id,
                vehicle_id=fleet[plate].vehicle_id,
                recorded_at=fix.at,
                latitude=fix.latitude,
                longitude=fix.longitude,
                speed=fix.speed,
            )
        )
    Position.objects.bulk_create(rows, ignore_conflicts=True)
    latest: dict[str, Fix] = {}
    for fix in fixes:
        plate = normalize_plate(fix.plate)
        if plate not in latest or fix.at > latest[plate].at:
            latest[plate] = fix
    for plate, fix in latest.items():
        entry = fleet[plate]
        if entry.last_position_at is None or fix.at > entry.last_position_at:
            FleetVehicle.unscoped.filter(pk=entry.pk).update(
                last_position_at=fix.at, last_latitude=fix.latitude, last_longitude=fix.longitude
            )
    return len(rows)


def silence_minutes(code: str, on: dt.date) -> int | None:
    found = rules.value(code, "chartering.tracker_silence", on)
    return int(found) if found is not None else None


def is_silent(entry: FleetVehicle, now: dt.datetime, minutes: int | None) -> bool | None:
    """True when the tracker stopped reporting for longer than the agency's silence; None when the
    agency has not set it."""
    if minutes is None:
        return None
    return entry.last_position_at is None or now - entry.last_position_at > dt.timedelta(minutes=minutes)
