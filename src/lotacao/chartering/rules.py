"""What the law says about chartering, read from the pack through `lotacao.core.law` (never from a
jurisdiction's name): a jurisdiction regulates chartering when its pack has `chartering.modalities`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError

from lotacao.core import law
from lotacao.core.formats import br_date
from lotacao.law.packs import Entry

MODALITIES = "chartering.modalities"


def regulates_chartering(code: str) -> bool:
    return law.pack_for(code).has(MODALITIES)


def entry(code: str, name: str, on: dt.date) -> Entry | None:
    """The entry in force, or None where the law has no such rule (or no longer)."""
    found = law.entry(code, name, on)
    return None if found is None or found.status == "repealed" else found


def value(code: str, name: str, on: dt.date) -> Any:
    return law.value(code, name, on)


def citation(code: str, name: str, on: dt.date) -> str:
    found = entry(code, name, on)
    return str(found.citation) if found is not None else ""


def require(code: str, name: str, on: dt.date, what: str) -> Any:
    """The value in force, or a Portuguese refusal saying the law (or the agency) must give it."""
    found = entry(code, name, on)
    if found is None:
        raise ValidationError(f"A lei desta jurisdição não trata de {what}.")
    if found.status != "value":
        raise ValidationError(
            f"{what[:1].upper()}{what[1:]}: {found.reason} ({found.citation}). "
            "O gestor informa esse valor em Valores da lei."
        )
    return found.value


def modalities(code: str, on: dt.date) -> dict[str, str]:
    """Modality id -> its Portuguese name ({} where the law has no chartering)."""
    found = value(code, MODALITIES, on)
    return dict(found) if found else {}


def modality_label(code: str, modality: str, on: dt.date) -> str:
    return modalities(code, on).get(modality, modality)


def modality_names(code: str, items: list[str], on: dt.date) -> str:
    names = [modality_label(code, m, on).replace("Fretamento ", "").replace("fretamento ", "") for m in items]
    if not names:
        return "nenhuma"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " e " + names[-1]


def check_modalities(code: str, items: list[str], on: dt.date) -> list[str]:
    known = modalities(code, on)
    if not known:
        raise ValidationError("A lei desta jurisdição não regula o fretamento.")
    chosen = list(dict.fromkeys(items))
    if not chosen:
        raise ValidationError("Escolha ao menos uma modalidade de fretamento (art. 35, § 1º).")
    unknown = [m for m in chosen if m not in known]
    if unknown:
        raise ValidationError(f"Modalidade desconhecida: {', '.join(unknown)}.")
    return chosen


def deadline(code: str, deadline_id: str, start: dt.date) -> dict[str, Any]:
    """The engine's `deadline` kind: due date, citations and the explanation."""
    result = law.evaluate_case(
        {"jurisdiction": code, "kind": "deadline", "deadline": deadline_id, "date": start.isoformat()}
    )
    if "error" in result:
        raise ValidationError(result["error"]["message"])
    return result


@dataclass(frozen=True)
class Validity:
    until: dt.date
    by_policy: bool
    citation: str


def crc_validity(code: str, issued_on: dt.date, policy_ends: dt.date | None) -> Validity:
    """The CRC's last day: the day before the anniversary of the issue, never after the policy's end."""
    rule = require(code, "chartering.crc_validity", issued_on, "a validade do CRC")
    cite = citation(code, "chartering.crc_validity", issued_on)
    until = issued_on + relativedelta(years=int(rule["years"])) - dt.timedelta(days=1)
    if rule.get("limited_by_insurance"):
        if policy_ends is None:
            raise ValidationError(
                f"O CRC não pode ser emitido sem apólice de seguro em vigor na frota ({cite}; art. 15)."
            )
        if policy_ends < until:
            return Validity(policy_ends, True, cite)
    return Validity(until, False, cite)


def sanction_rule(code: str, kind: str, on: dt.date) -> tuple[dict[str, Any], str]:
    rules = require(code, "chartering.crc_sanctions", on, "as sanções do CRC")
    if kind not in rules:
        raise ValidationError("A lei não prevê esta sanção do CRC.")
    return dict(rules[kind]), citation(code, "chartering.crc_sanctions", on)


def pt(day: dt.date | None) -> str:
    return br_date(day) if day else "—"


def cite(code: str, text: str) -> str:
    return law.pack_for(code).cite(text)
