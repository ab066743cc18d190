"""Who works the ombudsman's queue, by the staff roles of a jurisdiction (the operator everywhere).

- the queue, triage, forwarding, the clock, answers and closing: ouvidor (the ombudsman), and the
  manager, who answers for the agency;
- reading a manifestation (never its identity): also the units it may be forwarded to — the
  clerks and the inspectors (art. 16, p.ú.);
- the complainant's identity: the ombudsman alone (Lei 13.460/2017, art. 10, § 7º), each opening
  audited — not the manager, not the operator;
- taking a phone or counter call: ouvidor, atendente and gestor;
- scheduling an inspection from a complaint: those who schedule inspections and the ombudsman.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

QUEUE_ROLES = ("ouvidor", "gestor")
VIEW_ROLES = ("ouvidor", "gestor", "atendente", "fiscal")
IDENTITY_ROLES = ("ouvidor",)
INTAKE_ROLES = ("ouvidor", "atendente", "gestor")


def allowed(access: Any, jurisdiction: str, roles: tuple[str, ...], operator: bool = True) -> bool:
    if access is None:
        return False
    return bool((operator and access.operator) or access.has_role(jurisdiction, *roles))


def may_see_identity(access: Any, jurisdiction: str) -> bool:
    return allowed(access, jurisdiction, IDENTITY_ROLES, operator=False)


def require(request: Any, jurisdiction: str, roles: tuple[str, ...]) -> None:
    if not allowed(getattr(request, "access", None), jurisdiction, roles):
        raise PermissionDenied("Seu perfil não permite esta ação da ouvidoria nesta jurisdição.")


def jurisdictions_for(access: Any, roles: tuple[str, ...]) -> list[str]:
    if access is None:
        return []
    if access.operator:
        from lotacao.core.models import Jurisdiction

        return list(Jurisdiction.objects.filter(active=True).values_list("code", flat=True))
    return sorted(code for code, held in access.roles.items() if held & set(roles))
