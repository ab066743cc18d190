"""kind `fleet`: a chartering company's fleet against the law's proportions (Pernambuco).

Parameters:
- `fleet.min_own_vehicles` {vehicles: N, categories: [...], exempt_modalities: [...]}: at least N
  own vehicles when chartering with a vehicle of those categories, except those modalities;
- `fleet.max_leased_share` {percent: P, rounding: up|down}: leased vehicles up to P% of the own
  fleet; `fleet.leased_exemptions` [{modality, category}]: combinations the limit does not bind;
- `fleet.max_regular_share` {percent: P, rounding: up|down}: share of a regular operator's fleet
  it may move to chartering.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

from lotacao.law.context import Context, get_choice, get_int
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import Pack
from lotacao.law.units import dec, number_pt
from lotacao.law.words import CATEGORY_PT, modality_pt, plural

FIELDS = frozenset(
    {
        "modality",
        "vehicle_category",
        "own_vehicles",
        "leased_vehicles",
        "regular_fleet",
        "chartering_from_regular",
    }
)
MODALITIES = ("eventual", "tourism", "continuous", "social", "own", "tfd", "students")
CATEGORIES = ("car7", "van", "microbus", "bus")
RULES = ("fleet.min_own_vehicles", "fleet.max_leased_share", "fleet.max_regular_share")


def share(total: int, percent: Decimal, rounding: str) -> int:
    raw = Decimal(total) * percent / 100
    return int(raw.to_integral_value(rounding=ROUND_CEILING if rounding == "up" else ROUND_FLOOR))


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    if not any(ctx.has(r) for r in RULES):
        raise CaseError("not_applicable", f"A {pack.law} não fixa regras de frota (fleet).", "kind")
    modality = get_choice(case, "modality", MODALITIES)
    category = get_choice(case, "vehicle_category", CATEGORIES)
    own = get_int(case, "own_vehicles")
    leased = get_int(case, "leased_vehicles", required=False) or 0
    regular = get_int(case, "regular_fleet", required=False) or 0
    moved = get_int(case, "chartering_from_regular", required=False) or 0
    assert own is not None
    violations: list[dict[str, str]] = []
    text: list[str] = []
    result: dict[str, Any] = {}
    undetermined = False

    if ctx.has("fleet.min_own_vehicles"):
        entry = ctx.entry("fleet.min_own_vehicles")
        if entry.status == "value":
            rule = entry.value
            applies = category in rule.get("categories", CATEGORIES) and modality not in rule.get(
                "exempt_modalities", []
            )
            minimum = int(rule["vehicles"])
            if not applies:
                text.append(
                    f"O mínimo de {minimum} veículos próprios não se aplica a "
                    f"{CATEGORY_PT[str(category)]} no {modality_pt(modality)} "
                    f"({entry.cite})."
                )
            elif own < minimum:
                violations.append(
                    {
                        "rule": "min_own_vehicles",
                        "message": f"São exigidos ao menos {minimum} veículos próprios; informados {own}.",
                        "citation": entry.citation,
                    }
                )
                text.append(
                    f"Frota própria de {plural(own, 'veículo')}, abaixo do mínimo de {minimum} "
                    f"({entry.cite})."
                )
            else:
                text.append(
                    f"Frota própria de {plural(own, 'veículo')}: atende ao mínimo de {minimum} "
                    f"({entry.cite})."
                )
        elif entry.status == "undefined":
            undetermined = True

    if ctx.has("fleet.max_leased_share"):
        entry = ctx.entry("fleet.max_leased_share")
        exempt = False
        if ctx.has("fleet.leased_exemptions"):
            ex = ctx.entry("fleet.leased_exemptions", cite=False)
            if ex.status == "value":
                for item in ex.value:
                    if item.get("modality") == modality and item.get("category") == category:
                        exempt = True
                        ctx.add_citation(ex.citation)
                        text.append(
                            f"O limite de veículos arrendados não se aplica a "
                            f"{CATEGORY_PT[str(category)]} no {modality_pt(modality)} "
                            f"({ex.cite})."
                        )
        if entry.status == "value":
            percent = dec(entry.value["percent"])
            limit = share(own, percent, str(entry.value.get("rounding", "down")))
            result["max_leased"] = None if exempt else limit
            if not exempt:
                text.append(
                    f"Veículos arrendados, locados ou em comodato: até {number_pt(percent)}% da frota "
                    f"própria de {own}, arredondado para cima, ou seja {limit}; informados {leased} "
                    f"({entry.cite})."
                )
                if leased > limit:
                    violations.append(
                        {
                            "rule": "max_leased",
                            "message": f"{leased} veículos arrendados excedem o limite de {limit}.",
                            "citation": entry.citation,
                        }
                    )
        else:
            result["max_leased"] = None
            undetermined = undetermined or (entry.status == "undefined" and leased > 0)

    if ctx.has("fleet.max_regular_share"):
        entry = ctx.entry("fleet.max_regular_share")
        if entry.status == "value":
            percent = dec(entry.value["percent"])
            limit = share(regular, percent, str(entry.value.get("rounding", "down")))
            result["max_chartering_from_regular"] = limit
            text.append(
                f"Da frota regular de {plural(regular, 'veículo')}, até {number_pt(percent)}%, ou seja "
                f"{plural(limit, 'veículo')}, pode ir para o fretamento; informados {moved} "
                f"({entry.cite})."
            )
            if moved > limit:
                violations.append(
                    {
                        "rule": "max_chartering_from_regular",
                        "message": f"{moved} veículos da frota regular excedem o limite de {limit}.",
                        "citation": entry.citation,
                    }
                )
        else:
            result["max_chartering_from_regular"] = None
            undetermined = undetermined or (entry.status == "undefined" and moved > 0)

    result["eligible"] = False if violations else None if undetermined else True
    result["violations"] = violations
    verdict = "Frota regular." if not violations else "Frota irregular."
    result["explanation"] = " ".join([verdict, *text])
    return result
