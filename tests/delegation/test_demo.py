"""The demo: Esteio (the law with the delegation contract) has a contract with every essential
clause and an inquiry just opened; the other laws none; a second run adds nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command

from lotacao.delegation import services
from lotacao.delegation.models import Contract, Inquiry


def test_the_demo_has_esteios_delegation(db: Any) -> None:
    call_command("load_demo", stdout=StringIO())
    contract = Contract.objects.get()
    assert contract.jurisdiction_id == "esteio" and services.missing_clauses(contract) == []
    assert Inquiry.objects.get().status == Inquiry.Status.OPENED
    call_command("load_demo", stdout=StringIO())
    assert Contract.objects.count() == 1 and Inquiry.objects.count() == 1
