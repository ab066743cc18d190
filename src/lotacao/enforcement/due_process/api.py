"""REST endpoints of the due process (mounted at /api/due-process): where a notice stands (the
instance open for filing and its deadline, filings, decisions), filing a defense or appeal (the
holder for their own notices, a clerk at the counter) and recording that a decision was
communicated. Same scoping and roles as the screens."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Router, Schema
from ninja.errors import HttpError

from lotacao.enforcement import permissions
from lotacao.enforcement.due_process import decisions, filings
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import Decision, Filing, InfractionNotice

router = Router(tags=["defesa e recursos"])


def _date(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None


def filing_data(filing: Filing) -> dict[str, Any]:
    return {
        "id": filing.pk,
        "receipt": filing.receipt,
        "instance": filing.instance,
        "instance_name": filing.instance_name,
        "body": filing.body.name if filing.body else None,
        "filed_at": filing.filed_at.isoformat(),
        "channel": filing.channel,
        "due_on": _date(filing.due_on),
        "late": filing.late,
        "due_explanation": filing.due_explanation,
        "citations": filing.citations,
        "status": filing.status,
    }


def decision_data(decision: Decision) -> dict[str, Any]:
    return {
        "id": decision.pk,
        "instance": decision.instance,
        "outcome": decision.outcome,
        "outcome_label": decision.get_outcome_display(),
        "decided_on": _date(decision.decided_on),
        "reasons": decision.reasons,
        "penalty": decision.penalty,
        "citations": decision.citations,
        "notify_due": _date(decision.notify_due),
        "served_on": _date(decision.served_on),
        "final": decision.final,
        "final_on": _date(decision.final_on),
    }


def process_data(notice: InfractionNotice) -> dict[str, Any]:
    stage = current_stage(notice, timezone.localdate())
    return {
        "notice": notice.number,
        "status": notice.status,
        "open_instance": (
            None
            if stage.instance is None or stage.blocked
            else {
                "id": stage.instance["id"],
                "name": stage.instance["name"],
                "due": _date(stage.due),
                "explanation": stage.explanation,
                "citations": stage.citations,
                "missing_parameters": stage.missing,
            }
        ),
        "blocked": stage.blocked,
        "filings": [filing_data(f) for f in notice.filings.select_related("body")],
        "decisions": [decision_data(d) for d in notice.decisions.order_by("decided_on", "id")],
    }


@router.get("/notices/{int:notice_id}", summary="Situação do processo de um auto")
def notice_process(request: HttpRequest, notice_id: int) -> HttpResponse:
    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    return JsonResponse(process_data(notice))


class FilingIn(Schema):
    text: str


@router.post("/notices/{int:notice_id}/filings", summary="Protocolar defesa ou recurso")
def file(request: HttpRequest, notice_id: int, payload: FilingIn) -> HttpResponse:
    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    access = getattr(request, "access", None)
    if access is not None and access.holder_id and access.holder_id == notice.holder_id:
        channel, reason = Filing.Channel.PORTAL, "Protocolo pelo portal do permissionário (API)"
    elif permissions.allowed(access, notice.jurisdiction_id, permissions.FILING_ROLES):
        channel, reason = Filing.Channel.COUNTER, "Protocolo no órgão (API)"
    else:
        raise HttpError(403, "Seu perfil não permite protocolar defesa neste auto.")
    filing = filings.file_defense(
        actor=request.user, notice=notice, text=payload.text, channel=channel, reason=reason
    )
    return JsonResponse(filing_data(filing), status=201)


class ServiceIn(Schema):
    served_on: dt.date


@router.post("/decisions/{int:decision_id}/service", summary="Registrar a comunicação de uma decisão")
def serve(request: HttpRequest, decision_id: int, payload: ServiceIn) -> HttpResponse:
    decision = get_object_or_404(Decision.objects.all(), pk=decision_id)
    if not permissions.allowed(
        getattr(request, "access", None),
        decision.jurisdiction_id,
        permissions.FILING_ROLES + permissions.JUDGING_ROLES,
    ):
        raise HttpError(403, "Seu perfil não permite registrar a comunicação.")
    decision = decisions.record_decision_service(
        actor=request.user, decision=decision, served_on=payload.served_on
    )
    return JsonResponse(decision_data(decision))


class NotificationIn(Schema):
    method: str
    sent_on: dt.date | None = None
    received_on: dt.date | None = None
    published_on: dt.date | None = None
    returned: bool = False
    returned_reason: str = ""
    returned_note: str = ""
    address: str = ""
    reason: str = "Notificação registrada pela API"


@router.post(
    "/notices/{int:notice_id}/notifications", summary="Registrar o envio ou a notificação de um auto"
)
def notify(request: HttpRequest, notice_id: int, payload: NotificationIn) -> HttpResponse:
    """A letter sent (awaiting its AR), or the notification done (by hand, AR, returned letter,
    edital): the date it counts as served comes from the law."""
    from lotacao.enforcement.notices.notification import record_notification

    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    if not permissions.allowed(
        getattr(request, "access", None), notice.jurisdiction_id, permissions.FILING_ROLES
    ):
        raise HttpError(403, "Seu perfil não permite registrar notificações.")
    service = record_notification(actor=request.user, notice=notice, **payload.dict())
    notice.refresh_from_db()
    return JsonResponse(
        {
            "id": service.pk,
            "method": service.method,
            "sent_on": _date(service.sent_on),
            "served_on": _date(service.served_on),
            "explanation": service.explanation,
            "citations": service.citations,
            "notice_status": notice.status,
        },
        status=201,
    )
