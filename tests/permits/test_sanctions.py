"""Suspension, reinstatement and revocation (with its re-entry ban); transitions the state refuses."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.permits import services
from lotacao.permits.eligibility import check_eligibility
from lotacao.permits.models import Ban, Permit
from lotacao.permits.selectors import public_vehicle_info
from tests.permits.conftest import DAY, RECIFE, snapshot

# ------------------------------------------------------------------ revocation and its ban


def test_revocation_bans_reentry_for_five_years_in_recife(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j, on=dt.date(2022, 3, 12))
    services.revoke_permit(
        actor=None, permit=permit, reason="segunda reincidência G4", on=dt.date(2022, 3, 12)
    )
    ban = Ban.objects.get(permit=permit)
    assert ban.ends_on == dt.date(2027, 3, 12) and ban.citation == f"{RECIFE}, art. 37"
    application = services.apply_for_permit(actor=None, holder=permit.holder, reason="novo", applied_on=DAY)
    result = check_eligibility(holder=permit.holder, on=DAY, application=application)
    assert not result.eligible
    message = f"{result.reasons[0].message}, {result.reasons[0].citation}"
    assert (
        message == "CPF em período de impedimento até 12/03/2027 — cassação da permissão em 12/03/2022, "
        f"{RECIFE}, art. 37"
    )
    assert "13/03/2027" in result.reasons[0].unblock
    before = snapshot(application)
    with pytest.raises(ValidationError, match="impedimento até 12/03/2027"):
        services.grant_permit(
            actor=None,
            permit=application,
            line=make.line(j),
            vehicle=make.vehicle(j),
            reason="outorga",
            on=DAY,
        )
    assert snapshot(application) == before


# ------------------------------------------------------------------ suspension, revocation, state machine


def test_suspension_and_reinstatement(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    services.suspend_permit(
        actor=None, permit=permit, until=DAY + dt.timedelta(days=30), reason="pena", on=DAY
    )
    permit.refresh_from_db()
    assert permit.status == "suspended"
    assert public_vehicle_info(permit.vehicle, DAY)["authorized"] is False
    with pytest.raises(ValidationError, match="vai até 16/07/2025"):
        services.reinstate_permit(actor=None, permit=permit, reason="volta", on=DAY + dt.timedelta(days=10))
    services.reinstate_permit(actor=None, permit=permit, reason="cumprida", on=DAY + dt.timedelta(days=31))
    assert Permit.unscoped.get(pk=permit.pk).status == "active"


@pytest.mark.parametrize(
    "action",
    ["suspend", "reinstate", "revoke", "renew", "grant_again"],
)
def test_invalid_transitions_are_refused(make: Any, action: str) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    if action != "grant_again":
        services.revoke_permit(actor=None, permit=permit, reason="cassada", on=DAY)
    before = snapshot(permit)
    with pytest.raises(ValidationError, match=r"Não é possível .*: a permissão (foi cassada|está ativa)"):
        if action == "suspend":
            services.suspend_permit(
                actor=None, permit=permit, until=DAY + dt.timedelta(days=5), reason="x", on=DAY
            )
        elif action == "reinstate":
            services.reinstate_permit(actor=None, permit=permit, reason="x", on=DAY)
        elif action == "revoke":
            services.revoke_permit(actor=None, permit=permit, reason="x", on=DAY)
        elif action == "renew":
            services.renew_permit(actor=None, permit=permit, reason="x", requested_on=DAY, on=DAY)
        else:
            services.grant_permit(
                actor=None, permit=permit, line=permit.line, vehicle=permit.vehicle, reason="x", on=DAY
            )
    assert snapshot(permit) == before


def test_application_cannot_be_suspended(make: Any) -> None:
    j = make.jurisdiction("recife")
    application = services.apply_for_permit(actor=None, holder=make.holder(j), reason="req", applied_on=DAY)
    with pytest.raises(ValidationError, match="requerimento em análise"):
        services.suspend_permit(
            actor=None, permit=application, until=DAY + dt.timedelta(days=5), reason="x", on=DAY
        )
