"""What starts and ends with a permit besides the permit itself.

- The holder's billing register (billing sits below permits): opened at the grant, so the monthly
  run bills the holder from then; closed when the holder's last live permit ends (revocation,
  expiry, withdrawal, transfer), so nothing is billed for the months after.
- The permit's place on its line (lines sits above permits): asked through the seam
  `permit_lifecycle` (lotacao.core.providers). A refusal there (Maricá's one line per vehicle, one
  place per permit, a line without an approved version) raises, and the caller's transaction — the
  grant — is undone.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.billing.ledger.models import Account
from lotacao.billing.ledger.services import close_account, open_account
from lotacao.core.providers import providers
from lotacao.permits.models import Permit


def permit_started(*, actor: Any, permit: Permit, on: dt.date, act: str, reason: str, what: str) -> None:
    """The permit is in force from `on` (`what`: "A outorga", "A transferência"… for refusals)."""
    _enrol(actor=actor, permit=permit, on=on, reason=reason)
    for _name, hook in providers("permit_lifecycle"):
        try:
            hook(event="started", actor=actor, permit=permit, on=on, act=act, reason=reason)
        except ValidationError as error:
            raise ValidationError(f"{what} não foi feita: {' '.join(error.messages)}") from error


def permit_ended(*, actor: Any, permit: Permit, on: dt.date, reason: str) -> None:
    """The permit ended on `on`: its place on the line ends, and the billing register closes
    when the holder keeps no other live permit."""
    for _name, hook in providers("permit_lifecycle"):
        hook(event="ended", actor=actor, permit=permit, on=on, act="", reason=reason)
    others = (
        Permit.unscoped.filter(holder_id=permit.holder_id, status__in=Permit.LIVE)
        .exclude(pk=permit.pk)
        .exclude(valid_until__lt=on)
    )
    if others.exists():
        return
    account = Account.unscoped.filter(holder_id=permit.holder_id, closed_on__isnull=True).first()
    if account is None:
        return  # never enrolled (a register from before billing) or already closed
    close_account(actor=actor, holder=permit.holder, on=max(on, account.opened_on), reason=reason)


def _enrol(*, actor: Any, permit: Permit, on: dt.date, reason: str) -> None:
    account = Account.unscoped.filter(holder_id=permit.holder_id).first()
    if account is not None and account.closed_on is None:
        return  # enrolled already (another permit of the same holder)
    open_account(actor=actor, holder=permit.holder, on=on, reason=reason)
