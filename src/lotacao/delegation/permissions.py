"""Who may do what with the delegation (an application policy, the same everywhere).

- see the contracts, inquiries and extinctions: every staff role of the jurisdiction;
- record a contract, a notification, a defense, a reversible asset or the indemnity's payment:
  gestor and atendente;
- decide (suspend on interruption, open an inquiry, declare the caducidade or archive, record an
  extinction): gestor.
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
