"""Who a signed-in user is for the agency: roles per jurisdiction and the resulting scope."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lotacao.core.tenancy import EVERYTHING, NOTHING, Scope


@dataclass
class Access:
    scope: Scope
    roles: dict[str, set[str]] = field(default_factory=dict)  # jurisdiction code -> roles
    holder_id: int | None = None
    holder_jurisdiction: str | None = None
    operator: bool = False

    @property
    def is_staff_member(self) -> bool:
        return bool(self.roles)

    @property
    def is_manager(self) -> bool:
        return any("gestor" in roles for roles in self.roles.values())

    @property
    def is_holder(self) -> bool:
        return self.holder_id is not None

    @property
    def role_names(self) -> set[str]:
        """Every role held in any jurisdiction (a template shows an action only to whom may take it)."""
        return set().union(*self.roles.values()) if self.roles else set()

    def has_role(self, jurisdiction: str, *roles: str) -> bool:
        return bool(self.roles.get(jurisdiction, set()) & set(roles))

    @property
    def jurisdictions(self) -> list[str]:
        if self.holder_jurisdiction:
            return [self.holder_jurisdiction]
        return sorted(self.roles)


ANONYMOUS = Access(scope=NOTHING)


def access_for(user: Any) -> Access:
    """Compute the scope of a user from the database (staff roles or holder account)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return ANONYMOUS
    from lotacao.accounts.models import HolderAccount, StaffMembership

    roles: dict[str, set[str]] = {}
    for jurisdiction_id, role in StaffMembership.objects.filter(user=user, active=True).values_list(
        "jurisdiction_id", "role"
    ):
        roles.setdefault(jurisdiction_id, set()).add(role)
    if user.is_superuser:
        return Access(scope=EVERYTHING, roles=roles, operator=True)
    if roles:
        return Access(scope=Scope(jurisdictions=frozenset(roles)), roles=roles)
    account = (
        HolderAccount.objects.select_related("holder")
        .filter(user=user)
        .only("holder__id", "holder__jurisdiction")
    ).first()
    if account is not None:
        holder = account.holder
        return Access(
            scope=Scope(jurisdictions=frozenset({holder.jurisdiction_id}), holder_id=holder.id),
            holder_id=holder.id,
            holder_jurisdiction=holder.jurisdiction_id,
        )
    return ANONYMOUS


def jurisdictions_for(access: Any, roles: tuple[str, ...]) -> list[str]:
    """The jurisdictions where `access` holds one of `roles` (every one for the operator); each
    app's permissions module names its own roles and asks this."""
    if access is None:
        return []
    if access.operator:
        from lotacao.core.models import Jurisdiction

        return list(Jurisdiction.objects.values_list("code", flat=True))
    return sorted(code for code, held in access.roles.items() if held & set(roles))


def roles_in(access: Any, jurisdiction: str, operator_roles: tuple[str, ...]) -> set[str]:
    """The roles `access` holds in `jurisdiction`; the operator holds `operator_roles` everywhere."""
    if access is None:
        return set()
    if access.operator:
        return set(operator_roles)
    return set(access.roles.get(jurisdiction, set()))

