"""Template filters of the billing screens."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter(name="status_on")
def status_on(charge: Any, day: Any) -> str:
    """A charge's situation on a day: Paga, Cancelada, Vencida, Em aberto, Em defesa ou recurso."""
    return str(charge.status_label(day))


@register.filter(name="holder_word")
def holder_word(jurisdiction_code: str) -> str:
    """What the law calls whoever owes: "Permissionário" where it regulates by permits, "Empresa"
    where it regulates chartering companies (Pernambuco), never the other regime's word."""
    from lotacao.core.vehicle_verdict import has_permits

    return "Permissionário" if has_permits(str(jurisdiction_code)) else "Empresa"


@register.filter(name="holders_word")
def holders_word(rows: Any, access: Any = None) -> str:
    """The column heading over rows of whoever owes: "Empresa" when every row (or, with no rows,
    every jurisdiction of the signed-in staff) regulates chartering, "Permissionário ou empresa"
    when both regimes are listed, "Permissionário" otherwise."""
    codes = {str(getattr(row, "jurisdiction_id", "") or "") for row in rows or []} - {""}
    if not codes and access is not None:
        codes = {str(code) for code in (getattr(access, "roles", None) or {})}
    words = {holder_word(code) for code in codes}
    if words == {"Empresa"}:
        return "Empresa"
    if len(words) > 1:
        return "Permissionário ou empresa"
    return "Permissionário"


@register.filter(name="get_item")
def get_item(mapping: Any, key: Any) -> Any:
    """`mapping[key]` or None (a template cannot index a dict by a variable)."""
    return mapping.get(key) if hasattr(mapping, "get") else None
