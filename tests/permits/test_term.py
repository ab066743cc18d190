"""The permit's term: renewal as each law allows it, and the automatic expiry the job records."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.councils.testing import resolution_for
from lotacao.permits import services
from lotacao.permits.selectors import active_permit_for_vehicle, public_vehicle_info
from tests.permits.conftest import DAY, snapshot

# ------------------------------------------------------------------ renewal


def test_recife_renews_once_with_cmtt_approval(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    later = dt.date(2031, 1, 10)
    with pytest.raises(ValidationError, match=r"aprovação do CMTT/Recife .*art\. 2º\)\. Informe a resolução"):
        services.renew_permit(actor=None, permit=permit, reason="prorrogar", requested_on=later, on=later)
    approved = resolution_for("recife", "permit.renew", later)
    with pytest.raises(ValidationError, match=r"aprovação do CMTT/Recife.*ouvidos os usuários .*art\. 2º"):
        services.renew_permit(
            actor=None, permit=permit, reason="prorrogar", requested_on=later, on=later, resolution=approved
        )
    services.renew_permit(
        actor=None,
        permit=permit,
        reason="prorrogar",
        requested_on=later,
        on=later,
        users_heard=True,
        resolution=approved,
    )
    permit.refresh_from_db()
    assert permit.valid_until == dt.date(2037, 6, 15) and permit.renewals == 1
    event = AuditEvent.objects.filter(action="permit.renewed").latest("pk")
    assert "Resolução nº 1/2031 do CMTT/Recife, de 10/01/2031" in event.reason
    before = snapshot(permit)
    with pytest.raises(ValidationError, match=r"já foi prorrogada 1 vez.*uma única prorrogação .*art\. 2º"):
        services.renew_permit(
            actor=None,
            permit=permit,
            reason="de novo",
            requested_on=later,
            on=later,
            users_heard=True,
            resolution=resolution_for("recife", "permit.renew", later),
        )
    assert snapshot(permit) == before


def test_esteio_renewal_request_deadline(make: Any) -> None:
    j = make.jurisdiction("esteio")
    permit = make.permit(j)
    assert permit.valid_until == dt.date(2040, 6, 15)
    late = dt.date(2040, 1, 2)
    with pytest.raises(ValidationError, match=r"devia ser feito até 15/12/2039, 6 meses antes .*art\. 41"):
        services.renew_permit(actor=None, permit=permit, reason="prorrogar", requested_on=late, on=late)
    services.renew_permit(
        actor=None, permit=permit, reason="prorrogar", requested_on=dt.date(2039, 12, 15), on=late
    )
    permit.refresh_from_db()
    assert permit.valid_until == dt.date(2055, 6, 15)


# ------------------------------------------------------------------ expiry


def test_expiry_is_automatic_and_recorded_by_the_job(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j, on=dt.date(2018, 1, 10))
    assert permit.effective_status(DAY) == "expired"
    assert active_permit_for_vehicle(permit.vehicle, DAY) is None
    info = public_vehicle_info(permit.vehicle, DAY)
    assert info["authorized"] is False and info["permit_status"] == "Vencida"
    from django.core.management import call_command

    call_command("expire_permits", "--date", DAY.isoformat())
    permit.refresh_from_db()
    assert permit.status == "expired"
    assert AuditEvent.objects.filter(action="permit.expired", object_id=str(permit.pk)).exists()
