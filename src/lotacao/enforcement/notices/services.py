"""Drawing up infraction notices: the fields the law requires (from the pack), the offender's
history (final decisions only), the engine's penalty stored with its citations, the points
ledger, and the audited override of a computed penalty."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from lotacao.audit.services import record, snapshot
from lotacao.core.law import citation, evaluate_case, pack_for, resolve
from lotacao.core.models import Jurisdiction
from lotacao.core.services import create_audited
from lotacao.enforcement.models import AGENT_KINDS, InfractionNotice, NoticeCounter, OffenderKind, PointsEntry
from lotacao.law.errors import CaseError

# What each field id of `notice.required_fields` means, in the words of the error message.
FIELD_LABELS = {
    "infraction": "o enquadramento da infração",
    "description": "a descrição da ocorrência",
    "place": "o local da infração",
    "drawn_up_at": "a data e a hora da infração",
    "plate": "a placa do veículo",
    "vehicle": "o veículo cadastrado (código do veículo)",
    "inspector": "a identificação do agente fiscal",
    "line": "a linha",
    "holder": "o permissionário",
}
HISTORY_STATUS: dict[str, str] = {
    InfractionNotice.Status.DECIDED_FINAL.value: "final",
    InfractionNotice.Status.ANNULLED.value: "annulled",
}


def _day(jurisdiction: Jurisdiction, moment: dt.datetime) -> dt.date:
    """The day of the infraction where it happened (the jurisdiction's time zone)."""
    return moment.astimezone(ZoneInfo(jurisdiction.timezone or "America/Sao_Paulo")).date()


def _next_number(jurisdiction: Jurisdiction, year: int) -> str:
    counter, _ = NoticeCounter.unscoped.get_or_create(jurisdiction=jurisdiction)
    counter = NoticeCounter.unscoped.select_for_update().get(pk=counter.pk)
    counter.last_number += 1
    counter.save(update_fields=["last_number"])
    return f"AI-{year}-{counter.last_number:06d}"


def _present(notice: InfractionNotice, field: str) -> bool:
    if field == "infraction":
        return bool(notice.infraction_code or notice.infraction_group)
    if field == "vehicle":
        return notice.vehicle_id is not None
    if field == "line":
        return notice.line_id is not None
    if field == "holder":
        return notice.holder_id is not None
    if field == "inspector":
        return notice.inspector_id is not None
    return bool(getattr(notice, field))


def required_fields_check(notice: InfractionNotice, on: dt.date) -> list[str]:
    """The law's refusals for missing fields (Portuguese, naming the article); the missing
    parameters are recorded on the notice when the law leaves the list undefined."""
    code = notice.jurisdiction_id
    errors: list[str] = []
    required = resolve(code, "notice.required_fields", on)
    if required is None:
        notice.missing_parameters = sorted({*notice.missing_parameters, "notice.required_fields"})
    else:
        fields = list(required.get("always", []))
        if notice.offender_kind != OffenderKind.UNLICENSED:
            fields += list(required.get("registered_service", []))
        where = citation(code, "notice.required_fields", on)
        for field in fields:
            if not _present(notice, field):
                errors.append(
                    f"Falta {FIELD_LABELS.get(field, field)}, exigido no auto de infração ({where})."
                )
    identified = notice.holder_id or notice.agent_id or notice.offender_name.strip()
    if not identified and resolve(code, "notice.unidentified_offender_evidence", on):
        has_gps = notice.evidence_latitude is not None and notice.evidence_longitude is not None
        if not (notice.evidence_image.strip() or has_gps):
            where = citation(code, "notice.unidentified_offender_evidence", on)
            errors.append(
                "Sem identificação do infrator, o auto precisa de prova que identifique o veículo: "
                f"referência da imagem ou coordenadas de GPS ({where})."
            )
    return errors


def _consistency(notice: InfractionNotice) -> list[str]:
    errors = []
    kind = notice.offender_kind
    if kind in AGENT_KINDS and notice.agent_id is None and not notice.offender_name.strip():
        errors.append("Informe o preposto (condutor ou cobrador) autuado.")
    if kind in AGENT_KINDS and notice.holder_id is None:
        errors.append(
            "A multa do preposto é cobrada do permissionário: informe o permissionário ou a permissão."
        )
    if kind in (OffenderKind.PERMIT_HOLDER, OffenderKind.COMPANY) and notice.holder_id is None:
        errors.append("Informe o permissionário autuado (ou a permissão / o veículo cadastrado).")
    for obj in (notice.permit, notice.holder, notice.vehicle, notice.line, notice.agent):
        if obj is not None and obj.jurisdiction_id != notice.jurisdiction_id:
            errors.append("Os cadastros vinculados ao auto devem ser da mesma jurisdição.")
            break
    return errors


def offender_history(notice: InfractionNotice) -> list[dict[str, Any]]:
    """Earlier notices of the same offender, in the engine's terms (final / pending / annulled)."""
    qs = InfractionNotice.unscoped.filter(
        jurisdiction_id=notice.jurisdiction_id, drawn_up_at__lt=notice.drawn_up_at
    ).exclude(pk=notice.pk)
    kind = notice.offender_kind
    if kind in AGENT_KINDS and notice.agent_id is not None:
        qs = qs.filter(agent_id=notice.agent_id, offender_kind__in=[k.value for k in AGENT_KINDS])
    elif kind in AGENT_KINDS:
        return []
    elif kind == OffenderKind.UNLICENSED:
        condition = Q()
        if notice.offender_document:
            condition |= Q(offender_document=notice.offender_document)
        if notice.plate:
            condition |= Q(plate=notice.plate)
        if not condition:
            return []
        qs = qs.filter(condition, offender_kind=OffenderKind.UNLICENSED)
    elif notice.holder_id is None:
        return []
    else:
        qs = qs.filter(holder_id=notice.holder_id, offender_kind=kind)
    history = []
    for row in qs.order_by("drawn_up_at").values(
        "pk", "drawn_up_at", "infraction_code", "infraction_group", "status"
    ):
        entry: dict[str, Any] = {
            "date": _day(notice.jurisdiction, row["drawn_up_at"]).isoformat(),
            "code": row["infraction_code"] or unclassified_code(row["pk"]),
            "status": HISTORY_STATUS.get(row["status"], "pending"),
        }
        if row["infraction_group"]:
            entry["group"] = row["infraction_group"]
        history.append(entry)
    return history


def unclassified_code(pk: int | None) -> str:
    """The engine's code for a notice recorded by group only (a law whose catalogue is left to a
    regulation not in the text, as Cabo's): unique, so two such notices are never taken for the
    same violation."""
    return f"sem-enquadramento-{pk or 'novo'}"


def penalty_case(notice: InfractionNotice, on: dt.date) -> dict[str, Any]:
    infraction: dict[str, Any] = {"code": notice.infraction_code or unclassified_code(notice.pk)}
    if notice.infraction_group:
        infraction["group"] = notice.infraction_group
    return {
        "jurisdiction": notice.jurisdiction_id,
        "kind": "penalty",
        "date": on.isoformat(),
        "offender": notice.offender_kind,
        "infraction": infraction,
        "history": offender_history(notice),
    }


def compute_penalty(notice: InfractionNotice) -> dict[str, Any]:
    """The engine's result for the notice (for the preview before confirming, and to store)."""
    on = _day(notice.jurisdiction, notice.drawn_up_at)
    try:
        result = evaluate_case(penalty_case(notice, on))
    except CaseError as error:
        raise ValidationError(str(error)) from error
    if "error" in result:
        raise ValidationError(result["error"].get("message", "Caso inválido para o cálculo da penalidade."))
    return result


def _fill_links(notice: InfractionNotice) -> None:
    """Derive the holder, vehicle and plate from the permit or the vehicle when not given."""
    if notice.permit is not None:
        notice.holder = notice.holder or notice.permit.holder
        notice.vehicle = notice.vehicle or notice.permit.vehicle
        notice.line = notice.line or notice.permit.line
    if notice.vehicle is not None:
        notice.plate = notice.plate or notice.vehicle.plate
        if notice.holder is None and notice.offender_kind != OffenderKind.UNLICENSED:
            notice.holder = notice.vehicle.holder
    notice.plate = (notice.plate or "").upper().replace("-", "").replace(" ", "")


def prepare_notice(
    *,
    jurisdiction: Jurisdiction,
    drawn_up_at: dt.datetime,
    infraction_code: str = "",
    infraction_group: str = "",
    offender_kind: str,
    place: str = "",
    description: str = "",
    permit: Any = None,
    holder: Any = None,
    agent: Any = None,
    vehicle: Any = None,
    line: Any = None,
    plate: str = "",
    offender_name: str = "",
    offender_document: str = "",
    inspector: Any = None,
    evidence_image: str = "",
    evidence_latitude: Decimal | None = None,
    evidence_longitude: Decimal | None = None,
) -> InfractionNotice:
    """The notice validated against the pack, with the engine's penalty — not saved: this is the
    preview a clerk sees before confirming, and what `draw_up_notice` stores."""
    if timezone.is_naive(drawn_up_at):
        raise ValidationError("Informe a data e a hora da infração com fuso horário.")
    if offender_kind not in OffenderKind.values:
        raise ValidationError("Tipo de infrator desconhecido.")
    pack = pack_for(jurisdiction.code)
    if (
        infraction_code
        and infraction_code not in pack.infractions
        and infraction_code != "unlicensed_transport"
    ) and not pack.accepts_group_only:
        raise ValidationError(f"Enquadramento {infraction_code} não consta do quadro de infrações da lei.")
    if infraction_group and infraction_group not in pack.groups:
        raise ValidationError(f"Grupo {infraction_group} não existe na lei.")
    if offender_kind == OffenderKind.UNLICENSED and not infraction_code:
        infraction_code = "unlicensed_transport"
    if not infraction_code and not (pack.accepts_group_only and infraction_group):
        raise ValidationError(
            "Escolha a infração do quadro da lei"
            + (" ou, se ela não constar, o grupo." if pack.accepts_group_only else ".")
        )
    notice = InfractionNotice(
        jurisdiction=jurisdiction,
        drawn_up_at=drawn_up_at,
        infraction_code=infraction_code,
        infraction_group=infraction_group,
        offender_kind=offender_kind,
        place=place.strip(),
        description=description.strip(),
        permit=permit,
        holder=holder,
        agent=agent,
        vehicle=vehicle,
        line=line,
        plate=plate,
        offender_name=offender_name.strip(),
        offender_document=offender_document.strip(),
        inspector=inspector,
        evidence_image=evidence_image.strip(),
        evidence_latitude=evidence_latitude,
        evidence_longitude=evidence_longitude,
        missing_parameters=[],
    )
    _fill_links(notice)
    on = _day(jurisdiction, drawn_up_at)
    errors = _consistency(notice) + required_fields_check(notice, on)
    if errors:
        raise ValidationError(errors)
    result = compute_penalty(notice)
    notice.engine_result = result
    notice.penalty = {"penalties": result.get("penalties", []), "measures": result.get("measures", [])}
    notice.citations = list(result.get("citations", []))
    notice.explanation = str(result.get("explanation", ""))
    notice.law = pack.law
    notice.evaluated_for = on
    notice.missing_parameters = sorted({*notice.missing_parameters, *result.get("missing_parameters", [])})
    if offender_kind in AGENT_KINDS:
        charged = resolve(jurisdiction.code, "notice.agent_fines_charged_to_holder", on)
        if charged is None:
            notice.missing_parameters = sorted(
                {*notice.missing_parameters, "notice.agent_fines_charged_to_holder"}
            )
        engine_says = any(item.get("charged_to") == "permit_holder" for item in result.get("penalties", []))
        notice.charged_to_holder = notice.holder_id is not None and bool(charged or engine_says)
    return notice


@transaction.atomic
def draw_up_notice(
    *, actor: Any, reason: str = "Auto de infração lavrado", **fields: Any
) -> InfractionNotice:
    """Validate against the pack, compute the penalty with the engine, store and audit; the
    points the law adds go to the ledger. `fields`: the keyword arguments of `prepare_notice`."""
    notice = prepare_notice(**fields)
    jurisdiction = notice.jurisdiction
    pack = pack_for(jurisdiction.code)
    on = notice.evaluated_for
    assert on is not None
    result = notice.engine_result
    offender_kind = notice.offender_kind
    notice.number = _next_number(jurisdiction, on.year)
    create_audited(actor=actor, instance=notice, reason=reason, action="enforcement.notice_drawn_up")
    points = (result.get("points") or {}).get("added")
    group = str(result.get("group") or "")
    if points:
        person = (
            notice.agent
            if offender_kind in AGENT_KINDS
            else (notice.holder.person if notice.holder else None)
        )
        entry = PointsEntry(
            jurisdiction=jurisdiction,
            notice=notice,
            person=person,
            holder=notice.holder,
            points=int(points),
            on=on,
            citation=pack.groups[group].citation if group in pack.groups else "",
        )
        create_audited(actor=actor, instance=entry, reason=reason, action="enforcement.points_added")
    return notice


@transaction.atomic
def override_penalty(
    *, actor: Any, notice: InfractionNotice, penalty: dict[str, Any], reason: str
) -> InfractionNotice:
    """Replace the computed penalty: only with a reason, audited (before and after)."""
    if not reason or not reason.strip():
        raise ValidationError("Informe o motivo para alterar a penalidade calculada pelo sistema.")
    if not isinstance(penalty, dict) or not isinstance(penalty.get("penalties"), list):
        raise ValidationError("Penalidade inválida: informe a lista de penalidades.")
    notice = InfractionNotice.unscoped.select_for_update().get(pk=notice.pk)
    before = snapshot(notice)
    notice.penalty = {"penalties": penalty["penalties"], "measures": penalty.get("measures", [])}
    notice.penalty_overridden = True
    notice.override_reason = reason.strip()
    notice.save(update_fields=["penalty", "penalty_overridden", "override_reason"])
    after = snapshot(notice)
    record(
        actor=actor,
        action="enforcement.penalty_overridden",
        instance=notice,
        reason=reason,
        before={k: v for k, v in before.items() if after.get(k) != v},
        after={k: v for k, v in after.items() if before.get(k) != v},
    )
    return notice


def links_from_ids(
    jurisdiction: Jurisdiction,
    *,
    permit_id: int | None = None,
    holder_id: int | None = None,
    agent_id: int | None = None,
    vehicle_id: int | None = None,
    line_id: int | None = None,
) -> dict[str, Any]:
    """The linked records of a request, through the scoped managers (outside scope: refused)."""
    from lotacao.permits.models import Permit
    from lotacao.registry.models import Holder, Line, Person, Vehicle

    wanted = [
        ("permit", Permit, permit_id, "Permissão"),
        ("holder", Holder, holder_id, "Permissionário"),
        ("agent", Person, agent_id, "Preposto"),
        ("vehicle", Vehicle, vehicle_id, "Veículo"),
        ("line", Line, line_id, "Linha"),
    ]
    links: dict[str, Any] = {}
    for name, model, pk, label in wanted:
        if pk is None:
            continue
        obj = model.objects.filter(pk=pk, jurisdiction=jurisdiction).first()
        if obj is None:
            raise ValidationError(f"{label} {pk} não encontrado(a) nesta jurisdição.")
        links[name] = obj
    return links


def notice_data(notice: InfractionNotice) -> dict[str, Any]:
    """The notice as plain JSON data (the API's response body, replayed as is on a retry)."""
    return {
        "id": notice.pk,
        "number": notice.number,
        "jurisdiction": notice.jurisdiction_id,
        "status": notice.status,
        "drawn_up_at": notice.drawn_up_at.astimezone(ZoneInfo(notice.jurisdiction.timezone)).isoformat(),
        "place": notice.place,
        "infraction_code": notice.infraction_code,
        "infraction_group": notice.infraction_group,
        "offender_kind": notice.offender_kind,
        "permit_id": notice.permit_id,
        "holder_id": notice.holder_id,
        "agent_id": notice.agent_id,
        "vehicle_id": notice.vehicle_id,
        "line_id": notice.line_id,
        "plate": notice.plate,
        "penalty": notice.penalty,
        "group": notice.engine_result.get("group"),
        "repeat": notice.engine_result.get("repeat"),
        "points": notice.engine_result.get("points"),
        "citations": notice.citations,
        "explanation": notice.explanation,
        "law": notice.law,
        "missing_parameters": notice.missing_parameters,
        "charged_to_holder": notice.charged_to_holder,
    }
