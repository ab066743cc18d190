"""Chartering and billing (which sits below): the company's billing register follows its CRC, and
the monthly FUSP-F counts the vehicles with a traffic authorization.

- The CRC's issue enrols the company with the CRC's modalities (`open_account(...,
  modalities=[...])`; a renewal updates them); its cancellation or cassação closes the register
  the day before the sanction starts, so the months after owe no FUSP-F.
- FUSP-F (Lei 15.177/2013, Anexo I, in the wording of Lei 16.205/2017; art. 21, § 3º: the traffic
  card): the number of vehicles of each company's live fleet on the day that hold a traffic
  authorization (the yearly inspection's seal, art. 9º) — answered to billing's planner through
  the seam `fee_vehicles`; a vehicle without one is not counted.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q

from lotacao.billing.ledger.models import Account
from lotacao.billing.ledger.services import close_account, open_account, set_account_modalities
from lotacao.chartering import rules
from lotacao.chartering.models import CharteringCompany, Crc, FleetVehicle
from lotacao.inspections.models import Seal


def enrol(*, actor: Any, crc: Crc, on: dt.date, reason: str) -> None:
    """Open (or reopen) the company's billing register with the CRC's modalities."""
    holder = crc.company.holder
    account = Account.unscoped.filter(holder=holder).first()
    if account is not None and account.closed_on is None:
        set_account_modalities(actor=actor, holder=holder, modalities=list(crc.modalities), reason=reason)
        return
    open_account(actor=actor, holder=holder, on=on, reason=reason, modalities=list(crc.modalities))


def leave(*, actor: Any, company: CharteringCompany, starts_on: dt.date, reason: str) -> None:
    """Close the register the day before a cancellation or cassação starts."""
    account = Account.unscoped.filter(holder_id=company.holder_id, closed_on__isnull=True).first()
    if account is None:
        return
    last = max(starts_on - dt.timedelta(days=1), account.opened_on)
    close_account(actor=actor, holder=company.holder, on=last, reason=reason)


def authorized_vehicles(code: str, on: dt.date) -> dict[int, int] | None:
    """{holder id: vehicles of the live fleet with a traffic authorization on `on`}, or None
    where the jurisdiction's law has no chartering."""
    if not rules.regulates_chartering(code):
        return None
    sealed = Seal.unscoped.filter(vehicle_id=OuterRef("vehicle_id"), issued_on__lte=on, valid_until__gte=on)
    rows = (
        FleetVehicle.unscoped.filter(jurisdiction_id=code, added_on__lte=on)
        .filter(Q(removed_on__isnull=True) | Q(removed_on__gt=on))
        .filter(Exists(sealed))
        .values("company__holder_id")
        .annotate(n=Count("vehicle_id", distinct=True))
    )
    return {row["company__holder_id"]: row["n"] for row in rows}
