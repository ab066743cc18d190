"""Write services of vehicles and inspections: keyword-only, atomic, validated against the law, audited.

Every refusal is a ValidationError with a Portuguese message naming the article (from the pack);
nothing is written when a check fails. What differs per law is read from the packs
(`inspections.rules`), never from the jurisdiction's name.

One module per matter; callers keep importing from here
(`from lotacao.inspections import services; services.record_inspection(...)`):

- vehicles         admission, changes and replacement, each assessed by the engine
- insurance        policies against the law's minimum cover
- inspection       scheduling and result, irregularity notices
- seals            the inspection seal
- provisional      the provisional authorization of an over-age vehicle (Maricá art. 25, § 6º)
- reregistration   yearly campaigns, fees, the late fine and its exemptions
"""

from __future__ import annotations

from lotacao.inspections.services.inspection import checklist_for, record_inspection, schedule_inspection
from lotacao.inspections.services.insurance import coverage_labels, register_insurance
from lotacao.inspections.services.provisional import end_provisional, expire_provisionals, grant_provisional
from lotacao.inspections.services.reregistration import open_campaign, reregister_vehicle
from lotacao.inspections.services.seals import issue_seal
from lotacao.inspections.services.vehicles import (
    VEHICLE_FIELDS,
    admit_vehicle,
    replace_vehicle,
    update_vehicle,
)

__all__ = [
    "VEHICLE_FIELDS",
    "admit_vehicle",
    "checklist_for",
    "coverage_labels",
    "end_provisional",
    "expire_provisionals",
    "grant_provisional",
    "issue_seal",
    "open_campaign",
    "record_inspection",
    "register_insurance",
    "replace_vehicle",
    "reregister_vehicle",
    "schedule_inspection",
    "update_vehicle",
]
