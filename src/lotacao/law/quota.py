"""kind `quota`: how many vehicles or permits the law allows.

Parameters (each optional; a pack has those its law gives):
- `quota.vehicles_per_block` {vehicles: V, inhabitants: H}: at most V vehicles for each full H
  inhabitants (case input `population`) -> `max_vehicles`;
- `quota.max_permits_per_holder` (integer): case input `permits` (how many the holder would hold)
  -> `max_permits_per_holder`, `eligible`;
- `quota.max_vehicles_per_permit` (integer): case input `vehicles` -> `max_vehicles_per_permit`, `eligible`.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from lotacao.law.context import Context, get_int
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import Pack
from lotacao.law.units import number_pt

FIELDS = frozenset({"population", "permits", "vehicles"})
RULES = ("quota.vehicles_per_block", "quota.max_permits_per_holder", "quota.max_vehicles_per_permit")


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
        population = get_int(case, "population", required=True)
        assert population is not None
        entry = ctx.entry("quota.vehicles_per_block")
        if entry.status == "value":
            per = int(entry.value["vehicles"])
            block = int(entry.value["inhabitants"])
            blocks = population // block
            result["max_vehicles"] = blocks * per
            text.append(
                f"População de {number_pt(Decimal(population))} habitantes: {blocks} bloco(s) completo(s) de "
                f"{number_pt(Decimal(block))} habitantes × {per} veículos = "
                f"no máximo {blocks * per} veículos "
                f"({entry.citation})."
            )
        else:
            result["max_vehicles"] = None
            text.append(f"Limite de veículos por habitantes indefinido: {entry.reason} ({entry.citation}).")

    for name, field, key, label in (
        (
            "quota.max_permits_per_holder",
            "permits",
            "max_permits_per_holder",
            "permissões por permissionário",
        ),
        ("quota.max_vehicles_per_permit", "vehicles", "max_vehicles_per_permit", "veículos por permissão"),
    ):
        if name not in rules:
            continue
        count = get_int(case, field, required=False)
        entry = ctx.entry(name)
        if entry.status == "value":
            limit = int(entry.value)
            result[key] = limit
            text.append(f"Máximo de {limit} {label} ({entry.citation}).")
            if count is not None:
                asked = True
                if count > limit:
                    violations.append(
                        {
                            "rule": key,
                            "message": f"{count} {label} excede o máximo de {limit}.",
                            "citation": entry.citation,
                        }
                    )
                    text.append(f"Informado: {count} — acima do limite.")
                else:
                    text.append(f"Informado: {count} — dentro do limite.")
        elif entry.status == "repealed":
            result[key] = None
            text.append(f"Sem limite de {label} nesta data: {entry.reason} ({entry.citation}).")
            asked = asked or count is not None
        else:
            result[key] = None
            text.append(f"Limite de {label} indefinido nesta data: {entry.reason} ({entry.citation}).")
            if count is not None:
                asked = undetermined = True
    if asked:
        result["eligible"] = False if violations else None if undetermined else True
        result["violations"] = violations
    result["explanation"] = " ".join(text)
    return result
