"""Fare studies: a cost sheet in the GEIPOT shape → cost per km, fixed cost, total cost and fare.

Esteio art. 33: the fare is the total cost shared among the paying (equivalent) passengers; the
cost per km is the variable costs (fuel, lubricants, tyres, parts) plus the fixed ones (capital,
depreciation, return, staff, administration); the total cost adds ISS, PIS and COFINS and deducts
income tax (`fare.taxes`). Maricá art. 33: variable costs (fuel, lubricants, tyres, maintenance),
fixed costs (depreciation, return on the vehicle, operators' pay, insurance and charges, washing)
and a management cost of 2% of their sum (`fare.management_cost`). Items a law does not list are
simply left at zero; the law's items are read from the pack.

Reading taken for the taxes (Esteio art. 33, § 1º, III): each rate applies to the cost before
taxes; ISS, PIS and COFINS are added and income tax deducted.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing.fares.models import FareStudy
from lotacao.core import law
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Line

CENT = Decimal("0.01")
VARIABLE = {
    "fuel": "Combustível",
    "lubricants": "Lubrificantes",
    "tyres": "Rodagem (pneus, câmaras e recapagens)",
    "parts": "Peças e acessórios",
    "maintenance": "Manutenção mecânica e elétrica",
}
FIXED_PER_VEHICLE = {
    "insurance": "Seguro, taxas e encargos",
    "washing": "Lavagem e limpeza",
}
TAXES = {"iss": "ISS", "pis": "PIS", "cofins": "COFINS", "ir": "Imposto de Renda (deduzido)"}


def _num(inputs: dict[str, Any], key: str, label: str, *, required: bool = True) -> Decimal:
    raw = inputs.get(key)
    if raw in (None, ""):
        if required:
            raise ValidationError(f"Informe {label}.")
        return Decimal("0")
    try:
        value = Decimal(str(raw).replace(",", "."))
    except InvalidOperation as error:
        raise ValidationError(f"{label.capitalize()}: valor inválido ({raw}).") from error
    if not value.is_finite() or value < 0:
        raise ValidationError(f"{label.capitalize()}: informe um número não negativo.")
    return value


def compute(code: str, on: dt.date, inputs: dict[str, Any]) -> dict[str, Any]:
    """The study's results (strings of decimals) from its inputs, with the law's items and rates."""
    fleet = _num(inputs, "fleet", "a frota (veículos)")
    km = _num(inputs, "km_per_vehicle", "a quilometragem mensal por veículo")
    passengers = _num(inputs, "equivalent_passengers", "os passageiros equivalentes por mês")
    if fleet <= 0 or km <= 0 or passengers <= 0:
        raise ValidationError("Frota, quilometragem e passageiros equivalentes devem ser positivos.")
    fleet_km = fleet * km
    per_km = sum(
        (
            _num(inputs, f"{item}_price", f"o preço de {label.lower()}", required=False)
            * _num(inputs, f"{item}_consumption", f"o coeficiente de {label.lower()}", required=False)
            for item, label in VARIABLE.items()
        ),
        Decimal("0"),
    )
    variable = per_km * fleet_km
    price = _num(inputs, "vehicle_price", "o preço do veículo", required=False)
    depreciation = price * _num(inputs, "depreciation_rate", "a taxa de depreciação", required=False) / 1200
    capital = price * _num(inputs, "return_rate", "a taxa de remuneração do capital", required=False) / 1200
    staff = (
        _num(inputs, "operators_per_vehicle", "os operadores por veículo", required=False)
        * _num(inputs, "monthly_pay", "a remuneração mensal", required=False)
        * (1 + _num(inputs, "charges_percent", "os encargos sobre a remuneração", required=False) / 100)
    )
    per_vehicle = sum(
        (_num(inputs, item, label.lower(), required=False) for item, label in FIXED_PER_VEHICLE.items()),
        Decimal("0"),
    )
    fixed = (depreciation + capital + staff + per_vehicle) * fleet + _num(
        inputs, "administration", "as despesas administrativas", required=False
    )
    management_rate = Decimal(str((law.value(code, "fare.management_cost", on) or {}).get("rate", "0")))
    management = (variable + fixed) * management_rate / 100
    subtotal = variable + fixed + management
    allowed = law.value(code, "fare.taxes", on) or []
    taxes = Decimal("0")
    for tax in TAXES:
        rate = _num(inputs, f"tax_{tax}", f"a alíquota de {TAXES[tax]}", required=False)
        if rate and tax not in allowed:
            raise ValidationError(f"A planilha desta lei não prevê {TAXES[tax]}.")
        taxes += subtotal * rate / 100 * (-1 if tax == "ir" else 1)
    total = subtotal + taxes
    return {
        "variable_per_km": str(per_km.quantize(Decimal("0.0001"), ROUND_HALF_UP)),
        "variable_month": _c(variable),
        "fixed_month": _c(fixed),
        "cost_per_km": str(((variable + fixed) / fleet_km).quantize(Decimal("0.0001"), ROUND_HALF_UP)),
        "management_rate": str(management_rate),
        "management_month": _c(management),
        "taxes_month": _c(taxes),
        "total_month": _c(total),
        "fare": _c(total / passengers),
        "citations": [
            c for c in (_cite(code, "fare.management_cost", on), _cite(code, "fare.taxes", on)) if c
        ],
    }


def _c(value: Decimal) -> str:
    return str(value.quantize(CENT, ROUND_HALF_UP))


def _cite(code: str, name: str, on: dt.date) -> str:
    return law.citation(code, name, on)


@transaction.atomic
def create_study(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    title: str,
    inputs: dict[str, Any],
    reason: str,
    on: dt.date,
    line: Line | None = None,
    revision: bool = False,
    requested_by: str = "",
    request_reference: str = "",
) -> FareStudy:
    """A study with its computed results; a revision is refused where the law makes it depend on
    the operators' request and none is recorded (Esteio art. 34, p.ú.)."""
    code = jurisdiction.code
    if not title.strip():
        raise ValidationError("Dê um título ao estudo.")
    if line is not None and line.jurisdiction_id != code:
        raise ValidationError("A linha é de outra jurisdição.")
    found = law.entry(code, "fare.revision_on_request", on)
    if revision and found is not None and found.value is True and not requested_by.strip():
        raise ValidationError(
            "A revisão de tarifa depende de pedido das concessionárias ou permissionárias "
            f"({found.citation}): registre quem pediu e o protocolo."
        )
    outputs = compute(code, on, inputs)
    study = FareStudy(
        jurisdiction=jurisdiction,
        title=title.strip(),
        line=line,
        revision=revision,
        requested_by=requested_by.strip(),
        request_reference=request_reference.strip(),
        inputs={k: str(v) for k, v in inputs.items() if v not in (None, "")},
        outputs=outputs,
    )
    return create_audited(actor=actor, instance=study, reason=reason, action="fare_study.created")


@transaction.atomic
def freeze_study(*, actor: Any, study: FareStudy, reason: str) -> FareStudy:
    """Conclude a study: its inputs and outputs can no longer change (an act may cite it)."""
    study = FareStudy.unscoped.select_for_update().get(pk=study.pk)
    if study.status == FareStudy.Status.FROZEN:
        raise ValidationError("Este estudo já foi concluído.")
    return update_audited(
        actor=actor,
        instance=study,
        changes={"status": FareStudy.Status.FROZEN, "frozen_at": timezone.now()},
        reason=reason,
        action="fare_study.frozen",
    )
