"""Write services of online requests: filing (the law's requirements checked first, with the same
words the form showed), the clerk's decision (with reasons and citation, its effect run by the
owning app's own service), the holder's withdrawal, and the agency's inspection slots.

Keyword-only, atomic, audited; a refusal is a Portuguese `ValidationError` and changes nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.accounts.models import HolderAccount, StaffMembership
from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.core.models import Jurisdiction
from lotacao.councils import gates
from lotacao.councils.models import Resolution
from lotacao.documents import services as document_services
from lotacao.documents.models import Document
from lotacao.inspections import services as inspection_services
from lotacao.outbox.models import Event
from lotacao.outbox.services import enqueue
from lotacao.permits import services as permit_services
from lotacao.permits.models import Permit
from lotacao.registry.models import Holder, Vehicle
from lotacao.workqueue.models import WorkItem
from lotacao.workqueue.services import WorkItemSpec, open_item

from . import procedures, states
from .models import InspectionSlot, Request

K = Request.Kind
S = Request.Status
QUEUE_KIND = "holder_requests.decide"


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _protocol(code: str, day: dt.date) -> str:
    """The next protocol number of the jurisdiction's year (the jurisdiction row locked meanwhile)."""
    Jurisdiction.unscoped.select_for_update().get(pk=code)
    prefix = f"REQ-{day.year}-"
    count = Request.unscoped.filter(jurisdiction_id=code, protocol__startswith=prefix).count()
    number = count + 1
    while Request.unscoped.filter(jurisdiction_id=code, protocol=f"{prefix}{number:06d}").exists():
        number += 1
    return f"{prefix}{number:06d}"


def _as_vehicle(holder: Holder, vehicle: Any) -> Vehicle | None:
    if vehicle is None or vehicle == "":
        return None
    if isinstance(vehicle, Vehicle):
        return vehicle
    return Vehicle.unscoped.filter(pk=vehicle, holder=holder).first()


# ---------------------------------------------------------------- filing


@transaction.atomic
def file_request(
    *,
    actor: Any,
    holder: Holder,
    kind: str,
    statement: str = "",
    on: dt.date | None = None,
    permit: Permit | None = None,
    vehicle: Vehicle | None = None,
    slot: InspectionSlot | None = None,
    document_code: str = "",
    file: Any = None,
    issued_on: dt.date | None = None,
    valid_until: dt.date | None = None,
    substitute: dict[str, Any] | None = None,
) -> Request:
    """File a request of `kind` for `holder`; refuses with every unmet requirement of the law."""
    if kind not in K.values:
        raise ValidationError(f"Requerimento desconhecido: {kind}.")
    day = _today(on)
    holder = Holder.unscoped.get(pk=holder.pk)
    if slot is not None:
        slot = InspectionSlot.unscoped.select_for_update().get(pk=slot.pk)  # bookings of a slot in turn
    inputs: dict[str, Any] = {"permit": permit, "vehicle": vehicle, "slot": slot, "filing": True}
    if kind == K.DOCUMENT:
        inputs["code"] = document_code
    if kind == K.SUBSTITUTION:
        inputs.update(substitute or {})
    result = procedures.check(kind, holder=holder, on=day, **inputs)
    if not result.ok:
        raise ValidationError(result.messages())
    code = holder.jurisdiction_id
    details: dict[str, Any] = {}
    request = Request(
        jurisdiction_id=code,
        holder=holder,
        kind=kind,
        filed_on=day,
        filed_by=actor if getattr(actor, "pk", None) is not None else None,
        statement=statement.strip()[:4000],
        requirements=result.as_list()
        + [{"label": n.label, "met": True, "detail": n.detail, "citation": n.citation} for n in result.notes],
        citations=result.citations(),
        permit=permit,
        vehicle=vehicle,
        slot=slot,
    )
    if kind == K.APPLICATION:
        route, _sentence, _cite = procedures.application_route(code, day)
        details["permit_kind"] = Permit.Kind.PROVISIONAL if route == "provisional" else Permit.Kind.REGULAR
    if kind == K.DOCUMENT:
        owner, _, doc_code = document_code.partition(":")
        request.document = document_services.upload_document(
            actor=actor,
            code=doc_code,
            file=file,
            issued_on=issued_on,
            valid_until=valid_until,
            reason=f"Enviado pelo permissionário para análise. {statement}".strip(),
            on=day,
            **(
                {"vehicle": vehicle}
                if owner == "veiculo"
                else {"person": holder.person, "company": holder.company}
            ),
        )
    if kind == K.SUBSTITUTION:
        sub = substitute or {}
        details["substitute"] = {
            "plate": str(sub.get("plate", "")).strip(),
            "category": str(sub.get("category", "")),
            "manufacture_year": int(sub.get("manufacture_year") or 0),
            "seats": int(sub.get("seats") or 0),
            "doors": int(sub.get("doors") or 0),
            "decharacterization_proof": str(sub.get("decharacterization_proof", "")).strip(),
        }
    if slot is not None:
        details["slot_starts_at"] = timezone.localtime(slot.starts_at).isoformat()
    request.details = details
    request.protocol = _protocol(code, day)
    request = create_audited(
        actor=actor,
        instance=request,
        reason=statement.strip() or f"{request.get_kind_display()} protocolado pelo permissionário.",
        action="holder_request.filed",
    )
    open_item(_work_item(request), day)
    return request


def _work_item(request: Request) -> WorkItemSpec:
    from django.urls import reverse

    return WorkItemSpec(
        jurisdiction_id=request.jurisdiction_id,
        kind=QUEUE_KIND,
        key=str(request.pk),
        title=f"Decidir: {lower_first(request.get_kind_display())} nº {request.protocol} de {request.holder}"[
            :300
        ],
        due_on=request.filed_on,
        url=reverse("holder_requests:detail", args=[request.pk]),
    )


# ---------------------------------------------------------------- decision


def may_decide(actor: Any, code: str) -> bool:
    if actor is None or not getattr(actor, "is_authenticated", False):
        return False
    if actor.is_superuser:
        return True
    return StaffMembership.objects.filter(
        user=actor, jurisdiction_id=code, role__in=states.CLERKS, active=True
    ).exists()


@transaction.atomic
def decide_request(
    *,
    actor: Any,
    request: Request,
    approve: bool,
    reasons: str,
    citation: str = "",
    on: dt.date | None = None,
    approval_reference: str = "",
    users_heard: bool = False,
    valid_until: dt.date | None = None,
    resolution: Resolution | None = None,
) -> Request:
    """The clerk's decision: approve (the effect runs in the owning app) or refuse, with reasons.

    `resolution` is the council's act where the law submits the decision to one (councils.gates:
    the renewal, Recife art. 2º; a substitute of another vehicle type, Recife art. 3º, § 1º)."""
    request = Request.unscoped.select_for_update().get(pk=request.pk)
    if not may_decide(actor, request.jurisdiction_id):
        raise PermissionDenied(
            "Somente o gestor e o atendente do órgão desta jurisdição decidem requerimentos."
        )
    action = "approve" if approve else "refuse"
    states.require(request, action)
    reasons = (reasons or "").strip()
    if not reasons:
        raise ValidationError("Informe a fundamentação da decisão.")
    day = _today(on)
    effect = ""
    if approve:
        effect = _approve(
            actor, request, day, reasons, approval_reference, users_heard, valid_until, resolution
        )
    else:
        effect = _refuse_effect(actor, request, reasons)
    cite = citation.strip() or "; ".join(request.citations[:3])
    request = update_audited(
        actor=actor,
        instance=request,
        changes={
            "status": states.transition(request.kind, action).target,
            "decided_on": day,
            "decided_by": actor if getattr(actor, "pk", None) is not None else None,
            "decision_reasons": reasons,
            "decision_citation": cite[:500],
            "effect": effect,
        },
        reason=reasons,
        action="holder_request.approved" if approve else "holder_request.refused",
    )
    _close_item(request, day)
    _notify(request)
    return request


def _approve(
    actor: Any,
    request: Request,
    day: dt.date,
    reasons: str,
    approval_reference: str,
    users_heard: bool,
    valid_until: dt.date | None,
    resolution: Resolution | None = None,
) -> str:
    holder = request.holder
    if request.kind == K.APPLICATION:
        result = procedures.check(K.APPLICATION, holder=holder, on=day, request_pk=request.pk)
        if not result.ok:
            raise ValidationError(["O requerente não atende hoje aos requisitos da lei:", *result.messages()])
        permit = permit_services.apply_for_permit(
            actor=actor,
            holder=holder,
            reason=f"Requerimento online nº {request.protocol}: {reasons}",
            applied_on=request.filed_on,
            kind=request.details.get("permit_kind", Permit.Kind.REGULAR),
        )
        permit_services.assess_application(actor=actor, permit=permit, reason=reasons, on=day)
        request.permit = permit
        update_audited(actor=actor, instance=request, changes={"permit": permit}, reason=reasons)
        return (
            "Requerimento registrado nas permissões do órgão para a outorga: a linha, o veículo e o "
            "número da permissão são definidos no ato de outorga."
        )
    if request.kind == K.RENEWAL:
        assert request.permit is not None
        permit = permit_services.renew_permit(
            actor=actor,
            permit=request.permit,
            reason=f"Requerimento online nº {request.protocol}: {reasons}",
            requested_on=request.filed_on,
            on=day,
            approval_reference=approval_reference,
            users_heard=users_heard,
            valid_until=valid_until,
            resolution=resolution,
        )
        return f"Permissão nº {permit.number} prorrogada: válida até {br_date(permit.valid_until)}."
    if request.kind == K.DOCUMENT:
        assert request.document is not None
        reviewed = Document.unscoped.get(pk=request.document.pk)
        if reviewed.status == Document.Status.REFUSED:  # reviewed meanwhile on the document's page
            raise ValidationError(
                f"O documento já foi recusado na análise de documentos ({reviewed.refusal_reason}): "
                "indefira o pedido com o mesmo motivo."
            )
        if reviewed.status == Document.Status.ACCEPTED:
            return f"{reviewed.label}: aceito na análise de documentos."
        document = document_services.review_document(
            actor=actor, document=request.document, accepted=True, reason=reasons, valid_until=valid_until
        )
        until = f", válido até {br_date(document.valid_until)}" if document.valid_until else ""
        return f"{document.label}: aceito{until}."
    if request.kind == K.SUBSTITUTION:
        assert request.vehicle is not None
        sub = dict(request.details.get("substitute", {}))
        proof = sub.pop("decharacterization_proof", "")
        cited = None
        if sub.get("category") and sub["category"] != request.vehicle.category:
            cited = gates.require(
                request.jurisdiction_id,
                "fleet.change",
                day,
                resolution,
                otherwise="O veículo novo é de outro tipo: o pedido continua em análise.",
            )
        approved_by = f" Mudança do tipo de veículo aprovada pela {cited}." if cited else ""
        new = inspection_services.replace_vehicle(
            actor=actor,
            replaced=request.vehicle,
            reason=f"Requerimento online nº {request.protocol}: {reasons}{approved_by}",
            decharacterization_proof=proof,
            on=day,
            **sub,
        )
        return f"Veículo {request.vehicle.plate_display} substituído pelo veículo {new.plate_display}."
    assert request.slot is not None and request.vehicle is not None
    slot = request.slot
    starts = timezone.localtime(slot.starts_at)
    inspection = inspection_services.schedule_inspection(
        actor=actor,
        vehicle=request.vehicle,
        scheduled_for=starts.date(),
        reason=f"Agendamento online nº {request.protocol}: {reasons}",
        place=f"{slot.place}, às {starts:%H:%M}",
        on=day,
    )
    request.details = {**request.details, "inspection_id": inspection.pk}
    update_audited(actor=actor, instance=request, changes={"details": request.details}, reason=reasons)
    return (
        f"Vistoria do veículo {request.vehicle.plate_display} marcada para {starts:%d/%m/%Y} às "
        f"{starts:%H:%M}, em {slot.place}."
    )


def _refuse_effect(actor: Any, request: Request, reasons: str) -> str:
    if request.kind == K.DOCUMENT and request.document is not None:
        if request.document.status == Document.Status.PENDING:
            document_services.review_document(
                actor=actor, document=request.document, accepted=False, reason=reasons
            )
        return f"{request.document.label}: recusado."
    if request.kind == K.INSPECTION:
        return "A vaga no horário foi liberada."
    return ""


@transaction.atomic
def withdraw_request(*, actor: Any, request: Request, on: dt.date | None = None) -> Request:
    """The holder gives up a request still in analysis (their own, through their account)."""
    request = Request.unscoped.select_for_update().get(pk=request.pk)
    owner = HolderAccount.objects.filter(user=actor, holder_id=request.holder_id).exists()
    if not owner:
        raise PermissionDenied("Somente o próprio requerente pode desistir do requerimento.")
    states.require(request, "withdraw")
    day = _today(on)
    request = update_audited(
        actor=actor,
        instance=request,
        changes={
            "status": S.WITHDRAWN,
            "decided_on": day,
            "effect": "Desistência registrada pelo requerente.",
        },
        reason="Desistência do requerente.",
        action="holder_request.withdrawn",
    )
    _close_item(request, day)
    return request


def _close_item(request: Request, day: dt.date) -> None:
    WorkItem.unscoped.filter(
        jurisdiction_id=request.jurisdiction_id,
        kind=QUEUE_KIND,
        key=str(request.pk),
        status=WorkItem.Status.OPEN,
    ).update(status=WorkItem.Status.CLOSED, closed_on=day)


def _notify(request: Request) -> None:
    """The holder hears of the decision (e-mail, and SMS where they chose it), in Portuguese."""
    account = HolderAccount.objects.select_related("user").filter(holder_id=request.holder_id).first()
    holder = request.holder
    party = holder.person or holder.company
    email = (account.user.email if account else "") or getattr(party, "email", "")
    phone = getattr(party, "phone", "")
    if not email and not phone:
        return
    jurisdiction = request.jurisdiction
    enqueue(
        event=Event.REQUEST,
        template="holder_requests/mail/decided",
        context={
            "name": str(holder),
            "agency": jurisdiction.official_name or jurisdiction.name,
            "what": request.get_kind_display(),
            "protocol": request.protocol,
            "filed_on": request.filed_on,
            "decision": request.get_status_display(),
            "reasons": request.decision_reasons,
            "citation": request.decision_citation,
            "effect": request.effect,
        },
        dedup_key=f"requerimento-decidido:{request.pk}",
        user=account.user if account else None,
        email=email,
        phone=phone,
        jurisdiction=jurisdiction,
    )


# ---------------------------------------------------------------- slots


@transaction.atomic
def open_slot(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    starts_at: dt.datetime,
    place: str,
    capacity: int,
    reason: str = "",
) -> InspectionSlot:
    if not may_decide(actor, jurisdiction.code):
        raise PermissionDenied("Somente o gestor e o atendente do órgão abrem horários de vistoria.")
    if starts_at <= timezone.now():
        raise ValidationError("A data e a hora do horário de vistoria já passaram.")
    if not place.strip():
        raise ValidationError("Informe o local da vistoria.")
    if capacity < 1 or capacity > 200:
        raise ValidationError("Informe de 1 a 200 vagas.")
    if InspectionSlot.unscoped.filter(
        jurisdiction=jurisdiction, starts_at=starts_at, place=place.strip(), closed=False
    ).exists():
        raise ValidationError("Já existe um horário aberto nesta data, hora e local.")
    slot = InspectionSlot(
        jurisdiction=jurisdiction,
        starts_at=starts_at,
        place=place.strip(),
        capacity=capacity,
        opened_by=actor if getattr(actor, "pk", None) is not None else None,
    )
    return create_audited(
        actor=actor,
        instance=slot,
        reason=reason or "Horário de vistoria aberto.",
        action="inspection_slot.opened",
    )


@transaction.atomic
def close_slot(*, actor: Any, slot: InspectionSlot, reason: str = "") -> InspectionSlot:
    slot = InspectionSlot.unscoped.select_for_update().get(pk=slot.pk)
    if not may_decide(actor, slot.jurisdiction_id):
        raise PermissionDenied("Somente o gestor e o atendente do órgão fecham horários de vistoria.")
    if slot.closed:
        raise ValidationError("Este horário já está fechado.")
    return update_audited(
        actor=actor,
        instance=slot,
        changes={"closed": True},
        reason=reason or "Horário fechado a novos agendamentos.",
        action="inspection_slot.closed",
    )
