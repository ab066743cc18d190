"""Demo data of online requests (called by lotacao.demo.base after billing): in each municipal
jurisdiction two inspection slots the agency opened, and the demo holder's pending requests — an
inspection booking and, where the law lets it be asked now, the renewal of the permit. Every
request goes through the filing service, so a law that refuses (debts, a closed window) leaves
that request out. Idempotent: a holder who already has requests gets no more."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.accounts.models import HolderAccount
from lotacao.core.models import Jurisdiction
from lotacao.core.vehicle_verdict import has_permits
from lotacao.holder_requests import services
from lotacao.holder_requests.models import InspectionSlot, Request
from lotacao.permits.models import Permit
from lotacao.registry.models import Vehicle

REASON = "Dados de demonstração"


def _slots(jurisdiction: Jurisdiction, summary: Any) -> list[InspectionSlot]:
    existing = list(InspectionSlot.unscoped.filter(jurisdiction=jurisdiction, starts_at__gt=timezone.now()))
    if existing:
        summary.existing += len(existing)
        return existing
    base = timezone.localtime().replace(hour=9, minute=0, second=0, microsecond=0)
    slots = []
    for days in (7, 14):
        slots.append(
            InspectionSlot.objects.create(
                jurisdiction=jurisdiction,
                starts_at=base + dt.timedelta(days=days),
                place=f"Pátio de vistorias — {jurisdiction.official_name or jurisdiction.name}",
                capacity=4,
            )
        )
        summary.created += 1
    return slots


def load(today: dt.date, summary: Any) -> None:
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        if not has_permits(jurisdiction.code):
            continue
        slots = _slots(jurisdiction, summary)
        account = (
            HolderAccount.objects.select_related("holder", "user")
            .filter(user__username=f"permissionario.{jurisdiction.code}")
            .first()
        )
        if account is None or Request.unscoped.filter(holder=account.holder).exists():
            continue
        holder, user = account.holder, account.user
        vehicle = (
            Vehicle.unscoped.filter(holder=holder, deregistered_on__isnull=True).order_by("plate").first()
        )
        permit = Permit.unscoped.filter(holder=holder, status__in=Permit.LIVE).order_by("number").first()
        wanted: list[dict[str, Any]] = []
        if vehicle is not None:
            wanted.append({"kind": Request.Kind.INSPECTION, "vehicle": vehicle, "slot": slots[0]})
        if permit is not None:
            wanted.append({"kind": Request.Kind.RENEWAL, "permit": permit})
        for inputs in wanted:
            try:
                services.file_request(actor=user, holder=holder, statement=REASON, **inputs)
            except ValidationError:
                continue  # the law refuses it today (debts, the request window): not in the demo
            summary.created += 1
