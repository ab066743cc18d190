"""Write services of vehicles and inspections: keyword-only, atomic, validated against the law, audited.

Every refusal is a ValidationError with a Portuguese message naming the article (from the pack);
nothing is written when a check fails. What differs per law is read from the packs
(`inspections.rules`), never from the jurisdiction's name.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, snapshot, update_audited
from lotacao.billing.services import issue_charge
from lotacao.core import providers
from lotacao.core.law import evaluate_case
from lotacao.core.models import Jurisdiction
from lotacao.inspections import rules
from lotacao.inspections.models import (
    COVERAGES,
    Inspection,
    InsurancePolicy,
    IrregularityNotice,
    Reregistration,
    ReregistrationCampaign,
    Seal,
    VehicleAssessment,
)
from lotacao.registry import services as registry_services
from lotacao.registry.models import Vehicle

VEHICLE_FIELDS = ("category", "manufacture_year", "seats", "doors")


class _Draft:
    """What the engine needs of a vehicle that does not exist yet."""

    def __init__(self, category: str, manufacture_year: int, seats: int, doors: int) -> None:
        self.category = category
        self.manufacture_year = int(manufacture_year)
        self.seats = int(seats)
        self.doors = int(doors)


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _refuse(result: dict[str, Any], head: str) -> None:
    if not result["eligible"]:
        raise ValidationError([head, *rules.violations_text(result)])


def _assessment(
    *,
    vehicle: Vehicle,
    action: str,
    on: dt.date,
    result: dict[str, Any],
    replaced: Vehicle | None = None,
    proof: str = "",
) -> VehicleAssessment:
    row = VehicleAssessment(
        jurisdiction_id=vehicle.jurisdiction_id,
        vehicle=vehicle,
        replaced=replaced,
        action=action,
        on=on,
        eligible=bool(result["eligible"]),
        violations=result.get("violations", []),
        citations=result.get("citations", []),
        explanation=result.get("explanation", ""),
        decharacterization_proof=proof,
    )
    row.save()
    return row


# --------------------------------------------------------------------------- vehicles


@transaction.atomic
def admit_vehicle(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    plate: str,
    manufacture_year: int,
    category: str,
    seats: int,
    doors: int,
    reason: str,
    on: dt.date | None = None,
    **fields: Any,
) -> Vehicle:
    """Register a vehicle after the engine admits it (`vehicle` kind, action `entry`)."""
    day = _today(on)
    draft = _Draft(category, manufacture_year, seats, doors)
    result = rules.assess(jurisdiction.code, "entry", day, draft)
    _refuse(result, f"Veículo não admitido em {jurisdiction.name}:")
    vehicle = registry_services.create_vehicle(
        actor=actor,
        jurisdiction=jurisdiction,
        plate=plate,
        manufacture_year=manufacture_year,
        category=category,
        seats=seats,
        doors=doors,
        reason=reason,
        **fields,
    )
    _assessment(vehicle=vehicle, action="entry", on=day, result=result)
    return vehicle


@transaction.atomic
def update_vehicle(
    *, actor: Any, vehicle: Vehicle, changes: dict[str, Any], reason: str, on: dt.date | None = None
) -> Vehicle:
    """Edit a vehicle; a change of category, year, seats or doors is checked for its stay (`keep`)."""
    day = _today(on)
    vehicle = Vehicle.unscoped.select_for_update().get(pk=vehicle.pk)
    if any(k in changes and changes[k] != getattr(vehicle, k) for k in VEHICLE_FIELDS):
        draft = _Draft(*(changes.get(k, getattr(vehicle, k)) for k in VEHICLE_FIELDS))
        result = rules.assess(vehicle.jurisdiction_id, "keep", day, draft)
        _refuse(result, "Alteração recusada: o veículo deixaria de atender à lei:")
        updated = update_audited(actor=actor, instance=vehicle, changes=changes, reason=reason)
        _assessment(vehicle=updated, action="keep", on=day, result=result)
        return updated
    return update_audited(actor=actor, instance=vehicle, changes=changes, reason=reason)


def _permit_of(vehicle: Vehicle) -> Any:
    """The live permit the vehicle serves (asked of the permits app through its seam)."""
    ((_name, permit_of),) = providers.providers("vehicle_permit")
    return permit_of(vehicle)


@transaction.atomic
def replace_vehicle(
    *,
    actor: Any,
    replaced: Vehicle,
    plate: str,
    manufacture_year: int,
    category: str,
    seats: int,
    doors: int,
    reason: str,
    decharacterization_proof: str = "",
    on: dt.date | None = None,
    **fields: Any,
) -> Vehicle:
    """Replace a vehicle: the engine checks the substitute (`replace`), the replaced one is
    deregistered (with proof of its decharacterization where the law requires it), the new one
    takes its holder and, where a permit exists, its place on the permit."""
    day = _today(on)
    replaced = Vehicle.unscoped.select_for_update().get(pk=replaced.pk)
    code = replaced.jurisdiction_id
    if replaced.deregistered_on is not None:
        raise ValidationError(
            f"O veículo {replaced} já foi baixado do serviço em {rules.pt(replaced.deregistered_on)}."
        )
    draft = _Draft(category, manufacture_year, seats, doors)
    result = rules.assess(code, "replace", day, draft, replaced=replaced)
    _refuse(result, "Substituição recusada:")
    rule = rules.entry(code, "inspection.replaced_vehicle_decharacterization", day)
    citations = list(result.get("citations", []))
    if rule is not None and rule.status == "value" and rule.value:
        citations.append(rule.citation)
        if not decharacterization_proof.strip():
            raise ValidationError(
                f"Substituição recusada: o cadastro do novo veículo exige comprovar a descaracterização do "
                f"veículo substituído, inclusive a baixa da placa de aluguel ({rule.citation})."
            )
    new = registry_services.create_vehicle(
        actor=actor,
        jurisdiction=replaced.jurisdiction,
        plate=plate,
        manufacture_year=manufacture_year,
        category=category,
        seats=seats,
        doors=doors,
        holder=replaced.holder,
        reason=reason,
        **fields,
    )
    update_audited(
        actor=actor,
        instance=replaced,
        changes={"deregistered_on": day},
        reason=f"Baixa por substituição pelo veículo {new}: {reason}",
        action="vehicle.deregistered",
    )
    result = {**result, "citations": citations}
    _assessment(
        vehicle=new,
        action="replace",
        on=day,
        result=result,
        replaced=replaced,
        proof=decharacterization_proof.strip(),
    )
    permit = _permit_of(replaced)
    if permit is not None:
        update_audited(
            actor=actor,
            instance=permit,
            changes={"vehicle": new},
            reason=f"Substituição do veículo {replaced} por {new}: {reason}",
            action="permit.vehicle_replaced",
        )
    return new


# --------------------------------------------------------------------------- insurance


@transaction.atomic
def register_insurance(
    *,
    actor: Any,
    vehicle: Vehicle,
    insurer: str,
    number: str,
    valid_from: dt.date,
    valid_until: dt.date,
    reason: str,
    civil_liability: Decimal | None = None,
    death_per_passenger: Decimal | None = None,
    disability_per_passenger: Decimal | None = None,
    third_party: Decimal | None = None,
) -> InsurancePolicy:
    """Record a policy, checked against the minimum cover of the law in force when it starts."""
    if valid_until < valid_from:
        raise ValidationError("O fim da vigência da apólice é anterior ao início.")
    if not insurer.strip() or not number.strip():
        raise ValidationError("Informe a seguradora e o número da apólice.")
    cover = {
        "civil_liability": civil_liability,
        "death_per_passenger": death_per_passenger,
        "disability_per_passenger": disability_per_passenger,
        "third_party": third_party,
    }
    given = {k: f"{Decimal(v):.2f}" for k, v in cover.items() if v is not None}
    result = rules.assess(vehicle.jurisdiction_id, "keep", valid_from, vehicle, insurance=given)
    problems = [v for v in result["violations"] if v["rule"] == "insurance"]
    if problems:
        raise ValidationError(
            ["Apólice abaixo das coberturas mínimas da lei:"]
            + [f"{v['message']} ({v['citation']})" for v in problems]
        )
    policy = InsurancePolicy(
        jurisdiction_id=vehicle.jurisdiction_id,
        vehicle=vehicle,
        insurer=insurer.strip(),
        number=number.strip(),
        valid_from=valid_from,
        valid_until=valid_until,
        citations=[c for c in result.get("citations", []) if c],
        **cover,
    )
    return create_audited(actor=actor, instance=policy, reason=reason)


# --------------------------------------------------------------------------- inspections


def _check_clearance(vehicle: Vehicle, on: dt.date, what: str) -> None:
    verdict = rules.clearance(vehicle.holder, on, "inspection")
    if not verdict.cleared:
        raise ValidationError(f"{what} bloqueada por falta de quitação: {verdict.message}")


@transaction.atomic
def schedule_inspection(
    *,
    actor: Any,
    vehicle: Vehicle,
    scheduled_for: dt.date,
    reason: str,
    kind: str = Inspection.Kind.ANNUAL,
    place: str = "",
    on: dt.date | None = None,
) -> Inspection:
    if vehicle.deregistered_on is not None:
        raise ValidationError(f"O veículo {vehicle} foi baixado do serviço: não há vistoria a agendar.")
    if kind not in Inspection.Kind.values:
        raise ValidationError(f"Tipo de vistoria desconhecido: {kind}.")
    if scheduled_for < _today(on):
        raise ValidationError("A data marcada para a vistoria já passou.")
    _check_clearance(vehicle, _today(on), "Vistoria")
    inspection = Inspection(
        jurisdiction_id=vehicle.jurisdiction_id,
        vehicle=vehicle,
        kind=kind,
        scheduled_for=scheduled_for,
        place=place.strip(),
    )
    return create_audited(actor=actor, instance=inspection, reason=reason, action="inspection.scheduled")


def checklist_for(code: str, on: dt.date) -> tuple[list[dict[str, str]] | None, str, str]:
    """The pack's checklist in force (None where the law lists no items), its citation and reason."""
    found = rules.entry(code, "inspection.checklist", on)
    if found is None:
        return None, "", "A lei não lista itens de vistoria."
    if found.status != "value":
        return None, found.citation, str(found.reason)
    return [dict(item) for item in found.value], found.citation, ""


@transaction.atomic
def record_inspection(
    *,
    actor: Any,
    inspection: Inspection,
    performed_on: dt.date,
    reason: str,
    checklist: dict[str, bool] | None = None,
    faults: list[str] | None = None,
    notes: str = "",
    representation_due: dt.date | None = None,
    performed_at: dt.time | None = None,
) -> Inspection:
    """Record the result: the engine's vehicle checks and the pack's checklist; any fault fails the
    inspection and issues an irregularity notice; a pass resolves open notices and, where the law
    lets the seal follow the inspection alone, issues the seal."""
    inspection = Inspection.unscoped.select_for_update().select_related("vehicle").get(pk=inspection.pk)
    if inspection.status != Inspection.Status.SCHEDULED:
        raise ValidationError(f"Esta vistoria já foi registrada ({inspection.get_status_display().lower()}).")
    if performed_on > timezone.localdate():
        raise ValidationError("A data da vistoria não pode ser futura.")
    vehicle = inspection.vehicle
    code = vehicle.jurisdiction_id
    _check_clearance(vehicle, performed_on, "Vistoria")
    items, checklist_cite, _why = checklist_for(code, performed_on)
    answers = checklist or {}
    rows: list[dict[str, Any]] = []
    found: list[str] = []
    for item in items or []:
        ok = bool(answers.get(item["id"], False))
        rows.append({**item, "ok": ok})
        if not ok:
            found.append(f"{item['label']}: não conforme ({rules.cite(code, item['cite'])})")
    action = "entry" if inspection.kind == Inspection.Kind.ENTRY else "inspection"
    result = rules.assess(code, action, performed_on, vehicle)
    found += rules.violations_text(result)
    found += [f.strip() for f in (faults or []) if f and f.strip()]
    citations = [c for c in [*result.get("citations", []), checklist_cite] if c]
    seal_rule, seal_entry = rules.seal_rule(code, performed_on)
    if seal_entry is not None:
        citations.append(seal_entry.citation)
    before = snapshot(inspection)
    inspection.performed_on = performed_on
    inspection.performed_at = performed_at
    inspection.inspector = actor if getattr(actor, "pk", None) else None
    inspection.checklist = rows
    inspection.faults = found
    inspection.notes = notes.strip()
    inspection.citations = list(dict.fromkeys(citations))
    inspection.status = Inspection.Status.FAILED if found else Inspection.Status.PASSED
    if found:
        notice = _notice(inspection, performed_on, representation_due)
        inspection.save()
        create_audited(actor=actor, instance=notice, reason=reason, action="irregularity_notice.issued")
    else:
        inspection.save()
        for open_notice in IrregularityNotice.unscoped.select_for_update().filter(
            vehicle=vehicle, resolved_on__isnull=True
        ):
            update_audited(
                actor=actor,
                instance=open_notice,
                changes={"resolved_by": inspection, "resolved_on": performed_on},
                reason=f"Veículo aprovado na vistoria de {rules.pt(performed_on)}",
                action="irregularity_notice.resolved",
            )
    record(
        actor=actor,
        action=f"inspection.{inspection.status}",
        instance=inspection,
        reason=reason,
        before={k: before[k] for k in ("status",)},
        after={"status": inspection.status, "faults": found},
    )
    if inspection.status == Inspection.Status.PASSED and seal_rule is not None:
        waiting_reregistration = seal_rule.get("requires_reregistration") and not (
            Reregistration.unscoped.filter(vehicle=vehicle, campaign__year=performed_on.year).exists()
        )
        if not waiting_reregistration:
            issue_seal(actor=actor, vehicle=vehicle, on=performed_on, reason=reason)
    return inspection


def _notice(inspection: Inspection, on: dt.date, due: dt.date | None) -> IrregularityNotice:
    code = inspection.vehicle.jurisdiction_id
    rule = rules.entry(code, "inspection.representation_deadline", on)
    cite = rule.citation if rule is not None else ""
    if rule is not None and rule.status == "value":
        computed = _add_duration(on, rule.value)
        if due is None:
            due = computed
    elif due is None:
        why = f" ({cite})" if cite else ""
        raise ValidationError(
            f"A lei não fixa o prazo para reapresentar o veículo{why}: informe a data de reapresentação."
        )
    if due <= on:
        raise ValidationError("O prazo de reapresentação deve ser posterior à data da vistoria.")
    year = on.year
    count = IrregularityNotice.unscoped.filter(jurisdiction_id=code, issued_on__year=year).count() + 1
    return IrregularityNotice(
        jurisdiction_id=code,
        inspection=inspection,
        vehicle=inspection.vehicle,
        number=f"NI-{year}-{count:05d}",
        issued_on=on,
        faults=list(inspection.faults),
        representation_due=due,
        deadline_citation=cite or "prazo informado pelo órgão gestor",
        citations=list(inspection.citations),
    )


def _add_duration(day: dt.date, duration: dict[str, int]) -> dt.date:
    ((unit, n),) = duration.items()
    if unit == "business_days":  # no pack gives one; the clerk then informs the date
        raise ValidationError("Informe a data de reapresentação (prazo em dias úteis).")
    return day + relativedelta(**{unit: n})  # type: ignore[arg-type]


# --------------------------------------------------------------------------- seals


@transaction.atomic
def issue_seal(*, actor: Any, vehicle: Vehicle, reason: str, on: dt.date | None = None) -> Seal:
    """Issue the seal: needs a passed inspection not yet sealed and, where the law says so
    (`inspection.seal.requires_reregistration`), the vehicle's re-registration for the year."""
    day = _today(on)
    code = vehicle.jurisdiction_id
    Vehicle.unscoped.select_for_update().filter(pk=vehicle.pk).first()
    rule, found = rules.seal_rule(code, day)
    if rule is None:
        why = f" — {found.reason} ({found.citation})" if found is not None else ""
        raise ValidationError(
            f"A lei não define a validade do selo de vistoria{why}. O órgão gestor precisa informá-la."
        )
    assert found is not None
    if vehicle.deregistered_on is not None:
        raise ValidationError(f"O veículo {vehicle} foi baixado do serviço.")
    inspection = (
        Inspection.unscoped.filter(
            vehicle=vehicle, status=Inspection.Status.PASSED, seal__isnull=True, performed_on__lte=day
        )
        .order_by("-performed_on", "-id")
        .first()
    )
    if inspection is None:
        raise ValidationError(
            f"Selo recusado: o veículo {vehicle} não tem vistoria aprovada pendente de selo "
            f"({found.citation})."
        )
    citations = [found.citation]
    reregistration = None
    if rule.get("requires_reregistration"):
        reregistration = (
            Reregistration.unscoped.filter(vehicle=vehicle, campaign__year=day.year)
            .select_related("campaign")
            .first()
        )
        if reregistration is None:
            raise ValidationError(
                f"Selo recusado: o selo do exercício {day.year} só é emitido após o recadastramento do "
                f"veículo ({found.citation})."
            )
    valid_until = _seal_until(rule, day, inspection.performed_on or day)
    year = day.year
    count = Seal.unscoped.filter(jurisdiction_id=code, issued_on__year=year).count() + 1
    seal = Seal(
        jurisdiction_id=code,
        vehicle=vehicle,
        inspection=inspection,
        reregistration=reregistration,
        number=f"S-{year}-{count:05d}",
        issued_on=day,
        valid_until=valid_until,
        citations=citations,
    )
    return create_audited(actor=actor, instance=seal, reason=reason, action="seal.issued")


def _seal_until(rule: dict[str, Any], day: dt.date, inspected: dt.date) -> dt.date:
    if rule.get("fiscal_year"):
        return dt.date(day.year, 12, 31)
    months = int(rule.get("valid_for_months") or 12)
    return inspected + relativedelta(months=months) - dt.timedelta(days=1)


# --------------------------------------------------------------------------- re-registration


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
    """Hand the fees to the billing app as charges of the holder."""
    if holder is None:
        return
    for fee in fees:
        if fee["amount"] in (None, "0.00"):
            continue
        charge = issue_charge(
            actor=actor,
            holder=holder,
            kind="fee",
            description=f"{fee['label']} — {on.year}",
            amount=Decimal(fee["amount"]),
            due_on=on,
            reason=reason,
            reference=f"recadastramento:{on.year}:{fee['fee']}",
        )
        fee["charge_id"] = getattr(charge, "pk", None)


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
    day = _today(on)
    code = vehicle.jurisdiction_id
    if campaign.jurisdiction_id != code:
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
    late = day > campaign.ends_on
    citations = list(campaign.citations)
    fine_due = False
    if exemption and exemption not in Reregistration.Exemption.values:
        raise ValidationError("Isenção desconhecida.")
    if late:
        allowed = rules.value(code, "reregistration.force_majeure_exemption", day) or {}
        rule = rules.entry(code, "reregistration.force_majeure_exemption", day)
        if exemption:
            if not allowed.get(exemption):
                raise ValidationError("A lei não prevê esta isenção da multa de recadastramento.")
            assert rule is not None
            citations.append(rule.citation)
            if not exemption_reason.strip():
                raise ValidationError(f"Informe o motivo da isenção ({rule.citation}).")
            if exemption == Reregistration.Exemption.FORCE_MAJEURE and (
                exemption_filed_on is None or exemption_filed_on > campaign.ends_on
            ):
                raise ValidationError(
                    "A isenção por força maior ou caso fortuito exige que o ocorrido tenha sido formalizado "
                    f"até o fim do calendário do recadastramento ({rules.pt(campaign.ends_on)}) "
                    f"({rule.citation})."
                )
        else:
            fine_due = True
            infraction = rules.entry(code, "reregistration.late_infraction", day)
            if infraction is not None:
                citations.append(infraction.citation)
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


def coverage_labels() -> dict[str, str]:
    return dict(COVERAGES)
