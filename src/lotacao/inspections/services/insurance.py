"""Insurance policies, checked against the minimum cover of the law in force when they start."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited
from lotacao.inspections import rules
from lotacao.inspections.models import COVERAGES, InsurancePolicy
from lotacao.registry.models import Vehicle


@transaction.atomic
def register_insurance(
    *,
    actor: Any,
    vehicle: Vehicle,
    insurer: str,
    number: str,
    valid_from: dt.date,
    valid_until: dt.date,
    reason: str,
    civil_liability: Decimal | None = None,
    death_per_passenger: Decimal | None = None,
    disability_per_passenger: Decimal | None = None,
    third_party: Decimal | None = None,
) -> InsurancePolicy:
    """Record a policy, checked against the minimum cover of the law in force when it starts."""
    if valid_until < valid_from:
        raise ValidationError("O fim da vigência da apólice é anterior ao início.")
    if not insurer.strip() or not number.strip():
        raise ValidationError("Informe a seguradora e o número da apólice.")
    cover = {
        "civil_liability": civil_liability,
        "death_per_passenger": death_per_passenger,
        "disability_per_passenger": disability_per_passenger,
        "third_party": third_party,
    }
    given = {k: f"{Decimal(v):.2f}" for k, v in cover.items() if v is not None}
    result = rules.assess(vehicle.jurisdiction_id, "keep", valid_from, vehicle, insurance=given)
    problems = [v for v in result["violations"] if v["rule"] == "insurance"]
    if problems:
        raise ValidationError(
            ["Apólice abaixo das coberturas mínimas da lei:"]
            + [f"{v['message']} ({v['citation']})" for v in problems]
        )
    policy = InsurancePolicy(
        jurisdiction_id=vehicle.jurisdiction_id,
        vehicle=vehicle,
        insurer=insurer.strip(),
        number=number.strip(),
        valid_from=valid_from,
        valid_until=valid_until,
        citations=[c for c in result.get("citations", []) if c],
        **cover,
    )
    return create_audited(actor=actor, instance=policy, reason=reason)


def coverage_labels() -> dict[str, str]:
    return dict(COVERAGES)
