"""kind `quota`: how many vehicles or permits the law allows.

Parameters (each optional; a pack has those its law gives):
- `quota.vehicles_per_block` {vehicles: V, inhabitants: H}: at most V vehicles for each full H
  inhabitants (case input `population`) -> `max_vehicles`;
- `quota.max_permits_per_holder` (integer): case input `permits` (how many the holder would hold)
  -> `max_permits_per_holder`, `eligible`;
- `quota.max_vehicles_per_permit` (integer): case input `vehicles` -> `max_vehicles_per_permit`, `eligible`;
- `quota.interruption_days` {max_days: N, excess: revocation}: case input `interruption_days` (days of
  interruption of the service in the year, the one asked for included) -> `max_interruption_days`,
  `eligible`; beyond N the law's consequence (`excess`: revocation) is stated.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from lotacao.law.context import Context, get_int
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import Entry, Pack
from lotacao.law.units import number_pt
from lotacao.law.words import lower_first, plural

FIELDS = frozenset({"population", "permits", "vehicles", "interruption_days"})
RULES = (
    "quota.vehicles_per_block",
    "quota.max_permits_per_holder",
    "quota.max_vehicles_per_permit",
    "quota.interruption_days",
)
EXCESS_PT = {
    "revocation": "a interrupção além do prazo autorizado é considerada desistência da permissão e "
    "leva à sua cassação",
}


COUNT_LIMITS = (
    (
        "quota.max_permits_per_holder",
        "permits",
        "max_permits_per_holder",
        "permissão por permissionário",
        "permissões por permissionário",
    ),
    (
        "quota.max_vehicles_per_permit",
        "vehicles",
        "max_vehicles_per_permit",
        "veículo por permissão",
        "veículos por permissão",
    ),
)


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    rules = [r for r in RULES if ctx.has(r)]
    if not rules:
        raise CaseError("not_applicable", f"A {pack.law} não fixa limites de quantidade (quota).", "kind")
    result: dict[str, Any] = {}
    text: list[str] = []
    violations: list[dict[str, str]] = []
    asked = False
    undetermined = False
    if "quota.vehicles_per_block" in rules:
        _vehicles_per_block(case, ctx, result, text)
    # A limit whose input the case does not give is left out when the case asks about another one.
    given = {f for f in ("permits", "vehicles", "interruption_days") if case.get(f) is not None}
    for name, field, key, one, many in COUNT_LIMITS:
        if name not in rules or (given and field not in given):
            continue
        count = get_int(case, field, required=False)
        was_asked, unknown = _count_limit(ctx.entry(name), key, one, many, count, result, text, violations)
        asked, undetermined = asked or was_asked, undetermined or unknown
    if "quota.interruption_days" in rules and (not given or "interruption_days" in given):
        asked = _interruption(case, ctx, result, text, violations) or asked
    if asked:
        result["eligible"] = False if violations else None if undetermined else True
        result["violations"] = violations
    result["explanation"] = " ".join(text)
    return result


def _vehicles_per_block(
    case: Mapping[str, Any], ctx: Context, result: dict[str, Any], text: list[str]
) -> None:
    """So many vehicles for each complete block of inhabitants."""
    population = get_int(case, "population", required=True)
    assert population is not None
    entry = ctx.entry("quota.vehicles_per_block")
    if entry.status != "value":
        result["max_vehicles"] = None
        text.append(
            f"Limite de veículos por habitantes indefinido: {lower_first(entry.reason or '')} ({entry.cite})."
        )
        return
    per = int(entry.value["vehicles"])
    block = int(entry.value["inhabitants"])
    blocks = population // block
    result["max_vehicles"] = blocks * per
    text.append(
        f"População de {number_pt(Decimal(population))} habitantes: "
        f"{plural(blocks, 'bloco completo', 'blocos completos')} de "
        f"{number_pt(Decimal(block))} habitantes × {per} veículos = "
        f"no máximo {plural(blocks * per, 'veículo')} ({entry.cite})."
    )


def _count_limit(
    entry: Entry,
    key: str,
    one: str,
    many: str,
    count: int | None,
    result: dict[str, Any],
    text: list[str],
    violations: list[dict[str, str]],
) -> tuple[bool, bool]:
    """A maximum count (permits per holder, vehicles per permit): (asked, undetermined)."""
    if entry.status == "repealed":
        result[key] = None
        text.append(f"Sem limite de {many} nesta data: {lower_first(entry.reason or '')} ({entry.cite}).")
        return count is not None, False
    if entry.status != "value":
        result[key] = None
        text.append(
            f"Limite de {many} indefinido nesta data: {lower_first(entry.reason or '')} ({entry.cite})."
        )
        return count is not None, count is not None
    limit = int(entry.value)
    result[key] = limit
    text.append(f"Máximo de {plural(limit, one, many)} ({entry.cite}).")
    if count is None:
        return False, False
    if count > limit:
        message = f"{plural(count, one, many)} excede o máximo de {limit}."
        violations.append({"rule": key, "message": message, "citation": entry.citation})
        text.append(f"Informado: {count} — acima do limite.")
    else:
        text.append(f"Informado: {count} — dentro do limite.")
    return True, False


def _interruption(
    case: Mapping[str, Any],
    ctx: Context,
    result: dict[str, Any],
    text: list[str],
    violations: list[dict[str, str]],
) -> bool:
    """Days of interruption of the service in a year against the most the law lets be authorized."""
    days = get_int(case, "interruption_days", required=False)
    entry = ctx.entry("quota.interruption_days")
    if entry.status != "value":
        result["max_interruption_days"] = None
        text.append(
            f"Limite de interrupção do serviço indefinido: {lower_first(entry.reason or '')} ({entry.cite})."
        )
        return False
    limit = int(entry.value["max_days"])
    result["max_interruption_days"] = limit
    text.append(
        f"A interrupção do serviço, a pedido do permissionário, pode ser autorizada por até "
        f"{plural(limit, 'dia')} por ano ({entry.cite})."
    )
    if days is None:
        return False
    if days > limit:
        consequence = EXCESS_PT.get(str(entry.value.get("excess")), "")
        message = f"{plural(days, 'dia')} de interrupção no ano excedem o limite de {plural(limit, 'dia')}"
        violations.append(
            {"rule": "max_interruption_days", "message": message + ".", "citation": entry.citation}
        )
        where = entry.value.get("excess_cite")
        if where:
            for part in str(where).split("; "):
                ctx.cite(part)
            consequence += f" ({where})"
        text.append(
            f"Informado: {plural(days, 'dia')} — acima do limite"
            + (f"; {consequence}" if consequence else "")
            + "."
        )
    else:
        text.append(f"Informado: {plural(days, 'dia')} — dentro do limite.")
    return True
