"""Template filters of the billing screens."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter(name="status_on")
def status_on(charge: Any, day: Any) -> str:
    """A charge's situation on a day: Paga, Cancelada, Vencida, Em aberto, Em defesa ou recurso."""
    return str(charge.status_label(day))
