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
from dataclasses import dataclass, field
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


@dataclass
class _Fleet:
    """The case's figures and what each rule found, in the order the law states them."""

    modality: str
    category: str
    own: int
    leased: int
    regular: int
    moved: int
    violations: list[dict[str, str]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    undetermined: bool = False

    def violation(self, rule: str, message: str, citation: str) -> None:
        self.violations.append({"rule": rule, "message": message, "citation": citation})


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    if not any(ctx.has(r) for r in RULES):
        raise CaseError("not_applicable", f"A {pack.law} não fixa regras de frota (fleet).", "kind")
    own = get_int(case, "own_vehicles")
    assert own is not None
    fleet = _Fleet(
        modality=str(get_choice(case, "modality", MODALITIES)),
        category=str(get_choice(case, "vehicle_category", CATEGORIES)),
        own=own,
        leased=get_int(case, "leased_vehicles", required=False) or 0,
        regular=get_int(case, "regular_fleet", required=False) or 0,
        moved=get_int(case, "chartering_from_regular", required=False) or 0,
    )
    if ctx.has("fleet.min_own_vehicles"):
        _minimum_own_fleet(fleet, ctx)
    if ctx.has("fleet.max_leased_share"):
        _leased_share(fleet, ctx)
    if ctx.has("fleet.max_regular_share"):
        _regular_fleet_share(fleet, ctx)
    result = fleet.result
    result["eligible"] = False if fleet.violations else None if fleet.undetermined else True
    result["violations"] = fleet.violations
    verdict = "Frota regular." if not fleet.violations else "Frota irregular."
    result["explanation"] = " ".join([verdict, *fleet.text])
    return result


def _minimum_own_fleet(fleet: _Fleet, ctx: Context) -> None:
    """At least N own vehicles for these categories, except the exempt modalities."""
    entry = ctx.entry("fleet.min_own_vehicles")
    if entry.status == "undefined":
        fleet.undetermined = True
    if entry.status != "value":
        return
    rule = entry.value
    applies = fleet.category in rule.get("categories", CATEGORIES) and fleet.modality not in rule.get(
        "exempt_modalities", []
    )
    minimum = int(rule["vehicles"])
    own = plural(fleet.own, "veículo")
    if not applies:
        fleet.text.append(
            f"O mínimo de {minimum} veículos próprios não se aplica a "
            f"{CATEGORY_PT[fleet.category]} no {modality_pt(fleet.modality)} ({entry.cite})."
        )
    elif fleet.own < minimum:
        message = f"São exigidos ao menos {minimum} veículos próprios; informados {fleet.own}."
        fleet.violation("min_own_vehicles", message, entry.citation)
        fleet.text.append(f"Frota própria de {own}, abaixo do mínimo de {minimum} ({entry.cite}).")
    else:
        fleet.text.append(f"Frota própria de {own}: atende ao mínimo de {minimum} ({entry.cite}).")


def _leased_exempt(fleet: _Fleet, ctx: Context) -> bool:
    """Whether a listed (modality, category) combination frees the case from the leasing limit."""
    if not ctx.has("fleet.leased_exemptions"):
        return False
    ex = ctx.entry("fleet.leased_exemptions", cite=False)
    if ex.status != "value":
        return False
    exempt = False
    for item in ex.value:
        if item.get("modality") == fleet.modality and item.get("category") == fleet.category:
            exempt = True
            ctx.add_citation(ex.citation)
            fleet.text.append(
                f"O limite de veículos arrendados não se aplica a {CATEGORY_PT[fleet.category]} no "
                f"{modality_pt(fleet.modality)} ({ex.cite})."
            )
    return exempt


def _leased_share(fleet: _Fleet, ctx: Context) -> None:
    """Leased, rented or loaned vehicles up to a share of the own fleet."""
    entry = ctx.entry("fleet.max_leased_share")
    exempt = _leased_exempt(fleet, ctx)
    if entry.status != "value":
        fleet.result["max_leased"] = None
        fleet.undetermined = fleet.undetermined or (entry.status == "undefined" and fleet.leased > 0)
        return
    percent = dec(entry.value["percent"])
    limit = share(fleet.own, percent, str(entry.value.get("rounding", "down")))
    fleet.result["max_leased"] = None if exempt else limit
    if exempt:
        return
    fleet.text.append(
        f"Veículos arrendados, locados ou em comodato: até {number_pt(percent)}% da frota "
        f"própria de {fleet.own}, arredondado para cima, ou seja {limit}; informados {fleet.leased} "
        f"({entry.cite})."
    )
    if fleet.leased > limit:
        message = f"{fleet.leased} veículos arrendados excedem o limite de {limit}."
        fleet.violation("max_leased", message, entry.citation)


def _regular_fleet_share(fleet: _Fleet, ctx: Context) -> None:
    """A regular-line operator may move up to a share of its regular fleet to chartering."""
    entry = ctx.entry("fleet.max_regular_share")
    if entry.status != "value":
        fleet.result["max_chartering_from_regular"] = None
        fleet.undetermined = fleet.undetermined or (entry.status == "undefined" and fleet.moved > 0)
        return
    percent = dec(entry.value["percent"])
    limit = share(fleet.regular, percent, str(entry.value.get("rounding", "down")))
    fleet.result["max_chartering_from_regular"] = limit
    fleet.text.append(
        f"Da frota regular de {plural(fleet.regular, 'veículo')}, até {number_pt(percent)}%, ou seja "
        f"{plural(limit, 'veículo')}, pode ir para o fretamento; informados {fleet.moved} "
        f"({entry.cite})."
    )
    if fleet.moved > limit:
        message = f"{fleet.moved} veículos da frota regular excedem o limite de {limit}."
        fleet.violation("max_chartering_from_regular", message, entry.citation)
