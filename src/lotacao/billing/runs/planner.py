"""The monthly run's plan: every charge a period would create, why, and what is missing.

The run of period P (a month) charges the fees of `billing.monthly_fees`:
- a rate on demand (Recife's management fee, art. 25, § 1º, I: "da demanda transportada no mês
  anterior"; Cabo's RST, art. 3º): on each declaration of the month before P of a holder enrolled
  (an open account) at some day of that month, the money base by the agency's method
  (`fee.base.<id>`), valued by the engine on P's first day;
- an amount per vehicle (Pernambuco's FUSP-F: NV × R$ 40,45, due on day 10 of P): on each open
  account, its vehicles with a traffic authorization on P's first day (asked through the seam
  `fee_vehicles`: chartering knows them), with the account's modality for exemptions.
A value the law leaves open and the agency has not supplied (the base, a rate, a due day) is a
refusal naming it; the run is not made until it is supplied. Charges already made for P (their
key exists) are not planned again.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from dateutil.relativedelta import relativedelta
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from lotacao.billing import lawdata
from lotacao.billing.fares.models import FareAct
from lotacao.billing.ledger.models import Account, Charge
from lotacao.billing.runs.models import DemandDeclaration
from lotacao.core import law
from lotacao.core.formats import br_date, brl
from lotacao.core.providers import providers
from lotacao.registry.models import Holder, Vehicle


@dataclass
class Plan:
    code: str
    period: dt.date
    lines: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def refuse(self, text: str) -> None:
        if text not in self.refusals:
            self.refusals.append(text)


def _missing(code: str, name: str, on: dt.date, what: str = "") -> str:
    found = law.entry(code, name, on)
    label = lawdata.description(code, name)
    why = found.reason if found is not None and found.reason else "sem valor em vigor nesta data"
    cite = f" ({found.citation})" if found is not None else ""
    extra = f" {what}" if what else ""
    return (
        f"Falta o valor “{label}” em {br_date(on)}{extra}: {why}{cite}. O gestor o informa em Valores da lei."
    )


def build_plan(code: str, period: dt.date, on: dt.date | None = None) -> Plan:
    period = period.replace(day=1)
    plan = Plan(code=code, period=period)
    fees, found = lawdata.monthly_fees(code, period)
    if found is not None and found.status == "undefined":
        plan.refuse(_missing(code, "billing.monthly_fees", period))
    existing = set(
        Charge.unscoped.filter(jurisdiction_id=code, key__startswith=f"run:{period:%Y-%m}:").values_list(
            "key", flat=True
        )
    )
    for fee in fees:
        entry = law.entry(code, f"fee.{fee}", period)
        if entry is None or entry.status == "repealed":
            continue
        if entry.status == "undefined":
            plan.refuse(_missing(code, f"fee.{fee}", period))
            continue
        if "rate" in entry.value:
            _plan_rate_fee(plan, fee, existing)
        elif entry.value.get("per") == "vehicles":
            _plan_vehicle_fee(plan, fee, existing)
    plan.notes += late_notes(plan.lines, on or timezone.localdate())
    return plan


_DUE_SENTENCE = re.compile(r"Vencimento[^.]*?\d{2}/\d{2}/\d{4}[^.]*?(?:\([^()]*\))?\.")


def late_notes(lines: list[dict[str, Any]], on: dt.date) -> list[str]:
    """A run made after the due date the law fixes does not issue overdue slips silently: it says,
    per fee, which due date the law gives, that it has passed on `on`, and what follows."""
    notes: list[str] = []
    seen: set[tuple[str, str]] = set()
    for line in lines:
        due = dt.date.fromisoformat(str(line["due_on"]))
        key = (str(line.get("fee", "")), str(line["due_on"]))
        if due >= on or key in seen:
            continue
        seen.add(key)
        found = _DUE_SENTENCE.search(str(line.get("explanation", "")))
        how = found.group(0) if found else f"Vencimento: {br_date(due)} ({line.get('citation', '')})."
        notes.append(
            f"Faturamento feito depois do vencimento — {str(line.get('description', '')).split(' — ')[0]}: "
            f"{how} Em {br_date(on)} esse vencimento já passou: as guias deste faturamento saem "
            "vencidas. O sistema não muda o vencimento fixado; outro prazo exige ato do órgão."
        )
    return notes


class _Engine:
    """The engine's answer per distinct input (a run asks the same question many times)."""

    def __init__(self, code: str, fee: str, on: dt.date) -> None:
        self.code, self.fee, self.on = code, fee, on
        self.cache: dict[tuple[Any, ...], dict[str, Any]] = {}

    def __call__(self, **inputs: Any) -> dict[str, Any]:
        key = tuple(sorted(inputs.items()))
        if key not in self.cache:
            case = {"jurisdiction": self.code, "kind": "fee", "fee": self.fee, "date": self.on.isoformat()}
            self.cache[key] = law.evaluate_case({**case, **inputs})
        return self.cache[key]


@dataclass(frozen=True, slots=True)
class _Declaration:
    """The fields of a declaration the plan reads (a row, not a model: a run reads 100,000s)."""

    holder_id: int
    holder: str
    line_id: int
    line_code: str
    month: dt.date
    revenue: Decimal | None
    full_passengers: int
    reduced_passengers: int


def holder_names(code: str, ids: set[int] | None = None) -> dict[int, str]:
    """{holder id: str(holder)} read as rows — the holder's person, or company (trade name, else
    legal name), as `Holder.__str__` names them — without building three models per holder."""
    rows = Holder.unscoped.filter(jurisdiction_id=code)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    names: dict[int, str] = {}
    for pk, person, trade, legal, company_id in rows.values_list(
        "pk", "person__full_name", "company__trade_name", "company__legal_name", "company_id"
    ).iterator(chunk_size=5000):
        if person is not None:
            names[pk] = person
        elif company_id is not None:
            names[pk] = trade or legal
        else:
            names[pk] = f"Permissionário #{pk}"
    return names


def _base_of(plan: Plan, fee: str, method: str, decl: _Declaration, fares: dict[int, Any]) -> Any:
    """(money base, how it was found) of a declaration, or None after recording what is missing."""
    month = f"{decl.month:%m/%Y}"
    if method == "declared_revenue":
        if decl.revenue is None:
            plan.refuse(
                f"A declaração de {month} de {decl.holder} (linha {decl.line_code}) não informa a receita."
            )
            return None
        return decl.revenue, f"receita declarada de {month}"
    fare = fares.get(decl.line_id)
    if fare is None:
        plan.refuse(
            f"A linha {decl.line_code} não tem tarifa em vigor em "
            f"{br_date(plan.period - dt.timedelta(days=1))}: "
            "registre o ato que a fixou em Tarifas."
        )
        return None
    base = decl.full_passengers * fare.amount
    text = f"{_count(decl.full_passengers)} passageiros pagantes × {brl(fare.amount)} ({fare.act})"
    if decl.reduced_passengers:
        if fare.reduced_amount is None:
            plan.refuse(f"A tarifa da linha {decl.line_code} não tem valor com desconto ({fare.act}).")
            return None
        base += decl.reduced_passengers * fare.reduced_amount
        text += f" + {_count(decl.reduced_passengers)} com desconto × {brl(fare.reduced_amount)}"
    return base, f"{text}, demanda de {month}"


def _count(number: int) -> str:
    """10000 → 10.000 (Brazilian thousands separator)."""
    return f"{number:,}".replace(",", ".")


def _plan_rate_fee(plan: Plan, fee: str, existing: set[str]) -> None:
    code, period = plan.code, plan.period
    base_month = period - relativedelta(months=1)
    method_entry = law.entry(code, f"fee.base.{fee}", period)
    if method_entry is None or method_entry.status != "value":
        plan.refuse(_missing(code, f"fee.base.{fee}", period))
        return
    method = str(method_entry.value.get("method", ""))
    if method not in lawdata.BASE_METHODS:
        plan.refuse(f"Método de apuração da base desconhecido: {method} ({method_entry.citation}).")
        return
    declarations = DemandDeclaration.unscoped.filter(jurisdiction_id=code, month=base_month)
    if method == "survey":
        declarations = declarations.filter(source=DemandDeclaration.Source.SURVEY)
    last_day = period - dt.timedelta(days=1)
    fares = _fares_on(code, last_day)
    engine = _Engine(code, fee, period)
    label = lawdata.description(code, f"fee.{fee}")
    fund = lawdata.fund_of(code, fee, period)
    rate = Decimal(str(law.value(code, f"fee.{fee}", period)["rate"]))
    declared = set()
    base_end = period - dt.timedelta(days=1)
    enrolled = set(_open_accounts(code, base_month, base_end).values_list("holder_id", flat=True))
    names = holder_names(code)
    rows = declarations.order_by("holder_id", "line_id").values_list(
        "holder_id", "line_id", "line__code", "month", "revenue", "full_passengers", "reduced_passengers"
    )
    for holder_id, line_id, line_code, month, revenue, full, reduced in rows.iterator(chunk_size=5000):
        decl = _Declaration(holder_id, names[holder_id], line_id, line_code, month, revenue, full, reduced)
        declared.add(decl.holder_id)
        key = f"run:{period:%Y-%m}:{fee}:{decl.holder_id}:{decl.line_id}"
        if key in existing:
            continue
        if decl.holder_id not in enrolled:
            plan.notes.append(
                f"{decl.holder}: sem inscrição de cobrança em {base_month:%m/%Y} (permissão encerrada ou "
                f"não outorgada); a declaração da linha {decl.line_code} não é cobrada."
            )
            continue
        found = _base_of(plan, fee, method, decl, fares)
        if found is None:
            continue
        base, base_label = found
        result = engine(demand_revenue=str(base))
        if result.get("due") is None:
            plan.refuse(_missing(code, f"fee.due_day.{fee}", period))
            continue
        _add(
            plan,
            key,
            decl.holder_id,
            decl.holder,
            fee,
            label,
            result,
            fund,
            base=base,
            base_label=base_label,
            rate=rate,
            line_id=decl.line_id,
        )
    _note_missing_declarations(plan, base_month, declared)


def _fares_on(code: str, day: dt.date) -> dict[int, Any]:
    fares: dict[int, Any] = {}
    rows = FareAct.unscoped.filter(jurisdiction_id=code, valid_from__lte=day, annulled_at__isnull=True)
    for fare in rows.order_by("line_id", "valid_from"):
        fares[fare.line_id] = fare  # the latest start wins
    return fares


def _open_accounts(code: str, start: dt.date, end: dt.date) -> QuerySet[Account]:
    return (
        Account.unscoped.filter(jurisdiction_id=code, opened_on__lte=end)
        .filter(Q(closed_on__isnull=True) | Q(closed_on__gte=start))
        .order_by("holder_id")
    )


def _note_missing_declarations(plan: Plan, month: dt.date, declared: set[int]) -> None:
    end = month + relativedelta(months=1) - dt.timedelta(days=1)
    enrolled = _open_accounts(plan.code, month, end).values_list("holder_id", flat=True)
    missing = [pk for pk in enrolled if pk not in declared]
    names = holder_names(plan.code, set(missing)) if missing else {}
    for pk in missing:
        plan.notes.append(
            f"Sem declaração de demanda de {month:%m/%Y}: {names[pk]} (item na fila de trabalho)."
        )


def _plan_vehicle_fee(plan: Plan, fee: str, existing: set[str]) -> None:
    code, period = plan.code, plan.period
    end = period + relativedelta(months=1) - dt.timedelta(days=1)
    accounts = _open_accounts(code, period, end).values_list("holder_id", "modalities")
    names = holder_names(code)
    counts, counted = _vehicle_counts(code, period)
    engine = _Engine(code, fee, period)
    label = lawdata.description(code, f"fee.{fee}")
    fund = lawdata.fund_of(code, fee, period)
    for holder_id, modalities in accounts.iterator(chunk_size=5000):
        key = f"run:{period:%Y-%m}:{fee}:{holder_id}:0"
        if key in existing:
            continue
        holder = names[holder_id]
        vehicles = counts.get(holder_id, 0)
        if vehicles == 0:
            plan.notes.append(f"{holder}: nenhum veículo {counted} em {br_date(period)}.")
            continue
        inputs: dict[str, Any] = {"vehicles": vehicles}
        if len(modalities) == 1:
            inputs["modality"] = modalities[0]
        result = engine(**inputs)
        if result.get("amount") in (None, "0.00"):
            plan.notes.append(f"{holder}: {result.get('explanation', '')}")
            continue
        if result.get("due") is None:
            plan.refuse(_missing(code, f"fee.due_day.{fee}", period))
            continue
        word = "veículo" if vehicles == 1 else "veículos"
        _add(
            plan,
            key,
            holder_id,
            holder,
            fee,
            label,
            result,
            fund,
            base=Decimal(vehicles),
            base_label=f"{vehicles} {word} {counted} em {br_date(period)}",
            rate=None,
            line_id=None,
        )


def _vehicle_counts(code: str, on: dt.date) -> tuple[dict[int, int], str]:
    """Vehicles per holder on `on` and what was counted. The app that knows the traffic
    authorizations answers through the seam `fee_vehicles` (chartering: the vehicles of the fleet
    with a traffic authorization, Lei 16.205/2017, art. 21, § 3º); where no provider regulates the
    jurisdiction, the registry's vehicles in service."""
    for _name, provider in providers("fee_vehicles"):
        answer = provider(code=code, on=on)
        if answer is not None:
            return dict(answer), "com Autorização para Tráfego"
    counts: dict[int, int] = defaultdict(int)
    in_service = Vehicle.unscoped.filter(jurisdiction_id=code, holder__isnull=False).filter(
        Q(deregistered_on__isnull=True) | Q(deregistered_on__gt=on)
    )
    for row in in_service.values("holder_id").annotate(n=Count("id")):
        counts[row["holder_id"]] = row["n"]
    return counts, "em serviço"


def _percent(rate: Decimal) -> str:
    """4 → "4%", 2.5 → "2,5%"."""
    return f"{rate.normalize():f}".replace(".", ",") + "%"


def computation(line: dict[str, Any]) -> str:
    """The whole computation of a planned charge, as the manager checks it: the base and how it was
    found, the rate the law applies and the amount ("9.801 passageiros pagantes × R$ 4,10 + … =
    R$ 41.393,10 × 4% = R$ 1.655,72"); for a fee per vehicle, the count times the unit amount."""
    base, amount = Decimal(str(line["base"])), Decimal(str(line["amount"]))
    label = str(line.get("base_label", ""))
    if line.get("rate") not in (None, ""):
        rate = Decimal(str(line["rate"]))
        return f"{label}: {brl(base)} × {_percent(rate)} = {brl(amount)}"
    if base > 0 and (amount / base).quantize(Decimal("0.01")) * base == amount:
        return f"{label} × {brl(amount / base)} = {brl(amount)}"
    return f"{label}: {brl(amount)}"


def _add(
    plan: Plan,
    key: str,
    holder_id: int,
    holder: str,
    fee: str,
    label: str,
    result: dict[str, Any],
    fund: str,
    *,
    base: Decimal,
    base_label: str,
    rate: Decimal | None,
    line_id: int | None,
) -> None:
    plan.lines.append(
        {
            "key": key,
            "holder_id": holder_id,
            "holder": holder,
            "fee": fee,
            "kind": Charge.Kind.FEE.value,
            "description": f"{label} — {plan.period:%m/%Y}",
            "competence": plan.period.isoformat(),
            "base": str(base),
            "base_label": base_label,
            "rate": None if rate is None else str(rate),
            "amount": str(result["amount"]),
            "due_on": str(result["due"]),
            "citation": "; ".join(result.get("citations", [])),
            "explanation": str(result.get("explanation", "")),
            "fund": fund,
            "line_id": line_id,
        }
    )
