"""Who may do what with the authorizations (an application policy, the same everywhere).

- see the register: every staff role of the jurisdiction;
- record a request or a holder's withdrawal: gestor and atendente;
- decide (grant, refuse, suspend, lift a suspension, revoke): gestor.
The operator (superuser) may act everywhere. Holders never see these screens.
"""

from __future__ import annotations

from typing import Any

from lotacao.accounts.access import jurisdictions_for as jurisdictions_for
from lotacao.accounts.access import roles_in as _roles_in

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao")
RECORD_ROLES = ("gestor", "atendente")
DECIDE_ROLES = ("gestor",)


def roles_in(access: Any, jurisdiction: str) -> set[str]:
    return _roles_in(access, jurisdiction, VIEW_ROLES)
