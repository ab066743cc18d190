"""Who may do what in billing (the same policy in every jurisdiction).

- see charges, ledgers, runs, fares and studies: every staff role of the jurisdiction; a holder
  sees only their own charges, slips and declarations (the tenant managers scope the rows);
- record payments, issue counter fees, open or close a billing account, file a declaration for
  a holder, import a bank statement: gestor and atendente;
- simulate, approve and execute the monthly run; set fares, readjustments and studies; the funds
  report: gestor (the clerk may simulate and read the report);
- a holder files their own month's demand in the portal.
"""

from __future__ import annotations

from typing import Any

VIEW = ("gestor", "atendente", "fiscal", "comissao")
OFFICE = ("gestor", "atendente")
MANAGER = ("gestor",)


def has(access: Any, jurisdiction: str, roles: tuple[str, ...]) -> bool:
    if access is None:
        return False
    return bool(access.operator or access.has_role(jurisdiction, *roles))


def is_own_holder(access: Any, holder_id: int) -> bool:
    return access is not None and access.holder_id == holder_id
