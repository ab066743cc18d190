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


@register.filter(name="get_item")
def get_item(mapping: Any, key: Any) -> Any:
    """`mapping[key]` or None (a template cannot index a dict by a variable)."""
    return mapping.get(key) if hasattr(mapping, "get") else None
