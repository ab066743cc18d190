"""Demo delegation: where the law has the delegation contract (Esteio, read from the pack), the
contract of the first active permit with each essential clause, and a caducidade inquiry just
opened (the notification waits for the agency's defense deadline, a value the law leaves open).
Idempotent: a jurisdiction that already has contracts is left as it is."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core.models import Jurisdiction
from lotacao.delegation import rules, services
from lotacao.delegation.models import Contract
from lotacao.permits.models import Permit


def load(today: dt.date, summary: Any) -> None:
    for j in Jurisdiction.objects.filter(active=True).order_by("code"):
        if not rules.applies(j.code, today):
            continue
        if Contract.unscoped.filter(jurisdiction=j).exists():
            summary.existing += 1
            continue
        permit = (
            Permit.unscoped.filter(jurisdiction=j, status=Permit.Status.ACTIVE, granted_on__isnull=False)
            .order_by("pk")
            .first()
        )
        if permit is None or permit.granted_on is None:
            continue
        clauses = {
            k: f"Cláusula do contrato sobre {v}." for k, v in rules.clauses(j.code, permit.granted_on).items()
        }
        contract = services.record_contract(
            actor=None,
            permit=permit,
            number=f"CT-001/{permit.granted_on.year}",
            signed_on=permit.granted_on,
            clauses=clauses,
            reason="Demonstração: contrato assinado na outorga",
        )
        services.open_inquiry(
            actor=None,
            contract=contract,
            number=f"INQ-001/{today.year}",
            opening_act=f"Portaria de demonstração nº 1/{today.year}",
            facts="Reiteração de faltas graves: viagens suprimidas em dias úteis, registradas pela "
            "fiscalização.",
            on=today,
        )
