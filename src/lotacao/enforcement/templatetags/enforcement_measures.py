"""`{% measures_context notice as m %}`: the administrative measures of a notice for its page, with
their release conditions (met or not, with the article) and whether the signed-in user may use
the forms (staff fiscal/atendente/gestor of the jurisdiction; the holder only reads)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from lotacao.enforcement import permissions
from lotacao.enforcement.models import Measure
from lotacao.enforcement.notices import states
from lotacao.enforcement.reading import measure_words
from lotacao.enforcement.sanctions import measure_steps, measures

register = template.Library()


@register.simple_tag(takes_context=True)
def measures_context(context: Any, notice: Any) -> dict[str, Any]:
    request = context.get("request")
    access = getattr(request, "access", None)
    rows = []
    today = timezone.localdate()
    for measure in Measure.objects.filter(notice=notice).order_by("applied_at", "id"):
        in_force = measure.status == Measure.Status.IN_FORCE
        rows.append(
            {
                "measure": measure,
                "conditions": measures.condition_state(measure),
                "unmet": [row["id"] for row in measures.unmet(measure)],
                "outside": any(str(c).startswith(measures.OUTSIDE_FLAG) for c in measure.citations),
                "escalation": measure_steps.escalation(measure, today) if in_force else None,
                "commitment": next(
                    (
                        c
                        for c in measure.conditions
                        if c.get("id") == measure_steps.COMMITMENT and c.get("met_on")
                    ),
                    None,
                ),
            }
        )
    applicable = measures.applicable_kinds(notice)
    return {
        "rows": rows,
        "can_act": permissions.allowed(access, notice.jurisdiction_id, states.APPLY_MEASURE.roles),
        "open_notice": states.allows(notice, states.APPLY_MEASURE),
        "kinds": [
            {"value": value, "label": label, "applicable": value in applicable}
            for value, label in Measure.Kind.choices
        ],
        "applicable": [Measure.Kind(k).label for k in applicable if k in Measure.Kind.values],
        "outside_min": measures.OUTSIDE_REASON_MIN,
        "is_manager": permissions.allowed(access, notice.jurisdiction_id, permissions.MANAGER_ROLES),
    }


@register.filter
def measure_label(kind: str) -> str:
    """`vehicle_retention` → `Retenção do veículo` (the engine's measure ids in Portuguese)."""
    try:
        return str(Measure.Kind(kind).label)
    except ValueError:
        return measure_words(kind)
