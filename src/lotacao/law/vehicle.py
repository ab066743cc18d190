"""kind `vehicle`: may this vehicle enter, stay, replace another or be inspected?

Parameters (each optional; a pack has those its law gives; `undefined` where the law leaves the
value to the agency):
- `vehicle.categories` [car7, van, microbus, bus]: the categories allowed;
- `vehicle.category_modalities` {category: [modalities]}: categories allowed only in some modalities;
- `vehicle.seats` {any|<category>: {min, max}}: seats including driver and collector;
- `vehicle.doors_min` (integer);
- `vehicle.entry_max_age` (integer, years): only for admission (`entry`, and the new vehicle of `replace`);
- `vehicle.max_age` {any|<category>: years}: at any time (stay, inspection, entry);
- `vehicle.replacement` {max_age, not_older_than_replaced}: the vehicle that replaces another;
- `vehicle.insurance_min` {civil_liability, death_per_passenger, disability_per_passenger,
  third_party}: minimum cover in BRL; civil_liability may be {<category>: amount}. Checked only when
  the case gives `vehicle.insurance`.

Age in years on `date` = year of `date` - `manufacture_year`; "up to N years" means age <= N.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from lotacao.law.context import Context, check_keys, get, get_choice, get_decimal, get_int
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import Entry, Pack
from lotacao.law.units import brl, dec
from lotacao.law.words import join_pt, lower_first, modality_pt

FIELDS = frozenset({"action", "vehicle", "replaced", "modality"})
ACTIONS = ("entry", "keep", "replace", "inspection")
CATEGORIES = {
    "car7": "automóvel de 7 lugares",
    "van": "van",
    "microbus": "micro-ônibus",
    "bus": "ônibus",
}
MODALITIES = ("eventual", "tourism", "continuous", "social", "own", "tfd", "students")
VEHICLE_FIELDS = frozenset({"category", "manufacture_year", "seats", "doors", "insurance"})
INSURANCE = {
    "civil_liability": "responsabilidade civil",
    "death_per_passenger": "morte por passageiro",
    "disability_per_passenger": "invalidez por passageiro",
    "third_party": "danos a terceiros",
}
ACTION_PT = {
    "entry": "ingresso no serviço",
    "keep": "permanência em serviço",
    "replace": "substituição de veículo",
    "inspection": "vistoria",
}


class _Vehicle:
    def __init__(self, case: Mapping[str, Any], base: str, year: int) -> None:
        data = get(case, base)
        if not isinstance(data, Mapping):
            raise CaseError("invalid_field", f"O campo {base} deve ser um objeto.", base)
        check_keys(data, VEHICLE_FIELDS, base)
        category = get_choice(case, f"{base}.category", tuple(CATEGORIES))
        manufacture = get_int(case, f"{base}.manufacture_year", minimum=1900)
        assert category is not None and manufacture is not None
        if manufacture > year + 1:
            raise CaseError(
                "invalid_field",
                f"Ano de fabricação {manufacture} posterior ao ano da data do caso ({year}).",
                f"{base}.manufacture_year",
            )
        self.base = base
        self.category = category
        self.manufacture_year = manufacture
        self.age = max(0, year - manufacture)
        self.seats = get_int(case, f"{base}.seats", required=False, minimum=1)
        self.doors = get_int(case, f"{base}.doors", required=False, minimum=0)
        self.insurance: dict[str, Decimal] | None = None
        raw = data.get("insurance")
        if raw is not None:
            if not isinstance(raw, Mapping):
                raise CaseError(
                    "invalid_field", f"O campo {base}.insurance deve ser um objeto.", f"{base}.insurance"
                )
            check_keys(raw, frozenset(INSURANCE), f"{base}.insurance")
            self.insurance = {}
            for key in raw:
                value = get_decimal(case, f"{base}.insurance.{key}", required=False)
                if value is not None:
                    self.insurance[key] = value


class _Check:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.violations: list[dict[str, str]] = []
        self.passed: list[str] = []
        self.unchecked: list[str] = []

    def entry(self, name: str) -> Entry | None:
        """The rule in force, or None (no such rule in this law, repealed, or undefined -> noted)."""
        if not self.ctx.has(name):
            return None
        entry = self.ctx.entry(name, cite=False)
        if entry.status == "repealed":
            return None
        self.ctx.add_citation(entry.citation)
        if entry.status == "undefined":
            desc = self.ctx.pack.parameters[name].description
            self.unchecked.append(
                f"{lower_first(desc)}: não verificado — {lower_first(entry.reason or '')} ({entry.cite})"
            )
            return None
        return entry

    def fail(self, rule: str, message: str, citation: str) -> None:
        self.violations.append({"rule": rule, "message": message, "citation": citation})

    def ok(self, message: str) -> None:
        self.passed.append(message)


def _per_category(value: Mapping[str, Any], category: str) -> Any:
    if category in value:
        return value[category]
    return value.get("any")


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    action, modality, vehicle, replaced = _read_case(case, ctx)
    chk = _Check(ctx)
    check_category(chk, vehicle, modality)
    check_seats(chk, vehicle)
    check_doors(chk, vehicle)
    check_age(chk, vehicle, action)
    if replaced is not None:
        check_replacement(chk, vehicle, replaced)
    check_insurance(chk, vehicle)
    return _answer(chk, ctx, action, vehicle)


def _read_case(case: Mapping[str, Any], ctx: Context) -> tuple[str, str | None, _Vehicle, _Vehicle | None]:
    """The action, the modality, the vehicle and (only to replace another) the replaced vehicle."""
    action = get_choice(case, "action", ACTIONS)
    assert action is not None
    modality = get_choice(case, "modality", MODALITIES, required=False)
    year = ctx.date.year
    vehicle = _Vehicle(case, "vehicle", year)
    replaced = _Vehicle(case, "replaced", year) if action == "replace" else None
    if action != "replace" and case.get("replaced") is not None:
        raise CaseError("invalid_field", "O campo replaced só se usa com action = replace.", "replaced")
    return action, modality, vehicle, replaced


def check_category(chk: _Check, vehicle: _Vehicle, modality: str | None) -> None:
    """The category is admitted (vehicle.categories), and in this modality (vehicle.category_modalities)."""
    cat_pt = CATEGORIES[vehicle.category]
    entry = chk.entry("vehicle.categories")
    if entry is not None:
        if vehicle.category not in entry.value:
            allowed = ", ".join(CATEGORIES[c] for c in entry.value)
            chk.fail("category", f"Categoria {cat_pt} não admitida; admitidas: {allowed}.", entry.citation)
        else:
            chk.ok(f"categoria {cat_pt} admitida")
    entry = chk.entry("vehicle.category_modalities")
    if entry is not None and vehicle.category in entry.value:
        allowed_modalities = entry.value[vehicle.category]
        if modality not in allowed_modalities:
            told = modality_pt(modality) if modality else "modalidade não informada"
            listed = join_pt((modality_pt(m) for m in allowed_modalities), "ou")
            chk.fail(
                "category",
                f"Categoria {cat_pt} só é admitida no {listed} (informado: {told}).",
                entry.citation,
            )


def check_seats(chk: _Check, vehicle: _Vehicle) -> None:
    """The seats, driver and collector included, within the category's limits (vehicle.seats)."""
    entry = chk.entry("vehicle.seats")
    if entry is None or vehicle.seats is None:
        return
    limits = _per_category(entry.value, vehicle.category)
    if limits:
        low, high = limits.get("min"), limits.get("max")
        if low is not None and vehicle.seats < low:
            chk.fail("seats", f"{vehicle.seats} lugares: o mínimo é {low}.", entry.citation)
        elif high is not None and vehicle.seats > high:
            chk.fail("seats", f"{vehicle.seats} lugares: o máximo é {high}.", entry.citation)
        else:
            chk.ok(f"{vehicle.seats} lugares dentro do limite")


def check_doors(chk: _Check, vehicle: _Vehicle) -> None:
    """At least the doors the law requires (vehicle.doors_min)."""
    entry = chk.entry("vehicle.doors_min")
    if entry is None or vehicle.doors is None:
        return
    if vehicle.doors < int(entry.value):
        chk.fail("doors", f"{vehicle.doors} portas: exigidas {entry.value}.", entry.citation)
    else:
        chk.ok(f"{vehicle.doors} portas")


def check_age(chk: _Check, vehicle: _Vehicle, action: str) -> None:
    """The age limit to enter the service (vehicle.entry_max_age), then at any time (vehicle.max_age)."""
    age = vehicle.age
    if action in ("entry", "replace"):
        entry = chk.entry("vehicle.entry_max_age")
        if entry is not None:
            if age > int(entry.value):
                chk.fail(
                    "entry_age",
                    f"Veículo com {age} anos de fabricação: o ingresso admite até {entry.value} anos.",
                    entry.citation,
                )
            else:
                chk.ok(f"idade de {age} anos admitida no ingresso (até {entry.value})")
    entry = chk.entry("vehicle.max_age")
    if entry is not None:
        limit = _per_category(entry.value, vehicle.category)
        if limit is not None:
            if age > int(limit):
                chk.fail(
                    "max_age",
                    f"Veículo com {age} anos de fabricação: o limite para {CATEGORIES[vehicle.category]} "
                    f"é de {limit} anos.",
                    entry.citation,
                )
            else:
                chk.ok(f"idade de {age} anos dentro do limite de {limit}")


def check_replacement(chk: _Check, vehicle: _Vehicle, replaced: _Vehicle) -> None:
    """The vehicle that replaces another: its own age limit, and not older than the replaced one."""
    entry = chk.entry("vehicle.replacement")
    if entry is None:
        return
    age = vehicle.age
    rule = entry.value
    max_age = rule.get("max_age")
    if max_age is not None and age > int(max_age):
        chk.fail(
            "replacement_age",
            f"O veículo substituto tem {age} anos; a substituição exige até {max_age} anos.",
            entry.citation,
        )
    elif rule.get("not_older_than_replaced") and age > replaced.age:
        chk.fail(
            "replacement_age",
            f"O veículo substituto ({age} anos) é mais velho que o substituído ({replaced.age} anos).",
            entry.citation,
        )
    else:
        chk.ok(f"substituto com {age} anos atende à regra de substituição")


def check_insurance(chk: _Check, vehicle: _Vehicle) -> None:
    """Each cover at least the law's minimum (vehicle.insurance_min), when the case gives the insurance."""
    if vehicle.insurance is None:
        chk.unchecked.append("seguro: não informado no caso, não verificado")
        return
    entry = chk.entry("vehicle.insurance_min")
    if entry is None:
        return
    for key, label in INSURANCE.items():
        minimum = entry.value.get(key)
        if isinstance(minimum, Mapping):
            minimum = _per_category(minimum, vehicle.category)
        if minimum is None:
            continue
        have = vehicle.insurance.get(key)
        need = dec(minimum)
        if have is None or have < need:
            shown = brl(have) if have is not None else "não informada"
            chk.fail("insurance", f"Cobertura de {label}: {shown}; mínimo {brl(need)}.", entry.citation)
        else:
            chk.ok(f"cobertura de {label} de {brl(have)} (mínimo {brl(need)})")


def _answer(chk: _Check, ctx: Context, action: str, vehicle: _Vehicle) -> dict[str, Any]:
    """Eligible when nothing failed; the explanation lists the irregularities, what passed, and what
    could not be checked."""
    eligible = not chk.violations
    head = (
        f"{ACTION_PT[action].capitalize()} — veículo ({CATEGORIES[vehicle.category]}) fabricado em "
        f"{vehicle.manufacture_year} ({vehicle.age} anos em {ctx.date.year}): "
        + ("apto." if eligible else "não apto.")
    )
    parts = [head]
    if chk.violations:
        parts.append(
            "Irregularidades: "
            + " ".join(f"{v['message']} ({ctx.short(v['citation'])})." for v in chk.violations)
        )
    if chk.passed:
        parts.append("Atende: " + "; ".join(chk.passed) + ".")
    if chk.unchecked:
        parts.append("Observações: " + "; ".join(chk.unchecked) + ".")
    if not ctx.citations:
        ctx.cite("(a lei não fixa requisitos de veículo aplicáveis)")
    return {
        "action": action,
        "eligible": eligible,
        "age": vehicle.age,
        "violations": chk.violations,
        "explanation": " ".join(parts),
    }
