"""Who may do what with the authorizations (an application policy, the same everywhere).

- see the register: every staff role of the jurisdiction;
- record a request or a holder's withdrawal: gestor and atendente;
- decide (grant, refuse, suspend, lift a suspension, revoke): gestor.
The operator (superuser) may act everywhere. Holders never see these screens.
"""

from __future__ import annotations

from typing import Any

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao")
RECORD_ROLES = ("gestor", "atendente")
DECIDE_ROLES = ("gestor",)


def roles_in(access: Any, jurisdiction: str) -> set[str]:
    if access is None:
        return set()
    if access.operator:
        return set(VIEW_ROLES)
    return set(access.roles.get(jurisdiction, set()))


def jurisdictions_for(access: Any, roles: tuple[str, ...]) -> list[str]:
    if access is None:
        return []
    if access.operator:
        from lotacao.core.models import Jurisdiction

        return list(Jurisdiction.objects.values_list("code", flat=True))
    return sorted(code for code, held in access.roles.items() if held & set(roles))
