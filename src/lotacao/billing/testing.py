"""Objects the shared test `world` needs for the billing URLs (tests/conftest.py): in each
jurisdiction a charge of the first holder, a declaration, a run, a bank import, a queued credit, a fare, a
readjustment and a fare study."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from lotacao.billing.models import (
    BankImport,
    BillingRun,
    Charge,
    DemandDeclaration,
    FareAct,
    FareStudy,
    Payment,
    Readjustment,
    ReconciliationItem,
)


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    month = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        holder, line = objects["registry.holder"], objects["registry.line"]
        objects["billing.charge"] = Charge.objects.create(
            jurisdiction=jurisdiction,
            holder=holder,
            kind="fee",
            description="Taxa de teste",
            amount=Decimal("10.00"),
            due_on=today + dt.timedelta(days=10),
        )
        objects["billing.demanddeclaration"] = DemandDeclaration.objects.create(
            jurisdiction=jurisdiction,
            holder=holder,
            line=line,
            month=month,
            full_passengers=100,
            source="permissionario",
        )
        objects["billing.billingrun"] = BillingRun.objects.create(jurisdiction=jurisdiction, period=month)
        objects["billing.bankimport"] = BankImport.objects.create(
            jurisdiction=jurisdiction,
            filename="extrato.csv",
            sha256="0" * 64,
            report={"matched": [], "unmatched": [], "duplicates": []},
        )
        objects["billing.reconciliationitem"] = ReconciliationItem.objects.create(
            jurisdiction=jurisdiction,
            source="csv",
            bank_id=f"teste-{jurisdiction.code}",
            bank_import=objects["billing.bankimport"],
            paid_on=today,
            amount=Decimal("12.00"),
            reason="nenhuma guia em aberto com o código informado",
        )
        study = FareStudy.objects.create(jurisdiction=jurisdiction, title=f"Estudo de {jurisdiction.name}")
        objects["billing.farestudy"] = study
        objects["billing.fareact"] = FareAct.objects.create(
            jurisdiction=jurisdiction,
            line=line,
            valid_from=month,
            amount=Decimal("4.00"),
            act="Decreto de teste",
        )
        objects["billing.readjustment"] = Readjustment.objects.create(
            jurisdiction=jurisdiction, valid_from=month, percent=Decimal("5"), act="Decreto de teste"
        )
        paid = Charge.objects.create(
            jurisdiction=jurisdiction,
            holder=holder,
            kind="fee",
            description="Taxa paga de teste",
            amount=Decimal("25.50"),
            due_on=month,
            paid_on=month,
        )
        objects["billing.payment"] = Payment.objects.create(
            jurisdiction=jurisdiction,
            charge=paid,
            paid_on=month,
            amount=Decimal("25.50"),
            method=Payment.Method.COUNTER,
            reference=f"REC-{jurisdiction.code}",
        )
