"""Who may draw up infraction notices: fiscal, atendente and gestor of the jurisdiction (the
inspector in the street, the clerk from documents and reports). The operator may act everywhere."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

NOTICE_ROLES = ("fiscal", "atendente", "gestor")
OVERRIDE_ROLES = ("atendente", "gestor")


def allowed(access: Any, jurisdiction: str, roles: tuple[str, ...]) -> bool:
    if access is None:
        return False
    return bool(access.operator or access.has_role(jurisdiction, *roles))


def require(request: Any, jurisdiction: str, roles: tuple[str, ...]) -> None:
    if not allowed(getattr(request, "access", None), jurisdiction, roles):
        raise PermissionDenied("Seu perfil não permite esta ação nesta jurisdição.")


def jurisdictions_for(access: Any, roles: tuple[str, ...]) -> list[str]:
    if access is None:
        return []
    if access.operator:
        from lotacao.core.models import Jurisdiction

        return list(Jurisdiction.objects.values_list("code", flat=True))
    return sorted(code for code, held in access.roles.items() if held & set(roles))
