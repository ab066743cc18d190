"""What billing reads from the law (always through lotacao.core.law, never by a jurisdiction's name).

Parameters billing reads, per pack (docs/billing.md has the list with each law's values):
- `fee.<id>`: the fee's rule (the engine's `fee` kind computes it); `fee.due_day.<id>`;
  `fee.exempt_modalities.<id>`; `fee.base.<id>`: how the agency turns demand into the money base
  of a fee on demand (`{method: passengers_x_fare | declared_revenue | survey}`), left open by
  the laws (Recife art. 25, § 1º, I; Cabo art. 3º);
- `billing.monthly_fees`: the fees the monthly run charges (a rate on demand, or per vehicle);
- `billing.funds`: the earmarked funds and what feeds each (`{fund: {label, sources}}`, a source
  being a fee id or `fines`);
- `billing.late_charges`: late penalty and interest (`{penalty_percent, monthly_interest_percent}`),
  only where the agency recorded the act that sets them;
- `billing.pix`: the agency's PIX key, beneficiary and city (`{key, beneficiary, city}`);
- `fare.readjusted_parameters`: the nominal values a fare readjustment corrects.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from lotacao.core import law

FINES = "fines"
BASE_METHODS = {
    "passengers_x_fare": "passageiros pagantes × tarifa da linha",
    "declared_revenue": "receita tarifária declarada",
    "survey": "pesquisa operacional do órgão",
}


def description(code: str, parameter: str) -> str:
    pack = law.pack_for(code)
    return pack.parameters[parameter].description if pack.has(parameter) else parameter


def fee_ids(code: str) -> list[str]:
    pack = law.pack_for(code)
    return sorted(
        n[4:] for n in pack.parameters if n.startswith("fee.") and n.count(".") == 1 and n != "fee.correction"
    )


def fee_rule(code: str, fee_id: str, on: dt.date) -> dict[str, Any] | None:
    found = law.value(code, f"fee.{fee_id}", on)
    return dict(found) if isinstance(found, dict) else None


def monthly_fees(code: str, on: dt.date) -> tuple[list[str], Any]:
    """The fees the monthly run charges on `on` (`billing.monthly_fees`) and the entry (None when
    the law has no monthly fee; an `undefined` entry is a value the run reports missing)."""
    found = law.entry(code, "billing.monthly_fees", on)
    if found is None or found.status != "value":
        return [], found
    return [str(f) for f in found.value], found


def fund_of(code: str, source: str, on: dt.date) -> str:
    funds = law.value(code, "billing.funds", on) or {}
    for fund, spec in funds.items():
        if source in (spec.get("sources") or []):
            return str(fund)
    return ""


def fund_labels(code: str, on: dt.date) -> dict[str, str]:
    funds = law.value(code, "billing.funds", on) or {}
    return {str(k): str(v.get("label", k)) for k, v in funds.items()}


def fund_citation(code: str, on: dt.date) -> str:
    return law.citation(code, "billing.funds", on)


def late_charges(code: str, on: dt.date) -> tuple[Decimal, Decimal, str] | None:
    """(penalty %, monthly interest %, citation) where the agency recorded the act; else None."""
    found = law.entry(code, "billing.late_charges", on)
    if found is None or found.status != "value":
        return None
    value = found.value
    return (
        Decimal(str(value.get("penalty_percent", "0"))),
        Decimal(str(value.get("monthly_interest_percent", "0"))),
        str(found.citation),
    )


def pix(code: str, on: dt.date) -> dict[str, str] | None:
    value = law.value(code, "billing.pix", on)
    if not isinstance(value, dict) or not value.get("key"):
        return None
    return {k: str(v) for k, v in value.items()}
