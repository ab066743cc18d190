"""A cell's text read as the column says (dates dd/mm/aaaa, money with a comma, choices by their
Portuguese label), with a Portuguese refusal."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError

from lotacao.core.text import fold
from lotacao.onboarding.register.spec import BOOL, DATE, DATETIME, INT, MONEY, Column

_DATE_FORMATS = ("%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y")
_DATETIME_FORMATS = (
    "%d/%m/%Y %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M",
)


def parse_date(text: str) -> dt.date:
    for fmt in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()  # noqa: DTZ007 (a date: no time zone)
        except ValueError:
            continue
    raise ValidationError(f"Data {text} inválida: use o formato dd/mm/aaaa (por exemplo, 31/01/2024).")


def parse_datetime(text: str, zone: str) -> dt.datetime:
    for fmt in _DATETIME_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).replace(tzinfo=ZoneInfo(zone))
        except ValueError:
            continue
    raise ValidationError(
        f"Data e hora {text} inválidas: use o formato dd/mm/aaaa hh:mm (por exemplo, 31/01/2024 14:30)."
    )


def parse_money(text: str) -> Decimal:
    cleaned = text.replace("R$", "").replace(" ", "")
    if "," in cleaned:
        cleaned = cleaned.replace(".", "").replace(",", ".")
    try:
        value = Decimal(cleaned)
    except InvalidOperation as error:
        raise ValidationError(
            f"Valor {text} inválido: use números com vírgula (por exemplo, 150,00)."
        ) from error
    if not value.is_finite():
        raise ValidationError(f"Valor {text} inválido: use números com vírgula (por exemplo, 150,00).")
    return value.quantize(Decimal("0.01"))


def parse_int(text: str) -> int:
    if not re.fullmatch(r"\d{1,6}", text):
        raise ValidationError(f"Número {text} inválido: use apenas algarismos.")
    return int(text)


def parse_choice(column: Column, text: str) -> str:
    wanted = fold(text)
    for stored, label in column.choices.items():
        if wanted in (fold(label), fold(stored)):
            return stored
    options = ", ".join(column.choices.values())
    raise ValidationError(f"Valor {text} não reconhecido: use um destes: {options}.")


def parse(column: Column, text: str, zone: str) -> Any:
    """The cell's value, or the column's empty value ('' or None) when the cell is blank."""
    if not text:
        return "" if column.type == "text" and not column.choices else None
    if column.type == BOOL:
        return parse_choice(column, text) == "sim"
    if column.choices:
        return parse_choice(column, text)
    if column.type == DATE:
        return parse_date(text)
    if column.type == DATETIME:
        return parse_datetime(text, zone)
    if column.type == INT:
        return parse_int(text)
    if column.type == MONEY:
        return parse_money(text)
    return text
