"""Who may do what with vehicles and inspections (an application policy, the same everywhere).

- register, edit and replace vehicles, record insurance, re-register: gestor and atendente;
- schedule and record inspections, issue seals: gestor, atendente and fiscal (inspectors inspect);
- open a re-registration campaign: gestor;
- see: every staff role of the jurisdiction, and a permit holder their own vehicles (read only).
The operator (superuser) may act everywhere.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from lotacao.accounts.access import jurisdictions_for as jurisdictions_for

VEHICLE_ROLES = ("gestor", "atendente")
INSPECTION_ROLES = ("gestor", "atendente", "fiscal")
CAMPAIGN_ROLES = ("gestor",)


def allowed(access: Any, jurisdiction: str, roles: tuple[str, ...]) -> bool:
    if access is None:
        return False
    return bool(access.operator or access.has_role(jurisdiction, *roles))


def require(request: Any, jurisdiction: str, roles: tuple[str, ...]) -> None:
    if not allowed(getattr(request, "access", None), jurisdiction, roles):
        raise PermissionDenied("Seu perfil não permite esta ação nesta jurisdição.")
