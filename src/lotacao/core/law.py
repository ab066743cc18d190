"""The Django side's door to the rules engine (lotacao.law, pure Python)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.law.packs import get_pack


def resolve(jurisdiction_code: str, parameter: str, on: dt.date) -> Any:
    """The value of a pack parameter in force on a date (None when the law leaves it undefined)."""
    entry = get_pack(jurisdiction_code).resolve(parameter, on)
    return entry.value if entry.status == "value" else None


def citation(jurisdiction_code: str, parameter: str, on: dt.date) -> str:
    return str(get_pack(jurisdiction_code).resolve(parameter, on).citation)
