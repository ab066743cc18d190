"""Clearance (quitação): unpaid fines and fees block the procedures each law says."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.billing import services
from lotacao.billing.models import Charge
from lotacao.billing.selectors import clearance

DAY = dt.date(2025, 6, 16)


def _charge(holder: Any, **kw: Any) -> Charge:
    args: dict[str, Any] = {
        "actor": None,
        "holder": holder,
        "kind": "fine",
        "description": "Auto de infração 123",
        "amount": "100.00",
        "due_on": DAY - dt.timedelta(days=10),
        "reason": "teste",
    }
    args.update(kw)
    return services.issue_charge(**args)


def test_overdue_fine_blocks_every_procedure_in_recife(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    _charge(holder)
    for procedure in ("grant", "renewal", "inspection", "document"):
        result = clearance(holder=holder, on=DAY, procedure=procedure)
        assert not result.clear
        assert "Lei Municipal 16.856/2003 (Recife), art. 26" in result.citations
        assert "R$\xa0100,00" in result.reasons[0]


def test_payment_clears_and_is_audited(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _charge(holder)
    services.record_payment(actor=None, charge=charge, paid_on=DAY, reason="guia paga")
    assert clearance(holder=holder, on=DAY + dt.timedelta(days=1), procedure="grant").clear
    assert AuditEvent.objects.filter(action="charge.paid", object_id=str(charge.pk)).exists()
    with pytest.raises(ValidationError, match="já paga"):
        services.record_payment(actor=None, charge=charge, paid_on=DAY, reason="de novo")


def test_not_yet_due_cancelled_or_contested_charges_do_not_block(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    _charge(holder, due_on=DAY + dt.timedelta(days=5))
    contested = _charge(holder)
    services.set_contested(actor=None, charge=contested, contested=True, reason="defesa apresentada")
    cancelled = _charge(holder)
    services.cancel_charge(actor=None, charge=cancelled, reason="anulada")
    assert clearance(holder=holder, on=DAY, procedure="grant").clear


def test_law_without_clearance_rule_does_not_block(world: Any) -> None:
    holder = world.objects["esteio"]["registry.holder"]
    _charge(holder)
    assert clearance(holder=holder, on=DAY, procedure="inspection").clear


def test_bad_charge_changes_nothing(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    before = Charge.objects.count()  # the shared world holds one charge per jurisdiction
    with pytest.raises(ValidationError):
        _charge(holder, amount="-5")
    with pytest.raises(ValidationError):
        _charge(holder, kind="doação")
    assert Charge.objects.count() == before
