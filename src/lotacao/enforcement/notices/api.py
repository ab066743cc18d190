"""REST endpoints of enforcement (mounted at /api/infraction-notices): drawing up an infraction
notice with an `Idempotency-Key` header, so a phone with a bad connection can retry safely, and
reading one. Same scoping and roles as the screens (fiscal, atendente, gestor of the jurisdiction)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Router, Schema
from ninja.errors import HttpError
from ninja.params.functions import Header as header_param

from lotacao.core.idempotency import run_once
from lotacao.core.models import Jurisdiction
from lotacao.core.problems import refusal_body, refused
from lotacao.enforcement import permissions
from lotacao.enforcement.models import InfractionNotice
from lotacao.enforcement.notices import intake, selectors, services
from lotacao.enforcement.reading import local_day

router = Router(tags=["fiscalizacao"])

ENDPOINT = "infraction-notices.create"


class NoticeIn(Schema):
    jurisdiction: str
    drawn_up_at: dt.datetime
    offender_kind: str
    infraction_code: str = ""
    infraction_group: str = ""
    place: str = ""
    description: str = ""
    permit_id: int | None = None
    holder_id: int | None = None
    agent_id: int | None = None
    vehicle_id: int | None = None
    line_id: int | None = None
    plate: str = ""
    # The phone's notice kept without signal: find vehicle, permit, holder and line by the plate
    # (as the form does) for the links not given by id.
    link_by_plate: bool = False
    offender_name: str = ""
    offender_document: str = ""
    evidence_image: str = ""
    evidence_latitude: Decimal | None = None
    evidence_longitude: Decimal | None = None
    reason: str = "Auto de infração lavrado pela API"


class NoticeOut(Schema):
    """An infraction notice (lotacao.enforcement.notices.selectors.notice_data); in a preview,
    nothing is written: `id` is null."""

    id: int | None
    number: str
    jurisdiction: str
    status: str
    drawn_up_at: dt.datetime  # in the jurisdiction's time zone
    place: str
    infraction_code: str
    infraction_group: str
    offender_kind: str
    permit_id: int | None
    holder_id: int | None
    agent_id: int | None
    vehicle_id: int | None
    line_id: int | None
    plate: str
    penalty: dict[str, Any]  # what the law gives: penalties and measures, each with its citation
    group: str | None
    repeat: Any
    points: Any
    citations: list[str]
    explanation: str
    law: str
    missing_parameters: list[Any]
    charged_to_holder: bool


def plate_links(jurisdiction: Jurisdiction, data: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The links the plate gives on the infraction's day (the form's rule, `intake.links_from_plate`)."""
    moment = data["drawn_up_at"]
    if timezone.is_naive(moment):
        raise ValidationError("Informe a data e a hora da infração com fuso horário.")
    found = intake.links_from_plate(
        jurisdiction,
        {
            "plate": data.get("plate", ""),
            "offender_kind": data["offender_kind"],
            "offender_document": data.get("offender_document", ""),
            "line": given.get("line"),
        },
        local_day(jurisdiction, moment),
    )
    found.pop("plate", None)
    return found


def draw_up_from(
    request: HttpRequest, jurisdiction: Jurisdiction, data: dict[str, Any]
) -> tuple[int, dict[str, object]]:
    """Run the service for validated input: (201, notice) or (422, the law's refusals)."""
    try:
        links = intake.links_from_ids(
            jurisdiction,
            permit_id=data.get("permit_id"),
            holder_id=data.get("holder_id"),
            agent_id=data.get("agent_id"),
            vehicle_id=data.get("vehicle_id"),
            line_id=data.get("line_id"),
        )
        if data.get("link_by_plate"):
            links = {**plate_links(jurisdiction, data, links), **links}
        notice = services.draw_up_notice(
            actor=request.user,
            jurisdiction=jurisdiction,
            inspector=request.user,
            drawn_up_at=data["drawn_up_at"],
            offender_kind=data["offender_kind"],
            infraction_code=data.get("infraction_code", ""),
            infraction_group=data.get("infraction_group", ""),
            place=data.get("place", ""),
            description=data.get("description", ""),
            plate=data.get("plate", ""),
            offender_name=data.get("offender_name", ""),
            offender_document=data.get("offender_document", ""),
            evidence_image=data.get("evidence_image", ""),
            evidence_latitude=data.get("evidence_latitude"),
            evidence_longitude=data.get("evidence_longitude"),
            reason=data.get("reason") or "Auto de infração lavrado",
            **links,
        )
    except ValidationError as error:
        return 422, refusal_body(error.messages)
    return 201, selectors.notice_data(notice)


def _as_text(result: tuple[int, dict[str, object]]) -> tuple[int, str]:
    status, body = result
    return status, json.dumps(body, cls=DjangoJSONEncoder, ensure_ascii=False)


def idempotent_draw_up(
    request: HttpRequest, key: str, jurisdiction: Jurisdiction, payload: dict[str, Any], data: dict[str, Any]
) -> tuple[int, str]:
    return run_once(
        user=request.user,
        key=key,
        endpoint=ENDPOINT,
        payload=payload,
        jurisdiction_id=jurisdiction.pk,
        work=lambda: _as_text(draw_up_from(request, jurisdiction, data)),
    )


IDEMPOTENCY_KEY = header_param(
    None,
    alias="Idempotency-Key",
    description=(
        "Obrigatório (até 200 caracteres; sem ele, 400). Uma nova chave por auto: repetir a chave com o "
        "mesmo conteúdo devolve a primeira resposta; com outro conteúdo, 422; enquanto a primeira "
        "requisição ainda roda, 409."
    ),
)


@router.post("", response={201: NoticeOut}, summary="Lavrar auto de infração (idempotente)")
def create_notice(
    request: HttpRequest, payload: NoticeIn, idempotency_key: str | None = IDEMPOTENCY_KEY
) -> HttpResponse:
    """Requires the header `Idempotency-Key`: a retry with the same key and payload replays the
    first response; the same key with another payload is refused (422); while the first request
    is still running, a retry gets 409 (a key left by a request that died is taken over after
    `LOTACAO_IDEMPOTENCY_TAKEOVER_SECONDS`)."""
    key = (idempotency_key or "").strip()
    if not key or len(key) > 200:
        raise HttpError(400, "Informe o cabeçalho Idempotency-Key (até 200 caracteres).")
    jurisdiction = Jurisdiction.objects.filter(code=payload.jurisdiction).first()
    if jurisdiction is None or not permissions.allowed(
        getattr(request, "access", None), payload.jurisdiction, permissions.NOTICE_ROLES
    ):
        raise HttpError(403, "Seu perfil não permite lavrar autos nesta jurisdição.")
    data = payload.dict()
    status, body = idempotent_draw_up(request, key, jurisdiction, payload.model_dump(mode="json"), data)
    media = "application/problem+json" if status >= 400 else "application/json"
    return HttpResponse(body, status=status, content_type=media)


@router.get("/{int:notice_id}", response=NoticeOut, summary="Auto de infração")
def get_notice(request: HttpRequest, notice_id: int) -> HttpResponse:
    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    return JsonResponse(selectors.notice_data(notice))


@router.post("/preview", response=NoticeOut, summary="Calcular a penalidade de um auto, sem lavrar")
def preview_notice(request: HttpRequest, payload: NoticeIn) -> HttpResponse:
    """What the law gives for this notice now (the clerk sees it before confirming); writes nothing."""
    jurisdiction = Jurisdiction.objects.filter(code=payload.jurisdiction).first()
    if jurisdiction is None or not permissions.allowed(
        getattr(request, "access", None), payload.jurisdiction, permissions.NOTICE_ROLES
    ):
        raise HttpError(403, "Seu perfil não permite lavrar autos nesta jurisdição.")
    data = payload.dict()
    try:
        links = intake.links_from_ids(
            jurisdiction,
            permit_id=data.pop("permit_id"),
            holder_id=data.pop("holder_id"),
            agent_id=data.pop("agent_id"),
            vehicle_id=data.pop("vehicle_id"),
            line_id=data.pop("line_id"),
        )
        if data.pop("link_by_plate"):
            links = {**plate_links(jurisdiction, data, links), **links}
        data.pop("jurisdiction")
        data.pop("reason")
        notice = services.prepare_notice(jurisdiction=jurisdiction, inspector=request.user, **data, **links)
    except ValidationError as error:
        return refused(error.messages)
    return JsonResponse(selectors.notice_data(notice))


class OverrideIn(Schema):
    penalties: list[dict[str, Any]]
    measures: list[dict[str, Any]] = []
    reason: str


@router.post(
    "/{int:notice_id}/penalty",
    response=NoticeOut,
    summary="Alterar a penalidade calculada (com motivo, auditado)",
)
def override(request: HttpRequest, notice_id: int, payload: OverrideIn) -> HttpResponse:
    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    if not permissions.allowed(
        getattr(request, "access", None), notice.jurisdiction_id, permissions.OVERRIDE_ROLES
    ):
        raise HttpError(403, "Seu perfil não permite alterar a penalidade.")
    notice = services.override_penalty(
        actor=request.user,
        notice=notice,
        penalty={"penalties": payload.penalties, "measures": payload.measures},
        reason=payload.reason,
    )
    return JsonResponse(selectors.notice_data(notice))
