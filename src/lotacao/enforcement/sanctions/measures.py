"""Administrative measures recorded on an infraction notice (retention, removal, seizure of the
vehicle, seizure of documents, removal of staff, suspension of the permit) and what releases them.

The conditions for releasing a measure come from the pack's `measure.release` (kind → list of {id,
label, cite}; a kind absent = the law sets no condition) and are copied onto the measure when it
is applied, so a later change of the law does not change a measure already in force. The clerk
marks each condition met (with a note saying what proves it; Maricá's retirement commitment, art.
55, § 1º, is the holder's signed term); `dues_paid` and `fine_paid` are checked by the system
instead: no open fine of the same offender (holder, or plate for clandestine transport) past its
due date; this notice's own fine paid (Cabo art. 23, parágrafo único). Where the engine's result
for the notice lists the conditions (`release_conditions`: a rule's own), they are the ones
copied. A measure the engine did not list as applicable for the notice (Recife art. 38: the
inspector *may* take them) is accepted only with a reason that says why (at
least `OUTSIDE_REASON_MIN` characters), recorded and flagged in its citations and detail."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing.selectors import clearance
from lotacao.core.bulk import among
from lotacao.core.formats import lower_first
from lotacao.core.law import entry, pack_for
from lotacao.enforcement.models import Fine, InfractionNotice, Measure, OffenderKind
from lotacao.enforcement.notices import states
from lotacao.enforcement.reading import br as _pt
from lotacao.enforcement.reading import local_day as _local_day
from lotacao.registry.models import Vehicle

PARAMETER = "measure.release"
# A measure outside the engine's list needs a reason that is a sentence, not a default word.
OUTSIDE_REASON_MIN = 30
OUTSIDE_FLAG = "Medida não listada pelo cálculo da lei para este auto"
# A phone's clock may run a little ahead of the server's.
CLOCK_SKEW = dt.timedelta(minutes=5)
# Measures under which the vehicle may not operate (the public plate check says so).
BARS_OPERATION = {
    Measure.Kind.VEHICLE_RETENTION.value,
    Measure.Kind.VEHICLE_REMOVAL.value,
    Measure.Kind.VEHICLE_SEIZURE.value,
    Measure.Kind.PERMIT_SUSPENSION.value,
}
# Conditions the system checks instead of the clerk (the others need a note saying what proves
# them: act, receipt, report; the holder's signed retirement commitment, its term).
SYSTEM_CHECKED = {"dues_paid", "fine_paid"}
# Releasing these asks billing's clearance for the procedure "release" (the seized vehicle: Recife
# art. 26, every procedure; Maricá art. 56, fines and fees in arrears; Pernambuco art. 29-A,
# parágrafo único): the pack's `clearance.blocks` says where it applies.
CLEARANCE_KINDS = {Measure.Kind.VEHICLE_SEIZURE.value}


def _today(jurisdiction: Any) -> dt.date:
    return _local_day(jurisdiction, timezone.now())


def need_reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise ValidationError("Informe o motivo (fica registrado na auditoria).")
    return reason.strip()


def applicable_kinds(notice: InfractionNotice) -> dict[str, dict[str, Any]]:
    """The measures the engine listed for the notice (type → the engine's item)."""
    items = (notice.penalty or {}).get("measures") or []
    return {str(item.get("type")): dict(item) for item in items if isinstance(item, dict)}


def release_conditions(jurisdiction_code: str, kind: str, on: dt.date) -> dict[str, Any]:
    """The law's conditions for releasing a measure of this kind on a date: {"conditions",
    "citation", "missing_parameters", "defined"} (defined False: the pack leaves it undefined)."""
    found = entry(jurisdiction_code, PARAMETER, on)
    if found is None or found.status != "value":
        return {"conditions": [], "citation": "", "missing_parameters": [PARAMETER], "defined": False}
    rows = (found.value or {}).get(kind) or []
    conditions = [
        {"id": str(row["id"]), "label": str(row["label"]), "cite": str(row.get("cite", ""))} for row in rows
    ]
    return {"conditions": conditions, "citation": found.citation, "missing_parameters": [], "defined": True}


def _short(code: str, citation: str) -> str:
    """ "Lei X, art. 54" → "art. 54" (the engine cites in full; a measure keeps the pack's form)."""
    prefix = f"{pack_for(code).law}, "
    return citation[len(prefix) :] if citation.startswith(prefix) else citation


def conditions_for(notice: InfractionNotice, kind: str, on: dt.date) -> dict[str, Any]:
    """The conditions that release this notice's measure: the engine's result for the notice where
    it gives them (`release_conditions`: a rule's own release, as Maricá's over-age vehicle, art.
    55, § 1º, or Cabo's fine paid, art. 23, parágrafo único), else the pack's `measure.release`."""
    given = ((notice.engine_result or {}).get("release_conditions") or {}).get(kind)
    if not given:
        return release_conditions(notice.jurisdiction_id, kind, on)
    code = notice.jurisdiction_id
    rows = [
        {"id": str(r["id"]), "label": str(r["label"]), "cite": _short(code, str(r.get("citation", "")))}
        for r in given
    ]
    return {"conditions": rows, "citation": "", "missing_parameters": [], "defined": True}


def _locked_notice(notice: InfractionNotice) -> InfractionNotice:
    locked: InfractionNotice = (
        InfractionNotice.unscoped.select_for_update().select_related("jurisdiction").get(pk=notice.pk)
    )
    return locked


def _suspension_days(kind: str, days: int | None, applicable: dict[str, dict[str, Any]]) -> int | None:
    """Days only for the permit's suspension (default: the engine's days), and positive."""
    if days is not None and kind != Measure.Kind.PERMIT_SUSPENSION:
        raise ValidationError("Dias só se informam para a suspensão da permissão.")
    if kind == Measure.Kind.PERMIT_SUSPENSION and days is None:
        days = applicable.get(kind, {}).get("days")
    if days is not None and int(days) <= 0:
        raise ValidationError("O número de dias da suspensão deve ser positivo.")
    return days


def _outside_the_engine(
    kind: str, label: str, detail: str, reason: str, applicable: dict[str, dict[str, Any]]
) -> tuple[str, list[str]]:
    """A kind the engine did not list for the notice needs a reason that says why; it is flagged
    in the citations and the detail. Returns (detail, citations)."""
    if kind in applicable:
        return detail, []
    if len(reason) < OUTSIDE_REASON_MIN:
        listed = ", ".join(lower_first(Measure.Kind(k).label) for k in applicable if k in Measure.Kind.values)
        raise ValidationError(
            f"O cálculo da lei não lista {label.lower()} para este auto"
            f" (medidas cabíveis: {listed or 'nenhuma'}). Para aplicá-la, explique no motivo por quê"
            f" (pelo menos {OUTSIDE_REASON_MIN} caracteres)."
        )
    detail = (detail + "\n" if detail else "") + f"{OUTSIDE_FLAG}. Motivo: {reason}"
    return detail, [f"{OUTSIDE_FLAG}; motivo: {reason}"]


@transaction.atomic
def apply_measure(
    *,
    actor: Any,
    notice: InfractionNotice,
    kind: str,
    applied_at: dt.datetime,
    detail: str,
    days: int | None = None,
    reason: str,
) -> Measure:
    """Record a measure on the notice with the law's release conditions copied on (the engine's
    for this notice, else the pack's)."""
    reason = need_reason(reason)
    if kind not in Measure.Kind.values:
        raise ValidationError(f"Medida administrativa desconhecida: {kind}.")
    label = Measure.Kind(kind).label
    if applied_at is None or timezone.is_naive(applied_at):
        raise ValidationError("Informe a data e a hora da medida com fuso horário.")
    notice = _locked_notice(notice)
    states.check(notice, states.APPLY_MEASURE)
    if applied_at < notice.drawn_up_at:
        raise ValidationError("A medida não pode ser anterior à infração registrada no auto.")
    if applied_at > timezone.now() + CLOCK_SKEW:
        raise ValidationError("A data da medida não pode estar no futuro.")
    applicable = applicable_kinds(notice)
    days = _suspension_days(kind, days, applicable)
    detail, citations = _outside_the_engine(kind, label, (detail or "").strip(), reason, applicable)
    return record_measure(actor, notice, kind, applied_at, detail, days, citations, reason)


def record_measure(
    actor: Any,
    notice: InfractionNotice,
    kind: str,
    applied_at: dt.datetime,
    detail: str,
    days: int | None,
    citations: list[str],
    reason: str,
    action: str = "enforcement.measure_applied",
) -> Measure:
    """The measure saved, with its release conditions and their articles (the caller checked it)."""
    if Measure.unscoped.filter(notice=notice, kind=kind, status=Measure.Status.IN_FORCE).exists():
        raise ValidationError(f"Já há {lower_first(Measure.Kind(kind).label)} em vigor neste auto.")
    law = conditions_for(notice, kind, _local_day(notice.jurisdiction, applied_at))
    for row in law["conditions"]:
        if row["cite"] and row["cite"] not in citations:
            citations.append(row["cite"])
    if law["citation"]:
        citations.append(law["citation"])
    measure = Measure(
        jurisdiction_id=notice.jurisdiction_id,
        notice=notice,
        kind=kind,
        applied_at=applied_at,
        detail=detail,
        days=days,
        conditions=[{**row, "met_on": None, "note": "", "by": ""} for row in law["conditions"]],
        citations=citations,
        missing_parameters=law["missing_parameters"],
        recorded_by=actor if getattr(actor, "pk", None) is not None else None,
    )
    return create_audited(actor=actor, instance=measure, reason=reason, action=action)


def overdue_fines(measure: Measure, on: dt.date) -> QuerySet[Fine]:
    """Open fines of the same offender past their due date on `on` (holder; for a notice with no
    holder — clandestine transport — the same plate)."""
    notice = measure.notice
    base = Fine.unscoped.filter(
        jurisdiction_id=measure.jurisdiction_id, status=Fine.Status.OPEN, due_on__lt=on
    )
    if notice.holder_id is not None:
        return base.filter(holder_id=notice.holder_id)
    condition = Q(notice_id=notice.pk)
    if notice.plate:
        condition |= Q(notice__plate=notice.plate, notice__offender_kind=OffenderKind.UNLICENSED)
    return base.filter(condition)


def clearance_refusal(measure: Measure, on: dt.date) -> str | None:
    """Billing's clearance for releasing a seized vehicle of a holder: every overdue charge (fines
    and fees) that blocks, each with its slip and PIX, where the pack's `clearance.blocks` lists
    the release; None when clear or when it does not apply."""
    holder = measure.notice.holder
    if measure.kind not in CLEARANCE_KINDS or holder is None:
        return None
    verdict = clearance(holder=holder, on=on, procedure="release")
    if verdict:
        return None
    return " ".join(verdict.reasons)


def _dues_refusal(measure: Measure, on: dt.date, cite: str) -> str | None:
    """`dues_paid`: no overdue fine of the offender in enforcement (a fine without a charge yet,
    or a clandestine offender's) and, for a holder's seized vehicle, billing's clearance."""
    refusal = clearance_refusal(measure, on)
    fines = overdue_fines(measure, on).select_related("notice").order_by("due_on")
    if refusal is not None:
        fines = fines.filter(charge__isnull=True)  # those with a charge are in the clearance
    rows = list(fines[:5])
    if not rows and refusal is None:
        return None
    parts = [refusal] if refusal else []
    if rows:
        listed = "; ".join(f"auto {f.notice.number}, vencida em {_pt(f.due_on)}" for f in rows if f.due_on)
        parts.append(f"Há multa vencida e não paga ({listed}): pague-a antes de liberar ({cite}).")
    return " ".join(parts)


def _fine_refusal(measure: Measure, cite: str) -> str | None:
    """`fine_paid`: this notice's own fine paid (even before it falls due: Cabo art. 23, parágrafo
    único — the fine is paid "para a liberação" of the retained vehicle)."""
    fine = Fine.unscoped.filter(notice_id=measure.notice_id).first()
    if fine is None:
        return f"A multa deste auto ainda não foi lançada: a liberação exige o seu pagamento ({cite})."
    if fine.status in (Fine.Status.PAID, Fine.Status.OFFSET):
        return None
    due = f", vencimento em {_pt(fine.due_on)}" if fine.due_on else ""
    return (
        f"A multa deste auto ({lower_first(fine.get_status_display())}{due}) ainda não foi paga: "
        f"a liberação exige o seu pagamento ({cite})."
    )


def _system_refusal(measure: Measure, condition_id: str, on: dt.date, cite: str) -> str | None:
    if condition_id == "dues_paid":
        return _dues_refusal(measure, on, cite)
    if condition_id == "fine_paid":
        return _fine_refusal(measure, cite)
    return None


SYSTEM_NOTES = {
    "dues_paid": "Verificado pelo sistema: nenhuma multa vencida em aberto.",
    "fine_paid": "Verificado pelo sistema: a multa deste auto está paga.",
}


def _check_day(measure: Measure, day: dt.date, what: str) -> None:
    if day is None:
        raise ValidationError(f"Informe a data {what}.")
    if day < _local_day(measure.notice.jurisdiction, measure.applied_at):
        raise ValidationError(f"A data {what} não pode ser anterior à aplicação da medida.")
    if day > _today(measure.notice.jurisdiction):
        raise ValidationError(f"A data {what} não pode estar no futuro.")


def locked_measure(measure: Measure) -> Measure:
    locked: Measure = (
        Measure.unscoped.select_for_update()
        .select_related("notice", "notice__jurisdiction")
        .get(pk=measure.pk)
    )
    if locked.status != Measure.Status.IN_FORCE:
        raise ValidationError(f"Esta medida já foi {lower_first(locked.get_status_display())}.")
    return locked


@transaction.atomic
def meet_condition(
    *, actor: Any, measure: Measure, condition_id: str, met_on: dt.date, note: str, reason: str
) -> Measure:
    """Mark one release condition met on a date (audited). `dues_paid` is checked, not trusted."""
    reason = need_reason(reason)
    measure = locked_measure(measure)
    conditions = [dict(row) for row in measure.conditions]
    row = next((c for c in conditions if c.get("id") == condition_id), None)
    if row is None:
        raise ValidationError(f"A lei não fixa a condição “{condition_id}” para liberar esta medida.")
    if row.get("met_on"):
        raise ValidationError(f"A condição “{row['label']}” já foi cumprida em {row['met_on']}.")
    _check_day(measure, met_on, "do cumprimento")
    note = (note or "").strip()
    if condition_id not in SYSTEM_CHECKED and not note:
        raise ValidationError(
            f"Informe o que comprova “{row['label']}” (ato, recibo, laudo) — {row['cite']}."
        )
    if condition_id in SYSTEM_CHECKED:
        refusal = _system_refusal(measure, condition_id, met_on, row["cite"])
        if refusal:
            raise ValidationError(refusal)
        checked = SYSTEM_NOTES[condition_id]
        note = f"{checked} {note}" if note else checked
    if condition_id == "term_served" and measure.days:
        ends = _local_day(measure.notice.jurisdiction, measure.applied_at) + dt.timedelta(days=measure.days)
        if met_on < ends:
            raise ValidationError(
                f"O prazo de {measure.days} dias só se cumpre em {_pt(ends)} ({row['cite']})."
            )
    row.update(met_on=met_on.isoformat(), note=note, by=_username(actor))
    return update_audited(
        actor=actor,
        instance=measure,
        changes={"conditions": conditions},
        reason=reason,
        action="enforcement.measure_condition_met",
    )


def _username(actor: Any) -> str:
    return str(actor.get_username()) if getattr(actor, "pk", None) is not None else "sistema"


def unmet(measure: Measure) -> list[dict[str, Any]]:
    return [row for row in measure.conditions if not row.get("met_on")]


@transaction.atomic
def release_measure(*, actor: Any, measure: Measure, released_on: dt.date, note: str, reason: str) -> Measure:
    """Release a measure once every condition of the law is met; where the law sets none, a note
    must say why it is released. Dues are checked again on the release date."""
    reason = need_reason(reason)
    measure = locked_measure(measure)
    _check_day(measure, released_on, "da liberação")
    note = (note or "").strip()
    missing = unmet(measure)
    if missing:
        listed = "; ".join(f"{row['label']} ({row['cite']})" for row in missing)
        raise ValidationError(f"A medida só pode ser liberada depois de cumpridas as condições: {listed}.")
    if not measure.conditions and not note:
        raise ValidationError(
            "A lei não fixa condição para liberar esta medida: informe na observação por que ela é liberada."
        )
    for row in measure.conditions:
        refusal = _system_refusal(measure, str(row.get("id")), released_on, row["cite"])
        if refusal:
            raise ValidationError(refusal)
    refusal = clearance_refusal(measure, released_on)
    if refusal:
        raise ValidationError(refusal)
    return update_audited(
        actor=actor,
        instance=measure,
        changes={"status": Measure.Status.RELEASED, "released_on": released_on, "release_note": note},
        reason=reason,
        action="enforcement.measure_released",
    )


def measures_in_force(target: Any, *, manager: Any = None) -> QuerySet[Measure]:
    """Measures in force on a plate (str) or a vehicle (registry.Vehicle: by the vehicle or its
    plate in the same jurisdiction). Uses the scoped manager unless one is given."""
    qs = (manager if manager is not None else Measure.objects).filter(status=Measure.Status.IN_FORCE)
    if isinstance(target, str):
        plate = target.upper().replace("-", "").replace(" ", "")
        return qs.filter(notice__plate=plate).select_related("notice")
    condition = Q(notice__vehicle_id=target.pk) | Q(notice__plate=target.plate)
    return qs.filter(condition, jurisdiction_id=target.jurisdiction_id).select_related("notice")


def public_vehicle_info(vehicle: Any, on: dt.date) -> dict[str, Any]:
    """For the public plate check: the measures in force on the vehicle (kind and date only, no
    personal data); a retained, removed or seized vehicle (or suspended permit) may not operate."""
    return _public_part(
        vehicle, measures_in_force(vehicle, manager=Measure.unscoped).order_by("applied_at", "id"), on
    )


def public_vehicle_info_many(vehicles: list[Any], on: dt.date) -> dict[int, dict[str, Any]]:
    """`public_vehicle_info` of many vehicles with one query (the read model's rebuild); a part
    has `changes_on` when a measure recorded for a later day takes effect by the date alone."""
    by_id = {v.pk: v for v in vehicles}
    by_plate: dict[tuple[str, str], list[Any]] = {}
    for vehicle in vehicles:
        by_plate.setdefault((vehicle.jurisdiction_id, vehicle.plate), []).append(vehicle)
    found: dict[int, list[Measure]] = {}
    rows = (
        Measure.unscoped.filter(status=Measure.Status.IN_FORCE)
        .filter(
            among("notice__vehicle_id", by_id)
            | Q(notice__plate__in=Vehicle.unscoped.filter(among("id", by_id)).values("plate"))
        )
        .select_related("notice")
        .order_by("applied_at", "id")
    )
    for measure in rows:
        reached = {v.pk for v in by_plate.get((measure.jurisdiction_id, measure.notice.plate), ())}
        vehicle = by_id.get(measure.notice.vehicle_id) if measure.notice.vehicle_id else None
        if vehicle is not None and vehicle.jurisdiction_id == measure.jurisdiction_id:
            reached.add(vehicle.pk)
        for pk in reached:
            found.setdefault(pk, []).append(measure)
    out: dict[int, dict[str, Any]] = {}
    for vehicle in vehicles:
        out[vehicle.pk] = _public_part(vehicle, found.get(vehicle.pk, ()), on)
    return out


def _public_part(vehicle: Any, measures: Any, on: dt.date) -> dict[str, Any]:
    info: dict[str, Any] = {"reasons": []}
    for measure in measures:
        since = _local_day(vehicle.jurisdiction, measure.applied_at)
        if since > on:
            if since < info.get("changes_on", dt.date.max):
                info["changes_on"] = since
            continue
        text = f"{measure.get_kind_display()} em vigor desde {_pt(since)}"
        if measure.kind in BARS_OPERATION:
            info["authorized"] = False
            text += " — não autorizado a operar até a liberação"
        info["reasons"].append(text + ".")
    return info


def condition_state(measure: Measure) -> list[dict[str, Any]]:
    """The conditions for display: label, article, met on (date) and by whom."""
    rows = []
    for row in measure.conditions:
        met = row.get("met_on")
        rows.append({**row, "met": bool(met), "met_date": dt.date.fromisoformat(met) if met else None})
    return rows


def measure_data(measure: Measure) -> dict[str, Any]:
    """The measure as plain JSON data (the API's response body)."""
    return {
        "id": measure.pk,
        "notice_id": measure.notice_id,
        "jurisdiction": measure.jurisdiction_id,
        "kind": measure.kind,
        "kind_label": measure.get_kind_display(),
        "status": measure.status,
        "applied_at": measure.applied_at.isoformat(),
        "detail": measure.detail,
        "days": measure.days,
        "conditions": measure.conditions,
        "unmet": [row["id"] for row in unmet(measure)],
        "citations": measure.citations,
        "missing_parameters": measure.missing_parameters,
        "released_on": measure.released_on.isoformat() if measure.released_on else None,
        "release_note": measure.release_note,
    }
