"""Measures the law offers as alternatives: the body that judges chooses one.

Esteio, Anexo II, IV-02 ("desconto do valor devido ou suspensão da permissão"): the engine lists
both, each item with `choice` (the alternatives). The decision that keeps the penalty records the
one chosen (`chosen: true`), never both; a suspension needs its days, which the row does not give:
they come from the agency's value (`measure.suspension_days`, in Valores da lei), else the choice
is refused naming the missing value. The chosen measure's effect follows at finality
(`sanctions.effects`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.core.law import entry, pack_for
from lotacao.enforcement.reading import measure_words

SUSPENSION_DAYS = "measure.suspension_days"


def alternatives(penalty: dict[str, Any]) -> list[str]:
    """The measures among which the body chooses (empty: no choice, or already made)."""
    for item in penalty.get("measures") or []:
        if isinstance(item, dict) and item.get("choice") and not item.get("chosen"):
            return [str(kind) for kind in item["choice"]]
    return []


def _days(code: str, infraction: str, item: dict[str, Any], on: dt.date) -> int:
    """The suspension's days: the engine's, else the agency's value for the code; refused when the
    law and the agency give none."""
    if item.get("days"):
        return int(item["days"])
    found = entry(code, SUSPENSION_DAYS, on)
    given = (found.value or {}).get(infraction) if found is not None and found.status == "value" else None
    if given:
        return int(given)
    what = pack_for(code).parameters[SUSPENSION_DAYS].description if found is not None else "o prazo"
    where = f" ({found.citation})" if found is not None else ""
    raise ValidationError(
        f"A suspensão da permissão não tem prazo: falta o valor “{what}”{where}. O órgão gestor o "
        "informa em Valores da lei, com o ato que o fixou; até lá, escolha a outra medida."
    )


def choose(
    code: str, infraction: str, penalty: dict[str, Any], chosen: str | None, on: dt.date
) -> dict[str, Any]:
    """The penalty with the chosen measure alone among the alternatives (`chosen: true`, days
    resolved for a suspension). Refused without a choice, or with one the law does not offer."""
    options = alternatives(penalty)
    if not options:
        return penalty
    if not chosen:
        listed = " ou ".join(measure_words(kind).lower() for kind in options)
        raise ValidationError(f"A lei deixa ao órgão escolher uma só medida: {listed}. Escolha uma.")
    if chosen not in options:
        raise ValidationError(f"A lei não oferece {measure_words(chosen).lower()} como alternativa.")
    measures: list[dict[str, Any]] = []
    for item in penalty.get("measures") or []:
        if not (isinstance(item, dict) and item.get("choice")):
            measures.append(item)
        elif item.get("type") == chosen:
            picked = {k: v for k, v in item.items() if k != "choice"}
            if chosen == "permit_suspension":
                picked["days"] = _days(code, infraction, item, on)
            measures.append({**picked, "chosen": True})
    return {**penalty, "measures": measures}
