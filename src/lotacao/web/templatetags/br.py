"""Template filters for Brazilian formats: {{ value|brl }} → R$ 1.234,56; {{ day|data }} → 16/06/2025."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django import template
from django.utils import timezone

from lotacao.audit import actions
from lotacao.core.formats import br_date, brl

register = template.Library()


@register.filter(name="brl")
def brl_filter(value: Decimal | int | str | None) -> str:
    return brl(value)


@register.filter(name="data")
def date_filter(value: Any) -> str:
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, str) and len(value) == 10:
        try:
            value = dt.date.fromisoformat(value)
        except ValueError:
            return str(value)
    return br_date(value) if isinstance(value, dt.date) else ("—" if value in (None, "") else str(value))


@register.filter(name="valor")
def display_value(value: Any) -> str:
    """A field value as people read it: dates dd/mm/aaaa (moments with hh:mm), booleans Sim/Não,
    empty as —."""
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, dt.datetime):  # a moment: the day and the time (local), e.g. an infraction
        moment = timezone.localtime(value) if timezone.is_aware(value) else value
        return f"{br_date(moment.date())} {moment:%H:%M}"
    if isinstance(value, dt.date):
        return date_filter(value)
    if value is None or value == "":
        return "—"
    return str(value)


@register.filter(name="acao")
def action_filter(value: str) -> str:
    """An audit action as people read it: permit.granted → outorga da permissão."""
    try:
        return actions.label(str(value))
    except actions.UndeclaredAuditAction:  # an event written before its action was declared
        return "registro"
