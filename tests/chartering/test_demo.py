"""Pernambuco's demo: companies in several modalities and every CRC state, leased vehicles, today's
trips with their lists and a 7-seat authorization pending."""

from __future__ import annotations

import datetime as dt
from io import StringIO
from typing import Any

from django.core.management import call_command
from django.utils import timezone

from lotacao.chartering.models import CharteringCompany, FleetVehicle, Trip
from lotacao.chartering.status import states


def test_the_demo_tells_the_states_a_chartering_agency_meets(db: Any) -> None:
    call_command("load_demo", "--quiet-logins", stdout=StringIO())
    today = timezone.localdate()
    companies = list(CharteringCompany.objects.filter(jurisdiction_id="pernambuco"))
    found = states(companies, today)
    statuses = sorted(s.status for s in found.values())
    assert statuses == ["cancelled", "none", "suspended", "valid", "valid"]
    assert any(
        s.crc and s.status == "valid" and s.crc.valid_until <= today + dt.timedelta(days=30)
        for s in found.values()
    )
    modalities = {m for s in found.values() for m in s.modalities}
    assert {"eventual", "tourism", "continuous", "own"} <= modalities
    assert FleetVehicle.objects.filter(tenure="leased", lessor_same_group=True).exists()
    assert FleetVehicle.objects.filter(tenure="leased", lessor_same_group=False).exists()
    assert Trip.objects.filter(passenger_count=40, status=Trip.Status.DECLARED).exists()
    assert Trip.objects.filter(vehicle__category="car7", status=Trip.Status.AWAITING).exists()
    account = CharteringCompany.objects.filter(holder__account__user__username="permissionario.pernambuco")
    assert account.exists() and found[account.get().pk].status == "valid"
    out = StringIO()
    call_command("load_demo", "--quiet-logins", stdout=out)
    assert "0 registros criados" in out.getvalue()
