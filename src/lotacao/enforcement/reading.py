"""Small readings every enforcement wing shares: the day of a moment where the jurisdiction is
(the law counts days there), the infraction's day, why the law gives no value (for a message that
says so), dates in Brazilian format and penalties in words. Nothing here writes, and nothing here
imports the models (the models read it too)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from lotacao.core.formats import brl
from lotacao.core.law import entry

DEFAULT_ZONE = "America/Sao_Paulo"
PENALTY_LABELS = {
    "warning": "Advertência",
    "fine": "Multa",
    "suspension": "Suspensão",
    "revocation": "Cassação",
    "course": "Curso obrigatório",
    "intervention": "Intervenção",
    "crc_suspension": "Suspensão do CRC",
    "crc_cancellation": "Cancelamento do CRC",
    "crc_revocation": "Cassação do CRC",
}

# The engine's measure ids in words (as `Measure.Kind` labels them, and the ones no Measure row
# takes: Esteio's offset of what is owed, Anexo II, IV-02).
MEASURE_WORDS = {
    "vehicle_retention": "Retenção do veículo",
    "vehicle_removal": "Afastamento do veículo",
    "vehicle_seizure": "Remoção e apreensão do veículo",
    "document_seizure": "Recolhimento de documentos",
    "staff_removal": "Afastamento do pessoal de operação",
    "permit_suspension": "Suspensão da permissão",
    "credit_offset": "Desconto do valor devido de créditos do infrator",
}
# What the offender owes besides the penalty (the engine's `charges`; Esteio art. 18, c).
CHARGE_WORDS = {
    "removal_and_storage_costs": "Ressarcimento das despesas de remoção e estadia do veículo",
    "fine_equal_to_costs": "Multa de valor igual às despesas de remoção e estadia (reincidência)",
}


def measure_words(kind: str) -> str:
    return MEASURE_WORDS.get(kind, "Medida administrativa")


def br(day: dt.date) -> str:
    """`31/12/2025`."""
    return f"{day:%d/%m/%Y}"


def local_day(jurisdiction: Any, moment: dt.datetime) -> dt.date:
    """The day of `moment` where the jurisdiction is (its time zone)."""
    return moment.astimezone(ZoneInfo(jurisdiction.timezone or DEFAULT_ZONE)).date()


def infraction_day(notice: Any) -> dt.date:
    """The day of the infraction where it happened: the date the pack's rules are read for."""
    return local_day(notice.jurisdiction, notice.drawn_up_at)


def silence(code: str, parameter: str, on: dt.date) -> tuple[str, str]:
    """(why the law gives no value, its citation) — for a message that says a value is missing."""
    found = entry(code, parameter, on)
    if found is None:
        return "a lei não trata do assunto", ""
    return (found.reason or "a lei não define").strip().rstrip("."), str(found.citation)


def citation_of(code: str, parameter: str, on: dt.date) -> str:
    """The citation of a pack parameter in force on `on` ("" when the law does not treat it)."""
    found = entry(code, parameter, on)
    return str(found.citation) if found is not None else ""


def silence_text(code: str, parameter: str, on: dt.date) -> str:
    """`a lei não define (art. 12)`: why the law gives no value, with its article, in a sentence."""
    reason, where = silence(code, parameter, on)
    return f"{reason} ({where})" if where else reason


def describe_penalty(penalty: dict[str, Any] | None) -> str:
    """`Multa de R$ 100,00; Suspensão de 15 dias` — the penalty in Portuguese."""
    parts = []
    for item in (penalty or {}).get("penalties", []):
        label = PENALTY_LABELS.get(item.get("type", ""), item.get("type", ""))
        if item.get("amount") is not None:
            label += f" de {brl(item['amount'])}"
        elif item.get("units") is not None:
            label += f" de {item['units']} {item.get('unit', '')}".rstrip()
        if item.get("days"):
            label += f" de {item['days']} dias"
        if item.get("ban_years"):
            label += f" (impedimento de {item['ban_years']} anos)"
        parts.append(label)
    return "; ".join(parts) or "—"


def law_date(value: dt.datetime | dt.date) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value


def base_fine_words(result: dict[str, Any] | None) -> str:
    """The fine base the engine used and the act it comes from (Recife art. 36, § 1º; art. 45,
    parágrafo único): "Valor base da multa (Vb): R$ 54,00, desde 01/01/2027 — Decreto nº 100/2026"."""
    base = (result or {}).get("base_fine")
    if not isinstance(base, dict) or base.get("amount") is None:
        return ""
    since = dt.date.fromisoformat(str(base.get("since")))
    count = len(base.get("readjustments") or [])
    text = f"Valor base da multa (Vb): {brl(base['amount'])}, desde {br(since)} — {base.get('act', '')}"
    if count == 0:
        return f"{text} (valor fixado pela lei, sem reajuste tarifário registrado)."
    plural = "reajustes tarifários registrados" if count > 1 else "reajuste tarifário registrado"
    return f"{text} ({count} {plural})."


def charge_words(result: dict[str, Any] | None) -> list[str]:
    """What the offender owes besides the penalty, in words with the article (Esteio art. 18, c
    and parágrafo único)."""
    out = []
    for charge in (result or {}).get("charges") or []:
        if isinstance(charge, dict):
            words = CHARGE_WORDS.get(str(charge.get("type")), "Outro valor devido")
            out.append(f"{words} ({charge.get('citation', '')})" if charge.get("citation") else words)
    return out
