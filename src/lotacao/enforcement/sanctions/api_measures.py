"""REST endpoints of administrative measures (mounted at /api): apply a measure on a notice, mark
a release condition met, release. Same scoping and roles as the screens (fiscal, atendente,
gestor of the notice's jurisdiction); a row outside the scope is a 404, a refusal of the law a
422 with the Portuguese message (lotacao.api.main turns ValidationError into 422)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from ninja import Router, Schema
from ninja.errors import HttpError

from lotacao.enforcement import permissions
from lotacao.enforcement.models import InfractionNotice, Measure
from lotacao.enforcement.sanctions import measures

router = Router(tags=["fiscalizacao"])


def _may_act(request: HttpRequest, jurisdiction: str) -> None:
    if not permissions.allowed(getattr(request, "access", None), jurisdiction, permissions.NOTICE_ROLES):
        raise HttpError(403, "Seu perfil não permite registrar medidas administrativas nesta jurisdição.")


def _measure(request: HttpRequest, measure_id: int) -> Measure:
    measure: Measure = get_object_or_404(Measure.objects.select_related("notice"), pk=measure_id)
    _may_act(request, measure.jurisdiction_id)
    return measure


class MeasureIn(Schema):
    kind: str
    applied_at: dt.datetime
    detail: str = ""
    days: int | None = None
    reason: str


class ConditionIn(Schema):
    met_on: dt.date
    note: str = ""
    reason: str


class ReleaseIn(Schema):
    released_on: dt.date
    note: str = ""
    reason: str


class MeasureOut(Schema):
    """A measure (lotacao.enforcement.sanctions.measures.measure_data)."""

    id: int
    notice_id: int
    jurisdiction: str
    kind: str
    kind_label: str
    status: str
    applied_at: dt.datetime
    detail: str
    days: int | None
    conditions: list[dict[str, Any]]  # the law's release conditions, each with `id` and whether met
    unmet: list[str]  # ids of the conditions not met yet
    citations: list[str]
    missing_parameters: list[Any]
    released_on: dt.date | None
    release_note: str


def _created(measure: Measure) -> HttpResponse:
    return JsonResponse(measures.measure_data(measure), status=201)


@router.post(
    "/infraction-notices/{int:notice_id}/measures",
    response={201: MeasureOut},
    summary="Aplicar medida administrativa no auto",
)
def apply(request: HttpRequest, notice_id: int, payload: MeasureIn) -> HttpResponse:
    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    _may_act(request, notice.jurisdiction_id)
    measure = measures.apply_measure(
        actor=request.user,
        notice=notice,
        kind=payload.kind,
        applied_at=payload.applied_at,
        detail=payload.detail,
        days=payload.days,
        reason=payload.reason,
    )
    return _created(measure)


@router.post(
    "/measures/{int:measure_id}/conditions/{condition}",
    response=MeasureOut,
    summary="Registrar condição de liberação cumprida",
)
def meet(request: HttpRequest, measure_id: int, condition: str, payload: ConditionIn) -> HttpResponse:
    measure = measures.meet_condition(
        actor=request.user,
        measure=_measure(request, measure_id),
        condition_id=condition,
        met_on=payload.met_on,
        note=payload.note,
        reason=payload.reason,
    )
    return JsonResponse(measures.measure_data(measure))


@router.post(
    "/measures/{int:measure_id}/release", response=MeasureOut, summary="Liberar a medida administrativa"
)
def release(request: HttpRequest, measure_id: int, payload: ReleaseIn) -> HttpResponse:
    measure = measures.release_measure(
        actor=request.user,
        measure=_measure(request, measure_id),
        released_on=payload.released_on,
        note=payload.note,
        reason=payload.reason,
    )
    return JsonResponse(measures.measure_data(measure))
