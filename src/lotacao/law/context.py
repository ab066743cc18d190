"""What a rule kind gets besides the pack and the case: the dated values it used, their citations,
what the law leaves undefined, and helpers that read case fields with Portuguese errors."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from lotacao.law.calendar import Calendar
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import Entry, Pack


class Context:
    """Collects citations, missing parameters and interpretations while a kind evaluates a case.

    - `ctx.entry(name)` resolves a parameter on the case date (or `day`), records its citation,
      records it as missing when `undefined`, and its interpretation when it has one;
    - `ctx.interpret(name, text)` records a reading the result relies on (a sentence for the clerk);
    - `ctx.value(name)` is the entry's value, or None when the law leaves it undefined or repealed;
    - `ctx.cite("art. 36")` records `pack.cite(...)` and returns it;
    - `ctx.calendar` is the business-day calendar of the pack and case (built on first use).
    """

    def __init__(
        self, pack: Pack, case: Mapping[str, Any], day: dt.date, extra_holidays: tuple[dt.date, ...]
    ):
        self.pack = pack
        self.case = case
        self.date = day
        self.extra_holidays = extra_holidays
        self.citations: list[str] = []
        self.missing: list[str] = []
        self.interpretations: list[tuple[str, str]] = []  # (parameter, one sentence), in order
        self.notes: list[str] = []  # sentences appended to the explanation (e.g. law status doubts)
        self._calendar: Calendar | None = None

    # -- parameters
    def entry(self, name: str, day: dt.date | None = None, *, cite: bool = True) -> Entry:
        entry = self.pack.resolve(name, day or self.date)
        if cite:
            self.add_citation(entry.citation)
        if entry.status == "undefined" and name not in self.missing:
            self.missing.append(name)
        self.interpret(name)
        return entry

    def interpret(self, name: str, text: str | None = None) -> None:
        """Record that the result relies on a reading of the law: the parameter's own (its
        interpretation's sentence), or `text` (e.g. the reading of one rule of a rule list)."""
        if text is None:
            interp = self.pack.parameters[name].interpretation
            if interp is None:
                return
            text = interp.sentence
        if all(t != text for _, t in self.interpretations):
            self.interpretations.append((name, text))

    def value(self, name: str, day: dt.date | None = None) -> Any:
        entry = self.entry(name, day)
        return entry.value if entry.status == "value" else None

    def has(self, name: str) -> bool:
        return name in self.pack.parameters

    # -- citations
    def cite(self, cite: str) -> str:
        full = self.pack.cite(cite)
        self.add_citation(full)
        return full

    def short(self, citation: str) -> str:
        """A citation of the pack's law as an explanation says it, without the law's name ("art. 36")."""
        prefix = f"{self.pack.law}, "
        return citation[len(prefix) :] if citation.startswith(prefix) else citation

    def add_citation(self, citation: str) -> None:
        if citation not in self.citations:
            self.citations.append(citation)

    # -- calendar
    @property
    def calendar(self) -> Calendar:
        if self._calendar is None:
            municipal: list[str] = []
            if self.has("calendar.municipal_holidays"):
                entry = self.pack.resolve("calendar.municipal_holidays", self.date)
                if entry.status == "value" and entry.value:
                    municipal = list(entry.value)
                    self.add_citation(entry.citation)
            self._calendar = Calendar(
                self.pack.calendar.get("country", "BR"),
                self.pack.calendar.get("subdivision"),
                municipal,
                self.extra_holidays,
            )
        return self._calendar


# --------------------------------------------------------------------------- case fields

_MISSING = object()


def _path(field: str) -> str:
    return field


def get(case: Mapping[str, Any], field: str, *, required: bool = True) -> Any:
    """The value at dotted path `field` (`vehicle.seats`), CaseError `missing_field` when absent."""
    node: Any = case
    for part in field.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            node = _MISSING
            break
    if node is _MISSING or node is None:
        if required:
            raise CaseError("missing_field", f"Campo obrigatório ausente: {field}.", _path(field))
        return None
    return node


def get_int(
    case: Mapping[str, Any], field: str, *, required: bool = True, minimum: int | None = 0
) -> int | None:
    value = get(case, field, required=required)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise CaseError("invalid_field", f"O campo {field} deve ser um número inteiro, não {value!r}.", field)
    if minimum is not None and value < minimum:
        raise CaseError("invalid_field", f"O campo {field} deve ser no mínimo {minimum}, não {value}.", field)
    return value


def get_decimal(case: Mapping[str, Any], field: str, *, required: bool = True) -> Decimal | None:
    value = get(case, field, required=required)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise CaseError("invalid_field", f'O campo {field} deve ser um valor decimal (ex.: "150.00").', field)
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        raise CaseError(
            "invalid_field",
            f'O campo {field} deve ser um valor decimal (ex.: "150.00"), não {value!r}.',
            field,
        ) from None
    if not number.is_finite() or number < 0:
        raise CaseError("invalid_field", f"O campo {field} deve ser um valor não negativo.", field)
    return number


def get_choice(
    case: Mapping[str, Any],
    field: str,
    choices: Mapping[str, str] | tuple[str, ...],
    *,
    required: bool = True,
) -> str | None:
    value = get(case, field, required=required)
    if value is None:
        return None
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(choices)
        raise CaseError(
            "invalid_field", f"Valor inválido para {field}: {value!r}. Valores aceitos: {listed}.", field
        )
    return value


def get_date(case: Mapping[str, Any], field: str, *, required: bool = True) -> dt.date | None:
    value = get(case, field, required=required)
    if value is None:
        return None
    return parse_date(value, field)


def parse_date(value: Any, field: str) -> dt.date:
    if isinstance(value, str) and len(value) == 10:
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise CaseError("invalid_date", f"Data inválida em {field}: {value!r}. Use o formato AAAA-MM-DD.", field)


def check_keys(case: Mapping[str, Any], allowed: frozenset[str], base: str = "") -> None:
    """Refuse unknown keys (typos would otherwise be ignored silently)."""
    for key in case:
        if key not in allowed:
            field = f"{base}.{key}" if base else str(key)
            raise CaseError("unknown_field", f"Campo desconhecido: {field}.", field)


def pt_date(day: dt.date) -> str:
    return day.strftime("%d/%m/%Y")
