"""Template filters for Brazilian formats: {{ value|brl }} → R$ 1.234,56; {{ day|data }} → 16/06/2025."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django import template
from django.utils import timezone

from lotacao.audit import actions
from lotacao.core.formats import br_date, brl, lower_first
from lotacao.law import citations as law_citations

register = template.Library()


@register.filter(name="brl")
def brl_filter(value: Decimal | int | str | None) -> str:
    return brl(value)


@register.filter(name="minuscula")
def lower_first_filter(value: Any) -> str:
    """A label inside a sentence: first letter in lower case, acronyms (EPTI, CRC) kept — never
    Django's `|lower`, which writes "epti"."""
    return lower_first(value)


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


@register.filter(name="citado")
def cited_filter(message: Any, citations: Any) -> str:
    """A message with its citations: {{ reason.message|citado:reason.citation }} — each provision
    once, none the message already states (lotacao.law.citations, the one place that does it)."""
    return law_citations.cited(str(message or ""), citations)


@register.filter(name="fundamentos")
def citations_filter(citations: Any) -> str:
    """A list of citations as one line, each provision once, grouped by act."""
    return "; ".join(law_citations.merged(citations))


@register.filter(name="acao")
def action_filter(value: str) -> str:
    """An audit action as people read it: permit.granted → outorga da permissão."""
    try:
        return actions.label(str(value))
    except actions.UndeclaredAuditAction:  # an event written before its action was declared
        return "registro"


@register.filter(name="valores_da_lei")
def law_values_filter(names: Any, code: str) -> str:
    """The law's open values a result names (`penalty.recidivism_window`) as people read them
    (the parameter's description in the jurisdiction's pack), never the id."""
    from lotacao.core.law import pack_for

    try:
        pack = pack_for(str(code))
    except Exception:
        return "valores que a lei deixa em aberto"
    words = [pack.parameters[n].description if pack.has(str(n)) else "valor da lei" for n in names or []]
    return "; ".join(dict.fromkeys(words))


@register.filter(name="votos")
def votes_filter(counts: Any) -> str:
    """A decision's vote counts as people read them: `manter a penalidade: 3, acolher (anular o
    auto): 1` (the stored keys are the vote's codes)."""
    from lotacao.enforcement.models import Vote

    labels = dict(Vote.Choice.choices)
    items = counts.items() if isinstance(counts, dict) else []
    return ", ".join(f"{str(labels.get(k, 'outro voto')).lower()}: {v}" for k, v in items)


@register.filter(name="palavras_da_lei")
def law_words_filter(value: Any) -> str:
    """A value of the law (a mapping of keys) in words: see lotacao.core.open_values.words."""
    from lotacao.core.open_values import words

    return words(value)


@register.filter(name="documento")
def document_filter(value: Any) -> str:
    """A CPF or CNPJ stored as digits, as people write it (000.000.000-00, 00.000.000/0000-00)."""
    from lotacao.core.validators import format_document

    return format_document(value)
