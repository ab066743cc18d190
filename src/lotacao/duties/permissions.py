"""Who may do what with the operator duties (an application policy, the same everywhere).

- see the register, the reports and the incident reports: every staff role of the jurisdiction
  (the inspector reads the authorizations in force on the road check), a holder their own;
- enter an incident report or a request on the holder's behalf, and review a report: gestor and
  atendente;
- decide (grant, deny, revoke) a prior authorization: gestor;
- a holder files their own reports and requests, and withdraws a request not yet decided.
The operator (superuser) may act everywhere.
"""

from __future__ import annotations

from typing import Any

from lotacao.accounts.access import jurisdictions_for as jurisdictions_for

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao")
RECORD_ROLES = ("gestor", "atendente")
DECIDE_ROLES = ("gestor",)


def allowed(access: Any, jurisdiction: str, roles: tuple[str, ...]) -> bool:
    if access is None:
        return False
    return bool(access.operator or access.has_role(jurisdiction, *roles))


def is_holder(access: Any, holder_id: int | None = None) -> bool:
    if access is None or access.holder_id is None:
        return False
    return holder_id is None or access.holder_id == holder_id
