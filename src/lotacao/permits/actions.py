"""Which transitions a user may take on a permit now, and why the others are not available.

The transitions, their roles and the statuses they start from are `lotacao.permits.states`'s
table (the services check the same table); this module adds who is asking and what the law says
on top, so that a button is greyed out with its reason before the clerk fills in a form.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.law.words import plural
from lotacao.permits import rules, states
from lotacao.permits.models import Permit

ACTIONS = [t for t in states.TRANSITIONS if t.button]  # the permit page's buttons, in the table's order
BY_NAME = {a.name: a for a in ACTIONS}
ROLE_LABELS = {"gestor": "gestor", "atendente": "atendente", "comissao": "comissão", "fiscal": "fiscal"}


def _law_says_no(action: str, permit: Permit, on: dt.date) -> str | None:
    code = permit.jurisdiction_id
    if action == "transfer":
        causes = rules.entry(code, "permit.transfer_causes", on)
        if causes is None or (causes.status == "value" and not causes.value):
            cite = f" ({causes.citation})" if causes is not None else ""
            return f"A permissão é pessoal e intransferível{cite}."
    if action == "renew" and permit.kind == Permit.Kind.REGULAR:
        renewable = rules.entry(code, "permit.renewable", on)
        if renewable is None or not renewable.value:
            return f"A {rules.law_name(code)} não prevê prorrogação."
        maximum = rules.entry(code, "permit.max_renewals", on)
        if maximum is not None and maximum.status == "value" and permit.renewals >= int(maximum.value):
            limit = plural(int(maximum.value), "prorrogação", "prorrogações")
            return f"Limite de {limit} já usado ({maximum.citation})."
    if action == "agent":
        limits = rules.entry(code, "agents.limits", on)
        if limits is None:
            return f"A {rules.law_name(code)} não prevê prepostos."
        if limits.status != "value":
            return f"Número de prepostos não definido pela lei ({limits.citation})."
    if action == "reinstate" and permit.suspended_until is not None and permit.suspended_until >= on:
        return f"Suspensão em curso até {permit.suspended_until:%d/%m/%Y}."
    return None


def available(permit: Permit, on: dt.date, access: Any) -> list[dict[str, Any]]:
    """Each action with `allowed` and, when not allowed, `why` (Portuguese)."""
    out = []
    for action in ACTIONS:
        why = states.refusal(permit, action.name, on)
        if why is not None:
            why = f"Indisponível: {why}."
        elif not (access.operator or access.has_role(permit.jurisdiction_id, *action.roles)):
            why = "Ação reservada a: " + ", ".join(ROLE_LABELS[r] for r in action.roles) + "."
        else:
            why = _law_says_no(action.name, permit, on)
        out.append({"name": action.name, "label": action.label, "allowed": why is None, "why": why or ""})
    return out


def may(access: Any, jurisdiction_code: str, action: str) -> bool:
    return bool(access.operator or access.has_role(jurisdiction_code, *states.BY_NAME[action].roles))
