"""Who may do what in chartering (an application policy; the law only names the EPTI).

- see the register, CRCs, fleets, trips: every staff role of the jurisdiction and the company itself;
- file a CRC request, change the fleet, declare trips: the company (portal) and the clerk or manager;
- notify a deficiency, refuse a request: clerk or manager; issue a CRC: the manager;
- grant or refuse a 7-seat trip authorization: clerk or manager;
- sanctions (apply, extend, end, confirm or dismiss a proposal): the manager;
- passenger lists (personal data, LGPD): the company, inspectors and managers — every opening is
  audited; a clerk and the commission see that a list exists and how many names it has, not the names.
"""

from __future__ import annotations

from typing import Any

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao")
OFFICE_ROLES = ("gestor", "atendente")
MANAGER_ROLES = ("gestor",)
LIST_ROLES = ("gestor", "fiscal")
ROAD_ROLES = ("gestor", "fiscal", "atendente")


def _staff(access: Any, code: str, roles: tuple[str, ...]) -> bool:
    return access is not None and bool(access.has_role(code, *roles))


def is_company(access: Any, company: Any) -> bool:
    return access is not None and access.holder_id is not None and access.holder_id == company.holder_id


def can_view(access: Any, code: str) -> bool:
    return _staff(access, code, VIEW_ROLES) or bool(access and (access.operator or access.is_holder))


def can_file(access: Any, company: Any) -> bool:
    return is_company(access, company) or _staff(access, company.jurisdiction_id, OFFICE_ROLES)


def can_review(access: Any, code: str) -> bool:
    return _staff(access, code, OFFICE_ROLES)


def can_issue(access: Any, code: str) -> bool:
    return _staff(access, code, MANAGER_ROLES)


def can_sanction(access: Any, code: str) -> bool:
    return _staff(access, code, MANAGER_ROLES)


def can_see_passengers(access: Any, company: Any) -> bool:
    return is_company(access, company) or _staff(access, company.jurisdiction_id, LIST_ROLES)


def can_check_on_road(access: Any, code: str) -> bool:
    return _staff(access, code, ROAD_ROLES)
