"""LGPD for passenger lists (Lei 13.709/2018): who may open them, the audit of every opening, and
the purge after the period the agency sets (`chartering.passenger_list_retention`).

The law asks for the list (art. 21, IV, a) but not how long to keep it; until the agency sets the
period nothing is purged (and the screens say so). The purge deletes the names, keeps the trip and
its passenger count, and writes one audit event per trip.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q

from lotacao.audit.services import record
from lotacao.chartering import permissions, rules
from lotacao.chartering.models import Passenger, Trip
from lotacao.core.models import Jurisdiction

PURGE_BATCH = 500


def open_list(*, user: Any, access: Any, trip: Trip, channel: str = "tela") -> list[Passenger]:
    """The trip's passengers for someone who may see them; the opening is audited (who, when, how)."""
    if not permissions.can_see_passengers(access, trip.company):
        raise PermissionDenied(
            "Lista de passageiros: somente a empresa, os fiscais e os gestores podem vê-la (dados pessoais)."
        )
    record(
        actor=user,
        action="chartering.passenger_list_opened",
        instance=trip,
        reason=f"Consulta da lista de passageiros ({channel}): {trip.passenger_count} nomes",
    )
    return list(Passenger.unscoped.filter(trip=trip).order_by("position"))


def _folded(text: str) -> str:
    """Lower case without accents and separators: "José" finds "JOSE", "123.456" finds "123456"."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    return "".join(ch for ch in plain if ch.isalnum() or ch == " ")


def search(passengers: list[Passenger], query: str) -> list[Passenger]:
    """The passengers whose name or document holds every word of `query` (accents, case and
    punctuation ignored) — the inspector checking one person against a list of 40 on a phone."""
    words = _folded(query).split()
    if not words:
        return passengers
    return [p for p in passengers if all(w in _folded(f"{p.name} {p.document}") for w in words)]


def retention(code: str, on: dt.date) -> dict[str, int] | None:
    found = rules.value(code, "chartering.passenger_list_retention", on)
    return dict(found) if found else None


def purge(*, today: dt.date) -> dict[str, int]:
    """Delete the names of the lists whose retention ran out (trip back + the agency's period)."""
    trips = lists = 0
    for code in Jurisdiction.unscoped.values_list("code", flat=True):
        if not rules.regulates_chartering(code):
            continue
        period = retention(code, today)
        if period is None:
            continue
        limit = today - relativedelta(**period)  # type: ignore[arg-type]
        due = Trip.unscoped.filter(jurisdiction_id=code, list_purged_on__isnull=True).filter(
            Q(returns_at__date__lt=limit) | Q(returns_at__isnull=True, departs_at__date__lt=limit)
        )
        cite = rules.citation(code, "chartering.passenger_list_retention", today)
        while True:
            batch = list(due.values_list("pk", "passenger_count")[:PURGE_BATCH])
            if not batch:
                break
            with transaction.atomic():
                ids = [pk for pk, _ in batch]
                lists += Passenger.unscoped.filter(trip_id__in=ids).delete()[0]
                Trip.unscoped.filter(pk__in=ids).update(list_purged_on=today)
                for trip in Trip.unscoped.filter(pk__in=ids).only(
                    "pk", "jurisdiction_id", "origin", "destination", "departs_at"
                ):
                    record(
                        actor=None,
                        action="chartering.passenger_list_purged",
                        instance=trip,
                        reason=f"Lista de passageiros eliminada: prazo de guarda fixado pelo órgão vencido ({cite})",  # noqa: E501
                    )
                trips += len(ids)
    return {"viagens": trips, "passageiros": lists}
