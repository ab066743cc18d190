"""Who may do what with documents (an application policy, the same in every jurisdiction).

- see the list and the data of documents: every staff role of the jurisdiction (gestor,
  atendente, fiscal, comissão): the fiscal checks a driver's papers, the commission a case;
- open the file of a non-sensitive document: the same roles;
- open the file of a sensitive document (criminal-record certificate, medical report): only
  gestor and atendente, who receive and judge the documents; every opening is logged
  (SensitiveAccess: who, when, by screen or API). Fiscal and comissão do not need them for
  their work: they see that the document exists and whether it was accepted, not its content;
- upload and review: gestor and atendente.
The installation's operator (superuser) is not agency staff: without a role, no sensitive file.
Permit holders do not see documents through these screens (their portal is a later issue).
"""

from __future__ import annotations

from typing import Any

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao")
SENSITIVE_ROLES = ("gestor", "atendente")
UPLOAD_ROLES = ("gestor", "atendente")
REVIEW_ROLES = ("gestor", "atendente")


def _has(access: Any, jurisdiction: str, roles: tuple[str, ...], *, operator_ok: bool) -> bool:
    if access is None:
        return False
    if operator_ok and access.operator:
        return True
    return bool(access.has_role(jurisdiction, *roles))


def can_view(access: Any, jurisdiction: str) -> bool:
    return _has(access, jurisdiction, VIEW_ROLES, operator_ok=True)


def can_open(access: Any, document: Any) -> bool:
    if document.sensitive:
        return _has(access, document.jurisdiction_id, SENSITIVE_ROLES, operator_ok=False)
    return can_view(access, document.jurisdiction_id)


def can_upload(access: Any, jurisdiction: str) -> bool:
    return _has(access, jurisdiction, UPLOAD_ROLES, operator_ok=True)


def can_review(access: Any, jurisdiction: str) -> bool:
    return _has(access, jurisdiction, REVIEW_ROLES, operator_ok=True)
