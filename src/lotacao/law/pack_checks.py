"""The checks of a parameter value against its declared type (docs/packs.md), shared by the pack
loader and the agency overrides. Each check answers None, or the problem in Portuguese."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any

from lotacao.law.pack_model import Pack

DURATION_KEYS = frozenset({"days", "business_days", "months", "years"})


def as_date(value: Any) -> dt.date | None:
    """A date given as a date or an ISO string (AAAA-MM-DD); None for anything else."""
    if isinstance(value, dt.datetime):
        return None
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def is_decimal_string(value: Any) -> bool:
    if not isinstance(value, str) or not value.strip():
        return False
    try:
        return Decimal(value).is_finite()
    except InvalidOperation:
        return False


def check_duration(value: Any) -> str | None:
    if not isinstance(value, dict) or len(value) != 1:
        return "uma duração é um mapa com uma só chave: days, business_days, months ou years"
    ((key, n),) = value.items()
    if key not in DURATION_KEYS:
        return f"unidade de duração desconhecida: {key!r} (use days, business_days, months ou years)"
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        return f"a duração deve ser um inteiro não negativo, não {n!r}"
    return None


def check_value(kind: str, value: Any, schema: tuple[str, ...] | str | None, pack: Pack | None) -> str | None:
    """None when `value` fits the parameter type `kind`; otherwise the problem, in Portuguese."""
    if kind in ("money", "decimal"):
        if not is_decimal_string(value):
            return f'valor {kind} deve ser um decimal entre aspas (ex.: "50.00"), não {value!r}'
    elif kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"valor integer deve ser um inteiro, não {value!r}"
    elif kind == "boolean":
        if not isinstance(value, bool):
            return f"valor boolean deve ser true ou false, não {value!r}"
    elif kind == "string":
        if not isinstance(value, str) or not value:
            return f"valor string deve ser um texto não vazio, não {value!r}"
    elif kind == "duration":
        return check_duration(value)
    elif kind == "list":
        if not isinstance(value, list):
            return f"valor list deve ser uma lista, não {value!r}"
        return _check_keys(value, schema, pack, "item")
    elif kind == "mapping":
        if not isinstance(value, dict):
            return f"valor mapping deve ser um mapa, não {value!r}"
        return _check_keys(list(value), schema, pack, "chave")
    return None


def _check_keys(
    keys: list[Any], schema: tuple[str, ...] | str | None, pack: Pack | None, what: str
) -> str | None:
    if schema is None:
        return None
    if isinstance(schema, str):
        if pack is None:
            return None
        allowed: Iterable[str] = pack.groups if schema == "groups" else pack.infractions
        label = "grupo" if schema == "groups" else "código de infração"
        known = set(allowed)
        for k in keys:
            if str(k) not in known:
                return f"{label} não definido em infractions.yaml: {k!r}"
        return None
    for k in keys:
        if str(k) not in schema:
            return f"{what} fora do schema: {k!r} (permitidos: {', '.join(schema)})"
    return None
