"""Yearly re-registration (recadastramento): the campaign, the fees from the pack, the fine for a
late re-registration unless exempt, and the seal of the year where a passed inspection waits."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited
from lotacao.billing.ledger.services import issue_fee
from lotacao.core.law import evaluate_case
from lotacao.core.models import Jurisdiction
from lotacao.inspections import rules
from lotacao.inspections.models import Inspection, Reregistration, ReregistrationCampaign
from lotacao.inspections.services.seals import issue_seal
from lotacao.registry.models import Vehicle


@transaction.atomic
def open_campaign(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    year: int,
    starts_on: dt.date,
    ends_on: dt.date,
    reason: str,
    notes: str = "",
) -> ReregistrationCampaign:
    rule = rules.entry(jurisdiction.code, "reregistration.yearly", starts_on)
    if rule is None or rule.status != "value" or not rule.value:
        raise ValidationError(f"A lei de {jurisdiction.name} não prevê recadastramento anual.")
    if ends_on < starts_on:
        raise ValidationError("O fim da campanha é anterior ao início.")
    if starts_on.year != year:
        raise ValidationError(f"A campanha do exercício {year} deve começar em {year}.")
    if ReregistrationCampaign.unscoped.filter(jurisdiction=jurisdiction, year=year).exists():
        raise ValidationError(f"Já existe a campanha de recadastramento de {year}.")
    campaign = ReregistrationCampaign(
        jurisdiction=jurisdiction,
        year=year,
        starts_on=starts_on,
        ends_on=ends_on,
        notes=notes.strip(),
        citations=[rule.citation],
    )
    return create_audited(
        actor=actor, instance=campaign, reason=reason, action="reregistration_campaign.opened"
    )


@transaction.atomic
def reregister_vehicle(
    *,
    actor: Any,
    campaign: ReregistrationCampaign,
    vehicle: Vehicle,
    reason: str,
    on: dt.date | None = None,
    exemption: str = "",
    exemption_filed_on: dt.date | None = None,
    exemption_reason: str = "",
) -> Reregistration:
    """Re-register a vehicle (and its holder) in a campaign: fees from the pack, late re-registration
    subject to the fine unless exempt (force majeure formalized within the calendar, or the agency's
    own cause), then the seal of the year where a passed inspection is waiting for it."""
    day = on or timezone.localdate()
    code = vehicle.jurisdiction_id
    _may_reregister(campaign, vehicle, day)
    late = day > campaign.ends_on
    citations = list(campaign.citations)
    if exemption and exemption not in Reregistration.Exemption.values:
        raise ValidationError("Isenção desconhecida.")
    fine_due = False
    if late:
        fine_due, grounds = _late_fine(code, campaign, day, exemption, exemption_filed_on, exemption_reason)
        citations += grounds
    elif exemption:
        raise ValidationError("Recadastramento dentro do calendário: não há multa a isentar.")
    fees, fee_cites = _fees(code, day)
    total = sum((Decimal(f["amount"]) for f in fees if f["amount"] is not None), Decimal(0))
    row = Reregistration(
        jurisdiction_id=code,
        campaign=campaign,
        vehicle=vehicle,
        registered_on=day,
        late=late,
        exemption=exemption if late else "",
        exemption_filed_on=exemption_filed_on if late else None,
        exemption_reason=exemption_reason.strip() if late else "",
        fine_due=fine_due,
        fees=fees,
        total_fees=total,
        citations=list(dict.fromkeys(citations + fee_cites)),
    )
    _issue_charges(vehicle.holder, fees, day, actor, reason)
    row.fees = fees
    created = create_audited(actor=actor, instance=row, reason=reason, action="reregistration.done")
    waiting = Inspection.unscoped.filter(vehicle=vehicle, status=Inspection.Status.PASSED, seal__isnull=True)
    if waiting.exists():
        issue_seal(actor=actor, vehicle=vehicle, on=day, reason=reason)
    return created


def _may_reregister(campaign: ReregistrationCampaign, vehicle: Vehicle, day: dt.date) -> None:
    """Same jurisdiction, a vehicle still in service, the campaign begun, once a year, debts paid."""
    if campaign.jurisdiction_id != vehicle.jurisdiction_id:
        raise ValidationError("A campanha pertence a outra jurisdição.")
    if vehicle.deregistered_on is not None:
        raise ValidationError(f"O veículo {vehicle} foi baixado do serviço.")
    if day < campaign.starts_on:
        raise ValidationError(f"A campanha de {campaign.year} começa em {rules.pt(campaign.starts_on)}.")
    if Reregistration.unscoped.filter(campaign=campaign, vehicle=vehicle).exists():
        raise ValidationError(f"O veículo {vehicle} já foi recadastrado em {campaign.year}.")
    verdict = rules.clearance(vehicle.holder, day, "reregistration")
    if not verdict.cleared:
        raise ValidationError(f"Recadastramento bloqueado por falta de quitação: {verdict.message}")


def _late_fine(
    code: str,
    campaign: ReregistrationCampaign,
    day: dt.date,
    exemption: str,
    filed_on: dt.date | None,
    exemption_reason: str,
) -> tuple[bool, list[str]]:
    """Past the calendar: whether the fine is due (unless an exemption the law has applies) and
    the citations that decide it."""
    if not exemption:
        infraction = rules.entry(code, "reregistration.late_infraction", day)
        if infraction is None or infraction.status == "repealed":
            return True, []
        return True, [infraction.citation]
    allowed = rules.value(code, "reregistration.force_majeure_exemption", day) or {}
    if not allowed.get(exemption):
        raise ValidationError("A lei não prevê esta isenção da multa de recadastramento.")
    rule = rules.entry(code, "reregistration.force_majeure_exemption", day)
    assert rule is not None
    if not exemption_reason.strip():
        raise ValidationError(f"Informe o motivo da isenção ({rule.citation}).")
    if exemption == Reregistration.Exemption.FORCE_MAJEURE and (
        filed_on is None or filed_on > campaign.ends_on
    ):
        raise ValidationError(
            "A isenção por força maior ou caso fortuito exige que o ocorrido tenha sido formalizado "
            f"até o fim do calendário do recadastramento ({rules.pt(campaign.ends_on)}) "
            f"({rule.citation})."
        )
    return False, [rule.citation]


def _fees(code: str, on: dt.date) -> tuple[list[dict[str, Any]], list[str]]:
    found = rules.entry(code, "reregistration.fees", on)
    if found is None or found.status != "value":
        return [], []
    fees: list[dict[str, Any]] = []
    citations = [found.citation]
    for fee_id in found.value:
        result = evaluate_case({"jurisdiction": code, "kind": "fee", "fee": fee_id, "date": on.isoformat()})
        if "error" in result:
            raise ValidationError(result["error"]["message"])
        fees.append(
            {
                "fee": fee_id,
                "label": rules.description(code, f"fee.{fee_id}"),
                "amount": result.get("amount"),
                "citation": "; ".join(result.get("citations", [])),
                "explanation": result.get("explanation", ""),
            }
        )
    return fees, citations


def _issue_charges(holder: Any, fees: list[dict[str, Any]], on: dt.date, actor: Any, reason: str) -> None:
    """Hand the fees to the billing app, which values each by the engine and records it with the
    fee's id, citation and earmarked fund."""
    if holder is None:
        return
    for fee in fees:
        if fee["amount"] in (None, "0.00"):
            continue
        charge = issue_fee(
            actor=actor,
            holder=holder,
            fee=fee["fee"],
            on=on,
            reason=reason,
            reference=f"recadastramento:{on.year}:{fee['fee']}",
        )
        fee["charge_id"] = charge.pk
