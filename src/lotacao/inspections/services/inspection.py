"""Inspections (vistorias): scheduling, the result against the engine's vehicle checks and the
pack's checklist, the irregularity notice a fault brings, and the seal a pass may bring."""

from __future__ import annotations

import datetime as dt
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, snapshot, update_audited
from lotacao.core.formats import lower_first
from lotacao.inspections import rules
from lotacao.inspections.models import Inspection, IrregularityNotice, Reregistration
from lotacao.inspections.services.seals import issue_seal
from lotacao.registry.models import Vehicle


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
    day = on or timezone.localdate()
    if vehicle.deregistered_on is not None:
        raise ValidationError(f"O veículo {vehicle} foi baixado do serviço: não há vistoria a agendar.")
    if kind not in Inspection.Kind.values:
        raise ValidationError(f"Tipo de vistoria desconhecido: {kind}.")
    if scheduled_for < day:
        raise ValidationError("A data marcada para a vistoria já passou.")
    _check_clearance(vehicle, day, "Vistoria")
    after_accident = (
        rules.after_accident_citation(vehicle.jurisdiction_id, day)
        if kind == Inspection.Kind.POST_ACCIDENT
        else ""
    )
    inspection = Inspection(
        jurisdiction_id=vehicle.jurisdiction_id,
        vehicle=vehicle,
        kind=kind,
        scheduled_for=scheduled_for,
        place=place.strip(),
        blocks_operation=bool(after_accident),
        citations=[after_accident] if after_accident else [],
    )
    return create_audited(actor=actor, instance=inspection, reason=reason, action="inspection.scheduled")


def checklist_for(code: str, on: dt.date) -> tuple[list[dict[str, str]] | None, str, str]:
    """The pack's checklist in force (None where the law lists no items), its citation and reason."""
    found = rules.entry(code, "inspection.checklist", on)
    if found is None or found.status == "repealed":
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
        raise ValidationError(
            f"Esta vistoria já foi registrada ({lower_first(inspection.get_status_display())})."
        )
    if performed_on > timezone.localdate():
        raise ValidationError("A data da vistoria não pode ser futura.")
    vehicle = inspection.vehicle
    _check_clearance(vehicle, performed_on, "Vistoria")
    rows, found, citations = _findings(inspection, performed_on, checklist or {}, faults or [])
    seal_rule, seal_entry = rules.seal_rule(vehicle.jurisdiction_id, performed_on)
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
        _resolve_notices(actor=actor, inspection=inspection, on=performed_on)
    record(
        actor=actor,
        action=f"inspection.{inspection.status}",
        instance=inspection,
        reason=reason,
        before={k: before[k] for k in ("status",)},
        after={"status": inspection.status, "faults": found},
    )
    if inspection.status == Inspection.Status.PASSED and seal_rule is not None:
        _seal_unless_waiting(
            actor=actor, vehicle=vehicle, seal_rule=seal_rule, on=performed_on, reason=reason
        )
    return inspection


def _findings(
    inspection: Inspection, on: dt.date, answers: dict[str, bool], faults: list[str]
) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """The checklist's rows, every fault found (checklist, engine, inspector) and the citations."""
    code = inspection.vehicle.jurisdiction_id
    items, checklist_cite, _why = checklist_for(code, on)
    rows: list[dict[str, Any]] = []
    found: list[str] = []
    for item in items or []:
        ok = bool(answers.get(item["id"], False))
        rows.append({**item, "ok": ok})
        if not ok:
            found.append(f"{item['label']}: não conforme ({rules.cite(code, item['cite'])})")
    action = "entry" if inspection.kind == Inspection.Kind.ENTRY else "inspection"
    modalities = rules.vehicle_modalities(inspection.vehicle, on)
    result = rules.assess(code, action, on, inspection.vehicle, modalities=modalities)
    found += rules.violations_text(result)
    found += [f.strip() for f in faults if f and f.strip()]
    citations = [c for c in [*result.get("citations", []), checklist_cite] if c]
    return rows, found, citations


def _resolve_notices(*, actor: Any, inspection: Inspection, on: dt.date) -> None:
    """A pass resolves the vehicle's open irregularity notices."""
    for open_notice in IrregularityNotice.unscoped.select_for_update().filter(
        vehicle=inspection.vehicle, resolved_on__isnull=True
    ):
        update_audited(
            actor=actor,
            instance=open_notice,
            changes={"resolved_by": inspection, "resolved_on": on},
            reason=f"Veículo aprovado na vistoria de {rules.pt(on)}",
            action="irregularity_notice.resolved",
        )


def _seal_unless_waiting(
    *, actor: Any, vehicle: Vehicle, seal_rule: dict[str, Any], on: dt.date, reason: str
) -> None:
    """The seal follows the pass, unless the law makes it wait for the year's re-registration."""
    waiting_reregistration = seal_rule.get("requires_reregistration") and not (
        Reregistration.unscoped.filter(vehicle=vehicle, campaign__year=on.year).exists()
    )
    if not waiting_reregistration:
        issue_seal(actor=actor, vehicle=vehicle, on=on, reason=reason)


def _notice(inspection: Inspection, on: dt.date, due: dt.date | None) -> IrregularityNotice:
    code = inspection.vehicle.jurisdiction_id
    rule = rules.entry(code, "inspection.representation_deadline", on)
    cite = rule.citation if rule is not None and rule.status != "repealed" else ""
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
