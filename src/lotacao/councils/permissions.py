"""Who may see and record councils' acts (an application policy, the same everywhere).

- see the councils, members, sessions and resolutions: every staff role of the jurisdiction;
- add seats and members, open sessions, record attendance and register resolutions: gestor and
  atendente (the secretariat of the council is the agency's).
The operator (superuser) may act everywhere; permit holders see nothing here.
"""

from __future__ import annotations

from typing import Any

from lotacao.accounts.access import jurisdictions_for as jurisdictions_for

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao", "ouvidor")
RECORD_ROLES = ("gestor", "atendente")


def allowed(access: Any, jurisdiction: str, roles: tuple[str, ...]) -> bool:
    if access is None:
        return False
    return bool(access.operator or access.has_role(jurisdiction, *roles))
