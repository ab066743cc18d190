"""What every page's frame shows besides the menu: the agencies whose contacts and ombudsman the
footer lists (the signed-in person's; on the public pages, every active agency, or the one the page
is about), and the user's roles in words for the header. Evaluated only when a template reads it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

from lotacao.accounts.models import Role


def _agencies(request: HttpRequest) -> list[Any]:
    from lotacao.core.models import Jurisdiction

    access = getattr(request, "access", None)
    agencies = Jurisdiction.unscoped.filter(active=True)
    if access is not None and access.jurisdictions and not access.operator:
        agencies = agencies.filter(code__in=access.jurisdictions)
    return list(agencies.order_by("name"))


def _roles(request: HttpRequest) -> str:
    access = getattr(request, "access", None)
    if access is None:
        return ""
    if access.operator:
        return "Operador do sistema"
    if access.is_holder:
        from lotacao.core.vehicle_verdict import has_permits

        return "Permissionário" if has_permits(access.holder_jurisdiction or "") else "Empresa de fretamento"
    labels = sorted({Role(role).label for roles in access.roles.values() for role in roles})
    return ", ".join(labels)


def _once(compute: Callable[[], Any]) -> Callable[[], Any]:
    """A callable the template engine may call several times (header and footer), computed once."""
    box: list[Any] = []

    def value() -> Any:
        if not box:
            box.append(compute())
        return box[0]

    return value


def chrome(request: HttpRequest) -> dict[str, Any]:
    return {
        "footer_agencies": _once(lambda: _agencies(request)),
        "user_roles": _once(lambda: _roles(request)),
    }
