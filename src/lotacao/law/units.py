"""Money and fiscal units. Decimal throughout; rounded half-up to centavos only when shown."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

CENT = Decimal("0.01")
FISCAL_UNITS = frozenset({"UFIR", "UFRM", "UFIMA"})


def dec(value: Any) -> Decimal:
    """A Decimal from a pack value (a decimal string), an int or a Decimal."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, bool):
        raise TypeError("boolean is not a number")
    if isinstance(value, int | str):
        return Decimal(value)
    raise TypeError(f"not a decimal: {value!r}")


def money(value: Decimal) -> str:
    """`Decimal("121.35")` -> `"121.35"`: two places, half-up."""
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


def plain(value: Decimal) -> str:
    """A number of units without exponent or trailing zeros: 5500 -> "5500", 2.50 -> "2.5"."""
    if value == value.to_integral_value():
        return str(value.quantize(Decimal(1)))
    text = format(value.normalize(), "f")
    return text


def fiscal(units: Decimal, unit: str) -> dict[str, str]:
    """An amount in a fiscal unit, as the contract writes it: {"units": "200", "unit": "UFRM"}."""
    return {"units": plain(units), "unit": unit}


def brl(value: Decimal) -> str:
    """R$ 1.234,56 — for explanations read aloud."""
    text = f"{value.quantize(CENT, rounding=ROUND_HALF_UP):,.2f}"
    return "R$ " + text.replace(",", "_").replace(".", ",").replace("_", ".")


def number_pt(value: Decimal) -> str:
    """5500 -> "5.500"; 2.5 -> "2,5" (Portuguese digits for explanations)."""
    text = plain(value)
    whole, _, frac = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    whole = whole.lstrip("-")
    groups: list[str] = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return sign + ".".join(groups) + ("," + frac if frac else "")
