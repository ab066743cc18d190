"""An agency's values layered on the law's (see :meth:`lotacao.law.pack_model.Pack.with_overrides`).

Where the law leaves a value to the agency (or the agency fixed one by its own act), the agency
gives `{"<parameter>": [{"from": "2025-01-01", "value": ..., "by": "...", "cite": "Portaria ..."}]}`.
On any date the entry with the latest start wins; on the same start date, the agency's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from lotacao.law.errors import CaseError
from lotacao.law.pack_checks import as_date, check_value
from lotacao.law.pack_model import Entry, Pack, Parameter

OVERRIDE_KEYS = frozenset({"from", "value", "by", "cite", "note"})


def layer_overrides(pack: Pack, overrides: Mapping[str, Iterable[Mapping[str, Any]]]) -> Pack:
    """A copy of `pack` with the agency's values; invalid data raises CaseError."""
    if not overrides:
        return pack
    params = dict(pack.parameters)
    layered: dict[str, tuple[Entry, ...]] = {}
    for name, items in overrides.items():
        base = f"overrides.{name}"
        if name not in pack.parameters:
            raise CaseError("unknown_parameter", f"O pacote {pack.id} não tem o parâmetro {name}.", base)
        param = pack.parameters[name]
        mine = sorted(
            (_agency_entry(pack, param, item, f"{base}.{i}") for i, item in enumerate(items)),
            key=lambda e: e.start,
        )
        params[name] = _merged(param, mine)
        layered[name] = tuple(mine)
    clone = pack.with_parameters(params)
    clone.overrides = layered
    return clone


def _agency_entry(pack: Pack, param: Parameter, item: Any, where: str) -> Entry:
    """One value fixed by the agency, checked: a start date, the act that fixed it, a valid value."""
    if not isinstance(item, Mapping):
        raise CaseError("invalid_override", "Cada valor do órgão deve ser um objeto.", where)
    extra = set(item) - OVERRIDE_KEYS
    if extra:
        raise CaseError("invalid_override", f"Chave não permitida: {sorted(extra)[0]}.", where)
    start = as_date(item.get("from"))
    if start is None:
        raise CaseError("invalid_override", "Informe `from` como data ISO (AAAA-MM-DD).", f"{where}.from")
    cite = item.get("cite")
    if not isinstance(cite, str) or not cite.strip():
        raise CaseError(
            "invalid_override",
            "Todo valor do órgão precisa citar o ato que o fixou (ex.: Portaria nº …).",
            f"{where}.cite",
        )
    if "value" not in item:
        raise CaseError("invalid_override", "Informe `value`.", f"{where}.value")
    problem = check_value(param.type, item["value"], param.schema, pack)
    if problem:
        raise CaseError("invalid_override", problem, f"{where}.value")
    by = item.get("by")
    return Entry(
        parameter=param.name,
        start=start,
        status="value",
        value=item["value"],
        cite=cite,
        citation=cite,
        note=item.get("note") if isinstance(item.get("note"), str) else None,
        by=str(by) if by is not None else "órgão gestor",
    )


def _merged(param: Parameter, mine: list[Entry]) -> Parameter:
    """The parameter with the agency's entries among the law's (the agency wins on the same date)."""
    merged: dict[dt.date, Entry] = {e.start: e for e in param.entries}
    for e in mine:
        merged[e.start] = e
    return Parameter(
        name=param.name,
        description=param.description,
        type=param.type,
        unit=param.unit,
        interpretation=param.interpretation,
        schema=param.schema,
        entries=tuple(merged[d] for d in sorted(merged)),
        file=param.file,
    )
