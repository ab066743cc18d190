"""Separation of duties in the monthly run (issue 24, defect 13): the same manager simulated,
approved and executed it. Where the agency separates the steps (its jurisdiction's setting, on by
default), the approval is someone else's: the refusal is in Portuguese, changes nothing and is
audited; with the setting off, one manager may do both."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.accounts.models import StaffMembership, User
from lotacao.audit.models import AuditEvent
from lotacao.billing.runs import services as runs
from lotacao.billing.runs.models import BillingRun
from lotacao.core.models import Jurisdiction
from tests.billing.test_monthly_run import FEB, _recife_january


@pytest.fixture
def planned(world: Any, agency: Any) -> BillingRun:
    _recife_january(world)
    agency("recife", "fee.base.management", dt.date(2026, 1, 1), {"method": "passengers_x_fare"})
    agency("recife", "fee.due_day.management", dt.date(2026, 1, 1), 15)
    manager = world.users["gestor.recife"]
    run = runs.simulate(actor=manager, jurisdiction=world.a, period=FEB, reason="simulação")
    assert run.status == BillingRun.Status.PLANNED
    return run


def _second_manager() -> User:
    user = User.objects.create_user("gestora2.recife", password="senha-de-teste-123")
    StaffMembership.objects.create(user=user, jurisdiction_id="recife", role="gestor")
    return user


def test_the_manager_who_simulated_may_not_approve(world: Any, planned: BillingRun) -> None:
    assert Jurisdiction.objects.get(code="recife").separate_billing_steps  # on by default
    with pytest.raises(ValidationError, match="Quem simulou o faturamento não pode aprová-lo"):
        runs.approve(actor=world.users["gestor.recife"], run=planned, reason="conferido")
    planned.refresh_from_db()
    assert planned.status == BillingRun.Status.PLANNED and planned.approved_by is None
    refusal = AuditEvent.objects.get(action="separation_of_duties.refused", object_id=str(planned.pk))
    assert refusal.actor_label == "gestor.recife" and "outro gestor" in refusal.reason


def test_another_manager_approves_and_the_run_executes(world: Any, planned: BillingRun) -> None:
    other = _second_manager()
    run = runs.approve(actor=other, run=planned, reason="conferido")
    assert run.status == BillingRun.Status.APPROVED and run.approved_by == other
    runs.execute(actor=world.users["gestor.recife"], run=run, reason="execução")
    run.refresh_from_db()
    assert run.status == BillingRun.Status.DONE


def test_with_the_setting_off_one_manager_does_both(world: Any, planned: BillingRun) -> None:
    Jurisdiction.objects.filter(code="recife").update(separate_billing_steps=False)
    run = runs.approve(actor=world.users["gestor.recife"], run=planned, reason="conferido")
    assert run.status == BillingRun.Status.APPROVED
    assert not AuditEvent.objects.filter(action="separation_of_duties.refused").exists()


def test_the_screen_says_why_in_portuguese(world: Any, planned: BillingRun, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    page = client.get(f"/cobranca/faturamento/{planned.pk}/").content.decode()
    assert 'disabled aria-describedby="approve-blocked"' in page and "outro gestor" in page
    response = client.post(f"/cobranca/faturamento/{planned.pk}/", {"aprovar": "1"}, follow=True)
    assert "Quem simulou o faturamento não pode aprová-lo" in response.content.decode()
    planned.refresh_from_db()
    assert planned.status == BillingRun.Status.PLANNED
