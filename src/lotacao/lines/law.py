"""What each law says about lines, read from the packs through lotacao.core.law (no jurisdiction
names): whether the law has lines at all, who approves them, what its service order is called, and
the values each check needs. A value the law leaves open is read with its reason (`Need`), so a
refusal can say what the agency must supply at "Valores da lei".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.core import law
from lotacao.core.formats import br_date
from lotacao.law.packs import Entry

SERVICE_ORDER = "lines.service_order"


@dataclass(frozen=True)
class Need:
    """A parameter a check needs: its value (None when undefined), description and citation."""

    value: Any
    description: str
    citation: str

    @property
    def missing(self) -> bool:
        return self.value is None

    def missing_text(self) -> str:
        return (
            f"A lei não fixa este valor e o órgão gestor ainda não o informou: {self.description.lower()} "
            f"({self.citation}). Informe-o em Valores da lei."
        )


def entry(code: str, name: str, on: dt.date) -> Entry | None:
    """The entry in force, or None where this law has no such rule (or no longer has it)."""
    found = law.entry(code, name, on)
    return None if found is None or found.status == "repealed" else found


def need(code: str, name: str, on: dt.date) -> Need | None:
    """None where the law has no such rule; otherwise its value (None if undefined) and citation."""
    found = entry(code, name, on)
    if found is None:
        return None
    description = law.pack_for(code).parameters[name].description
    value = found.value if found.status == "value" else None
    return Need(value, description, str(found.citation))


def has_lines(code: str, on: dt.date) -> bool:
    return entry(code, SERVICE_ORDER, on) is not None


def require_lines(code: str, on: dt.date) -> None:
    """Refuse where the jurisdiction's law has no lines (Pernambuco's chartering)."""
    if not has_lines(code, on):
        pack = law.pack_for(code)
        raise ValidationError(
            f"A {pack.law} não organiza o serviço em linhas: não há linhas, itinerários nem ordens de "
            f"serviço a registrar em {pack.name} (em {br_date(on)})."
        )


def service_order_label(code: str, on: dt.date) -> tuple[str, str]:
    """What the law calls the service order and its citation ("Ordem de Serviço de Operação")."""
    found = entry(code, SERVICE_ORDER, on)
    if found is None or found.status != "value":
        return "Ordem de serviço", ""
    return str(found.value.get("label", "Ordem de serviço")), str(found.citation)


def approval(code: str, on: dt.date) -> tuple[dict[str, Any], str]:
    found = entry(code, "lines.approval", on)
    if found is None or found.status != "value":
        return {}, str(found.citation) if found is not None else ""
    return dict(found.value), str(found.citation)


def cite(code: str, text: str) -> str:
    return law.pack_for(code).cite(text)


def pack_start(code: str) -> dt.date:
    return law.pack_for(code).start
