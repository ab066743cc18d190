"""Who may act in enforcement, by the staff roles of a jurisdiction; the operator may act
everywhere. The role sets live here so every wing (and its screens and API) reads the same ones:

- drawing up notices and taking measures: fiscal (in the street), atendente, gestor;
- changing a computed penalty: atendente, gestor;
- the counter's work on a notice (notification, defense filed for the offender, decision served,
  fines and slips): atendente, gestor;
- judging: comissao, gestor; what only a manager decides: gestor.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from lotacao.accounts.access import jurisdictions_for as jurisdictions_for

NOTICE_ROLES = ("fiscal", "atendente", "gestor")
OVERRIDE_ROLES = ("atendente", "gestor")
FILING_ROLES = ("atendente", "gestor")
JUDGING_ROLES = ("comissao", "gestor")
PROCESS_VIEW_ROLES = ("atendente", "gestor", "fiscal", "comissao")
FINE_ROLES = ("atendente", "gestor")
MANAGER_ROLES = ("gestor",)


def allowed(access: Any, jurisdiction: str, roles: tuple[str, ...]) -> bool:
    if access is None:
        return False
    return bool(access.operator or access.has_role(jurisdiction, *roles))


def require(request: Any, jurisdiction: str, roles: tuple[str, ...]) -> None:
    if not allowed(getattr(request, "access", None), jurisdiction, roles):
        raise PermissionDenied("Seu perfil não permite esta ação nesta jurisdição.")


def is_own_holder(access: Any, notice: Any) -> bool:
    """Whether the signed-in user is the permit holder the notice is against."""
    return bool(access is not None and access.holder_id and access.holder_id == notice.holder_id)
