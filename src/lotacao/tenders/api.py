"""The tenders API, mounted by lotacao.api.main at /tenders.

- `GET /tenders/calls`, `GET /tenders/calls/{id}`: the agency's calls, a call with its ranking;
- `POST /tenders/calls/{id}/applications`: an application inside the window (201);
- `POST /tenders/calls/{id}/actions`: one transition of the state table (open, close, rank,
  record_seed, draw, publish, open_appeals, award, cancel);
- `GET /tenders/public`: the published rankings, abridged names and no CPF (no sign-in).
A refusal is a 422 problem in Portuguese and changes nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.registry.models import Company, Holder, Vehicle
from lotacao.tenders import selectors, services, states
from lotacao.tenders.models import Call

router = Router(tags=["editais e selecao"])


class CallOut(Schema):
    id: int
    jurisdiction: str
    number: str
    subject: str
    line: str
    places: int
    opens_on: dt.date
    closes_on: dt.date
    status: str
    status_label: str
    criteria: list[str]
    citations: list[str]
    ties: list[list[int]]
    draw_seed: str
    draw_seed_published_in: str
    draw_result: list[dict[str, Any]]
    appeals_from: dt.date | None
    appeals_until: dt.date | None
    awarded_on: dt.date | None


class RankingRow(Schema):
    number: int
    position: int | None
    name: str
    status: str
    facts: list[str]
    draw_order: int | None


class CallDetailOut(CallOut):
    ranking: list[RankingRow]


class TenderApplicationIn(Schema):
    holder_id: int
    vehicle_id: int
    association_id: int | None = None
    reason: str = "Inscrição registrada pela API"


class ApplicationOut(Schema):
    id: int
    call_id: int
    number: int
    holder_id: int
    vehicle_id: int
    filed_on: dt.date
    status: str


class ActionIn(Schema):
    action: Literal[
        "open", "close", "rank", "record_seed", "draw", "publish", "open_appeals", "award", "cancel"
    ]
    reason: str
    seed: str = ""
    published_in: str = ""
    appeals_from: dt.date | None = None
    appeals_until: dt.date | None = None


class PublicCallOut(Schema):
    jurisdiction: str
    number: str
    subject: str
    line: str
    places: int
    status: str
    published_on: dt.date | None
    appeals_from: dt.date | None
    appeals_until: dt.date | None
    awarded_on: dt.date | None
    criteria: list[str]
    citations: list[str]
    seed: str
    seed_published_in: str
    draw: list[dict[str, Any]]
    ranking: list[RankingRow]


def _out(call: Call) -> dict[str, Any]:
    return {
        "id": call.pk,
        "jurisdiction": call.jurisdiction_id,
        "number": call.number,
        "subject": call.subject,
        "line": call.line.code,
        "places": call.places,
        "opens_on": call.opens_on,
        "closes_on": call.closes_on,
        "status": call.status,
        "status_label": call.get_status_display(),
        "criteria": selectors.criteria_words(call),
        "citations": list(call.criteria_citations),
        "ties": list(call.ties),
        "draw_seed": call.draw_seed,
        "draw_seed_published_in": call.draw_seed_published_in,
        "draw_result": list(call.draw_result),
        "appeals_from": call.appeals_from,
        "appeals_until": call.appeals_until,
        "awarded_on": call.awarded_on,
    }


def _may(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    access = getattr(request, "access", None)
    if access is None or not (access.operator or access.has_role(code, *roles)):
        raise HttpError(403, "Seu perfil não permite esta ação nos editais desta jurisdição.")


@router.get("/calls", response=list[CallOut], operation_id="tenders_list_calls")
def list_calls(request: HttpRequest) -> list[dict[str, Any]]:
    return [_out(c) for c in Call.objects.select_related("line")[:200]]


@router.get("/calls/{call_id}", response=CallDetailOut, operation_id="tenders_get_call")
def get_call(request: HttpRequest, call_id: int) -> dict[str, Any]:
    call = get_object_or_404(Call.objects.select_related("line"), pk=call_id)
    rows = [{k: r[k] for k in RankingRow.model_fields} for r in selectors.ranking(call)]
    return {**_out(call), "ranking": rows}


@router.post(
    "/calls/{call_id}/applications", response={201: ApplicationOut}, operation_id="tenders_file_application"
)
def file_application(request: HttpRequest, call_id: int, payload: TenderApplicationIn) -> Any:
    call = get_object_or_404(Call.objects.select_related("line"), pk=call_id)
    _may(request, call.jurisdiction_id, states.CLERKS)
    holder = Holder.objects.filter(pk=payload.holder_id, jurisdiction_id=call.jurisdiction_id).first()
    vehicle = Vehicle.objects.filter(pk=payload.vehicle_id, jurisdiction_id=call.jurisdiction_id).first()
    if holder is None or vehicle is None:
        raise ValidationError("Permissionário ou veículo sem cadastro nesta jurisdição.")
    association = None
    if payload.association_id is not None:
        association = Company.objects.filter(
            pk=payload.association_id, jurisdiction_id=call.jurisdiction_id
        ).first()
        if association is None:
            raise ValidationError("Associação sem cadastro nesta jurisdição.")
    application = services.file_application(
        actor=request.user,
        call=call,
        holder=holder,
        vehicle=vehicle,
        association=association,
        reason=payload.reason,
    )
    return Status(
        201,
        ApplicationOut(
            id=application.pk,
            call_id=call.pk,
            number=application.number,
            holder_id=holder.pk,
            vehicle_id=vehicle.pk,
            filed_on=application.filed_on,
            status=application.status,
        ),
    )


@router.post("/calls/{call_id}/actions", response=CallOut, operation_id="tenders_take_action")
def take_action(request: HttpRequest, call_id: int, payload: ActionIn) -> dict[str, Any]:
    call = get_object_or_404(Call.objects.select_related("line"), pk=call_id)
    _may(request, call.jurisdiction_id, states.BY_NAME[payload.action].roles)
    user, reason = request.user, payload.reason
    if payload.action == "open":
        services.open_call(actor=user, call=call, reason=reason)
    elif payload.action == "close":
        services.close_call(actor=user, call=call, reason=reason)
    elif payload.action == "rank":
        services.rank_call(actor=user, call=call, reason=reason)
    elif payload.action == "record_seed":
        services.record_seed(
            actor=user, call=call, seed=payload.seed, published_in=payload.published_in, reason=reason
        )
    elif payload.action == "draw":
        services.draw_ties(actor=user, call=call, reason=reason)
    elif payload.action == "publish":
        if payload.appeals_from is None or payload.appeals_until is None:
            raise ValidationError("Informe o início e o fim do prazo de recurso.")
        services.publish_ranking(
            actor=user,
            call=call,
            appeals_from=payload.appeals_from,
            appeals_until=payload.appeals_until,
            reason=reason,
        )
    elif payload.action == "open_appeals":
        services.open_appeals(actor=user, call=call, reason=reason)
    elif payload.action == "award":
        services.award_call(actor=user, call=call, reason=reason)
    else:
        services.cancel_call(actor=user, call=call, reason=reason)
    return _out(Call.objects.select_related("line").get(pk=call.pk))


@router.get("/public", response=list[PublicCallOut], auth=None, operation_id="tenders_public_rankings")
def public_rankings(request: HttpRequest, jurisdiction: str = "") -> list[dict[str, Any]]:
    calls = selectors.public_calls(jurisdiction[:30])
    return [
        {**{k: c[k] for k in PublicCallOut.model_fields if k != "ranking"}, "ranking": c["ranking"]}
        for c in calls
    ]
