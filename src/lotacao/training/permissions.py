"""Who may do what with training (an application policy, the same everywhere): every staff role
of the jurisdiction sees the catalogue, the classes and the certificates; gestor and atendente
open classes, enrol, take attendance and finish a class; the gestor keeps the catalogue. Holders
do not use these screens. The operator (superuser) may act everywhere."""

from __future__ import annotations

from typing import Any

from lotacao.accounts.access import jurisdictions_for as jurisdictions_for

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao")
RECORD_ROLES = ("gestor", "atendente")
CATALOGUE_ROLES = ("gestor",)


def allowed(access: Any, jurisdiction: str, roles: tuple[str, ...]) -> bool:
    if access is None:
        return False
    return bool(access.operator or access.has_role(jurisdiction, *roles))
