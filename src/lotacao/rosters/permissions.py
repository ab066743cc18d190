"""Who may do what with rosters and duty logs (an application policy, the same everywhere).

- see the rosters and the duty logs: every staff role of the jurisdiction (the inspector reads the
  roster in force on the road check); a holder sees the duty logs of their own vehicles;
- draw up a roster, add its rows and submit it on the representative's behalf, record a duty log:
  gestor and atendente;
- approve or refuse a roster: gestor;
- draw up an infraction notice from an excess: the enforcement's notice roles.
The operator (superuser) may act everywhere.
"""

from __future__ import annotations

from typing import Any

from lotacao.accounts.access import jurisdictions_for as jurisdictions_for

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao")
RECORD_ROLES = ("gestor", "atendente")
DECIDE_ROLES = ("gestor",)
NOTICE_ROLES = ("fiscal", "atendente", "gestor")  # lotacao.enforcement.permissions.NOTICE_ROLES


def allowed(access: Any, jurisdiction: str, roles: tuple[str, ...]) -> bool:
    if access is None:
        return False
    return bool(access.operator or access.has_role(jurisdiction, *roles))
