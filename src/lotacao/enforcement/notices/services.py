"""Drawing up an infraction notice: the fields the law requires (from the pack), the engine's
penalty stored with its citations (`penalty.py`: the offender's history, final decisions only),
the notice's number, the points ledger, and the audited override of a computed penalty.

`prepare_notice` is the preview a clerk sees before confirming (nothing saved); `draw_up_notice`
stores it, numbered, in the notice's first state (`states.INITIAL`)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, snapshot
from lotacao.core.law import citation, pack_for, value
from lotacao.core.models import Jurisdiction
from lotacao.enforcement.models import AGENT_KINDS, InfractionNotice, NoticeCounter, OffenderKind, PointsEntry
from lotacao.enforcement.notices import states
from lotacao.enforcement.notices.penalty import compute_penalty
from lotacao.enforcement.reading import local_day

GROUPS_PARAMETER = "infraction.groups"

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


def required_fields_check(
    notice: InfractionNotice, on: dt.date, exempt: frozenset[str] = frozenset()
) -> list[str]:
    """The law's refusals for missing fields (Portuguese, naming the article); the missing
    parameters are recorded on the notice when the law leaves the list undefined. `exempt`: fields
    not asked of this notice (the inspector of a paper notice drawn up before the system)."""
    code = notice.jurisdiction_id
    errors: list[str] = []
    required = value(code, "notice.required_fields", on)
    if required is None:
        notice.missing_parameters = sorted({*notice.missing_parameters, "notice.required_fields"})
    else:
        fields = list(required.get("always", []))
        if notice.offender_kind != OffenderKind.UNLICENSED:
            fields += list(required.get("registered_service", []))
        where = citation(code, "notice.required_fields", on)
        for field in fields:
            if field not in exempt and not _present(notice, field):
                errors.append(
                    f"Falta {FIELD_LABELS.get(field, field)}, exigido no auto de infração ({where})."
                )
    identified = notice.holder_id or notice.agent_id or notice.offender_name.strip()
    if not identified and value(code, "notice.unidentified_offender_evidence", on):
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


def _checked_infraction(
    jurisdiction: Jurisdiction,
    drawn_up_at: dt.datetime,
    offender_kind: str,
    infraction_code: str,
    infraction_group: str,
) -> str:
    """The infraction named as the pack knows it (its catalogue, or a group where the law takes
    the group alone); the code of clandestine transport when none is given for it."""
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
    return infraction_code


def agency_group(jurisdiction_code: str, infraction_code: str, on: dt.date) -> str:
    """The group of a conduct whose group the law leaves to the agency (`infraction.groups`:
    Maricá art. 43, Anexo I absent), as the manager set it once; "" where the catalogue fixes the
    group or the law has no such table. A conduct the agency has not classified yet is refused
    with who must supply it — the inspector never chooses it in the street."""
    pack = pack_for(jurisdiction_code)
    row = pack.infractions.get(infraction_code)
    if row is None or row.group is not None or not pack.has(GROUPS_PARAMETER):
        return ""
    table = value(jurisdiction_code, GROUPS_PARAMETER, on) or {}
    group = str(table.get(infraction_code) or "")
    if group not in pack.groups:
        where = citation(jurisdiction_code, GROUPS_PARAMETER, on)
        raise ValidationError(
            f"O grupo da conduta {row.cite} não foi informado pelo órgão gestor ({where}): o gestor "
            "deve informá-lo uma vez em Valores da lei (grupo de cada conduta) antes de lavrar o auto."
        )
    return group


def _apply_engine(notice: InfractionNotice, on: dt.date) -> None:
    """The engine's result stored on the notice: the penalty in force, its citations and
    explanation, the law, and whether an agent's fine is charged to the holder."""
    result = compute_penalty(notice)
    code = notice.jurisdiction_id
    notice.engine_result = result
    notice.penalty = {"penalties": result.get("penalties", []), "measures": result.get("measures", [])}
    notice.citations = list(result.get("citations", []))
    notice.explanation = str(result.get("explanation", ""))
    notice.law = pack_for(code).law
    notice.evaluated_for = on
    notice.missing_parameters = sorted({*notice.missing_parameters, *result.get("missing_parameters", [])})
    if notice.offender_kind in AGENT_KINDS:
        charged = value(code, "notice.agent_fines_charged_to_holder", on)
        if charged is None:
            notice.missing_parameters = sorted(
                {*notice.missing_parameters, "notice.agent_fines_charged_to_holder"}
            )
        engine_says = any(item.get("charged_to") == "permit_holder" for item in result.get("penalties", []))
        notice.charged_to_holder = notice.holder_id is not None and bool(charged or engine_says)


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
    drawn_up_before_system: bool = False,
) -> InfractionNotice:
    """The notice validated against the pack, with the engine's penalty — not saved: this is the
    preview a clerk sees before confirming, and what `draw_up_notice` stores.
    `drawn_up_before_system`: a notice of the agency's existing register (the import), whose
    inspector signed the paper notice and is not a user of the system."""
    infraction = _checked_infraction(
        jurisdiction, drawn_up_at, offender_kind, infraction_code, infraction_group
    )
    if infraction and not infraction_group:
        infraction_group = agency_group(jurisdiction.code, infraction, local_day(jurisdiction, drawn_up_at))
    notice = InfractionNotice(
        jurisdiction=jurisdiction,
        status=states.INITIAL,
        drawn_up_at=drawn_up_at,
        infraction_code=infraction,
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
    on = local_day(jurisdiction, drawn_up_at)
    exempt = frozenset({"inspector"}) if drawn_up_before_system else frozenset()
    errors = _consistency(notice) + required_fields_check(notice, on, exempt)
    if errors:
        raise ValidationError(errors)
    _apply_engine(notice, on)
    return notice


def _add_points(actor: Any, notice: InfractionNotice, reason: str) -> None:
    """The points the law adds go to the ledger (the agent's person, or the holder's)."""
    result = notice.engine_result
    points = (result.get("points") or {}).get("added")
    if not points:
        return
    pack = pack_for(notice.jurisdiction_id)
    group = str(result.get("group") or "")
    person = (
        notice.agent
        if notice.offender_kind in AGENT_KINDS
        else (notice.holder.person if notice.holder else None)
    )
    assert notice.evaluated_for is not None
    entry = PointsEntry(
        jurisdiction=notice.jurisdiction,
        notice=notice,
        person=person,
        holder=notice.holder,
        points=int(points),
        on=notice.evaluated_for,
        citation=pack.groups[group].citation if group in pack.groups else "",
    )
    create_audited(actor=actor, instance=entry, reason=reason, action="enforcement.points_added")


def record_points(*, actor: Any, notice: InfractionNotice, reason: str) -> None:
    """The points a stored notice adds to the ledger (drawing up, and the register's import of
    the notices drawn up before the system)."""
    _add_points(actor, notice, reason)


@transaction.atomic
def draw_up_notice(
    *, actor: Any, reason: str = "Auto de infração lavrado", **fields: Any
) -> InfractionNotice:
    """Validate against the pack, compute the penalty with the engine, number, store and audit;
    the points the law adds go to the ledger. `fields`: the keyword arguments of `prepare_notice`."""
    notice = prepare_notice(**fields)
    assert notice.evaluated_for is not None
    notice.number = _next_number(notice.jurisdiction, notice.evaluated_for.year)
    create_audited(actor=actor, instance=notice, reason=reason, action="enforcement.notice_drawn_up")
    _add_points(actor, notice, reason)
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
