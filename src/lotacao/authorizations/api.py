"""The authorizations API, mounted by lotacao.api.main at /service-authorizations (staff of the
jurisdiction): the táxi, escolar and fretado authorizations (Esteio arts. 12 to 17 and 52).

- `GET /service-authorizations`, `GET /service-authorizations/{id}`: the register, each with its
  conditions (the taxi's fare, no fare at boarding, the doors);
- `POST /service-authorizations`: a request (refused where the agency did not turn the kind on);
- `POST /service-authorizations/{id}/grant`: the grant by the agency's act;
- `POST /service-authorizations/{id}/decision`: refuse, suspend, reinstate, revoke or withdraw.
Where the jurisdiction has no kind turned on, the list answers 404 with the reason. Refusals are
422 problem details in Portuguese; a row outside the scope is a 404.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.authorizations import permissions, rules, services
from lotacao.authorizations.models import Authorization
from lotacao.authorizations.selectors import conditions
from lotacao.registry.models import Company, Person, Vehicle

router = Router(tags=["autorizacoes de servico"])


class ServiceAuthorizationOut(Schema):
    id: int
    number: str
    kind: str
    kind_label: str
    status: str
    status_label: str
    holder: str
    vehicle_plate: str
    requested_on: dt.date
    act: str
    starts_on: dt.date | None
    valid_until: dt.date | None
    validity_citation: str
    conditions: list[str]


class ServiceAuthorizationIn(Schema):
    kind: Literal["taxi_common", "taxi_special", "school", "chartered"]
    vehicle_id: int
    person_id: int | None = None
    company_id: int | None = None
    requested_on: dt.date | None = None
    vehicle_acquired_on: dt.date | None = None
    replaces_id: int | None = None


class ServiceAuthorizationGrantIn(Schema):
    number: str
    act: str
    starts_on: dt.date


class ServiceAuthorizationDecisionIn(Schema):
    decision: Literal["refuse", "suspend", "reinstate", "revoke", "withdraw"]
    reasons: str
    act: str = ""
    until: dt.date | None = None


def _roles(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    if not permissions.roles_in(getattr(request, "access", None), code) & set(roles):
        raise HttpError(403, "Seu perfil não permite esta ação.")


def _out(row: Authorization) -> ServiceAuthorizationOut:
    today = timezone.localdate()
    found = conditions(row)
    words: list[str] = []
    fare = found["fare"]
    if fare:
        words.append(f"Tarifa do táxi: {fare.get('words') or fare.get('missing')} ({fare['citation']}).")
    words.extend(w for w in (found["boarding"], found["doors"]) if w)
    return ServiceAuthorizationOut(
        id=row.pk,
        number=row.number,
        kind=row.kind,
        kind_label=row.get_kind_display(),
        status=row.effective_status(today),
        status_label=row.effective_status_label(today),
        holder=row.holder_name,
        vehicle_plate=row.vehicle.plate,
        requested_on=row.requested_on,
        act=row.act,
        starts_on=row.starts_on,
        valid_until=row.valid_until,
        validity_citation=row.validity_citation,
        conditions=words,
    )


@router.get("/service-authorizations", response=list[ServiceAuthorizationOut])
def list_authorizations(request: HttpRequest) -> list[ServiceAuthorizationOut]:
    codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.VIEW_ROLES)
    today = timezone.localdate()
    applies = [c for c in codes if rules.applies(c, today)]
    if not applies:
        raise HttpError(404, rules.off_message(codes[0], today) if codes else "Não encontrado.")
    rows = Authorization.objects.filter(jurisdiction_id__in=applies).select_related(
        "person", "company", "vehicle"
    )
    return [_out(r) for r in rows[:300]]


@router.get("/service-authorizations/{authorization_id}", response=ServiceAuthorizationOut)
def get_authorization(request: HttpRequest, authorization_id: int) -> ServiceAuthorizationOut:
    row = get_object_or_404(
        Authorization.objects.select_related("person", "company", "vehicle"), pk=authorization_id
    )
    return _out(row)


@router.post("/service-authorizations", response={201: ServiceAuthorizationOut})
def request_authorization(
    request: HttpRequest, payload: ServiceAuthorizationIn
) -> tuple[int, ServiceAuthorizationOut]:
    vehicle = get_object_or_404(Vehicle.objects.all(), pk=payload.vehicle_id)
    code = vehicle.jurisdiction_id
    _roles(request, code, permissions.RECORD_ROLES)
    if not rules.applies(code, timezone.localdate()):
        raise HttpError(409, rules.off_message(code, timezone.localdate()))
    person = Person.objects.filter(pk=payload.person_id).first() if payload.person_id else None
    company = Company.objects.filter(pk=payload.company_id).first() if payload.company_id else None
    replaces = Authorization.objects.filter(pk=payload.replaces_id).first() if payload.replaces_id else None
    row = services.request_authorization(
        actor=request.user,
        jurisdiction_code=code,
        kind=payload.kind,
        vehicle=vehicle,
        person=person,
        company=company,
        requested_on=payload.requested_on,
        vehicle_acquired_on=payload.vehicle_acquired_on,
        replaces=replaces,
    )
    return Status(201, _out(row))  # type: ignore[return-value]


@router.post("/service-authorizations/{authorization_id}/grant", response=ServiceAuthorizationOut)
def grant_authorization(
    request: HttpRequest, authorization_id: int, payload: ServiceAuthorizationGrantIn
) -> ServiceAuthorizationOut:
    row = get_object_or_404(Authorization.objects.all(), pk=authorization_id)
    _roles(request, row.jurisdiction_id, permissions.DECIDE_ROLES)
    services.grant(
        actor=request.user,
        authorization=row,
        number=payload.number,
        act=payload.act,
        starts_on=payload.starts_on,
    )
    return _out(Authorization.objects.select_related("person", "company", "vehicle").get(pk=row.pk))


@router.post("/service-authorizations/{authorization_id}/decision", response=ServiceAuthorizationOut)
def decide_authorization(
    request: HttpRequest, authorization_id: int, payload: ServiceAuthorizationDecisionIn
) -> ServiceAuthorizationOut:
    row = get_object_or_404(Authorization.objects.all(), pk=authorization_id)
    roles = permissions.RECORD_ROLES if payload.decision == "withdraw" else permissions.DECIDE_ROLES
    _roles(request, row.jurisdiction_id, roles)
    if payload.decision == "refuse":
        services.refuse(actor=request.user, authorization=row, reasons=payload.reasons, act=payload.act)
    elif payload.decision == "suspend":
        services.suspend(
            actor=request.user,
            authorization=row,
            act=payload.act,
            reasons=payload.reasons,
            until=payload.until,
        )
    elif payload.decision == "reinstate":
        services.reinstate(actor=request.user, authorization=row, reasons=payload.reasons)
    elif payload.decision == "revoke":
        services.revoke(actor=request.user, authorization=row, act=payload.act, reasons=payload.reasons)
    else:
        services.withdraw(actor=request.user, authorization=row, reasons=payload.reasons)
    return _out(Authorization.objects.select_related("person", "company", "vehicle").get(pk=row.pk))
