"""The portal's API (mounted at the API root, so each path is whole):

- GET /portal/summary   the signed-in holder's (or company's) summary: what they owe (every open
  debt, fines included, amounts in R$ or why there is none yet, and a slip only where it can be
  paid with PIX), what they must do and by when (each deadline with its article), and their
  permits, vehicles and notices. Staff and anonymous callers get a problem-details refusal.
"""

from __future__ import annotations

import datetime as dt

from django.http import HttpRequest
from django.utils import timezone
from ninja import Router, Schema
from ninja.errors import HttpError

from lotacao.portal.selectors import summary
from lotacao.registry.models import Holder

router = Router(tags=["portal"])


class PortalChargeDue(Schema):
    description: str
    kind: str
    amount: str | None  # R$ with two decimals; None: the value in R$ is not published yet (see note)
    due_on: dt.date | None
    status: str
    overdue: bool
    slip_code: str
    slip_url: str | None  # None: no slip can be paid now (see note)
    note: str


class PortalDeadline(Schema):
    what: str
    due: dt.date | None
    citation: str
    late: bool
    url: str


class PortalPermit(Schema):
    number: str
    status: str
    valid_until: dt.date | None
    line: str


class PortalVehicle(Schema):
    plate: str
    category: str
    manufacture_year: int


class PortalNotice(Schema):
    number: str
    status: str
    next_step: str


class PortalRequest(Schema):
    what: str
    protocol: str
    filed_on: dt.date
    status: str
    next_step: str


class PortalSummary(Schema):
    holder: str
    jurisdiction: str
    regime: str  # "permits" or "chartering"
    total_due: str  # the sum of the debts with an amount in R$
    charges_due: list[PortalChargeDue]
    deadlines: list[PortalDeadline]
    permits: list[PortalPermit]
    vehicles: list[PortalVehicle]
    notices: list[PortalNotice]
    requests: list[PortalRequest]


@router.get("/portal/summary", response=PortalSummary)
def portal_summary(request: HttpRequest) -> PortalSummary:
    access = getattr(request, "access", None)
    if access is None or not access.is_holder:
        raise HttpError(403, "Este resumo é do permissionário ou da empresa: entre com a conta do titular.")
    holder = Holder.objects.select_related("person", "company").get(pk=access.holder_id)
    data = summary(holder, timezone.localdate())
    return PortalSummary(
        holder=str(holder),
        jurisdiction=data.jurisdiction.name,
        regime="chartering" if data.chartering else "permits",
        total_due=f"{data.payable_total:.2f}",
        charges_due=[
            PortalChargeDue(
                description=d.description,
                kind=d.kind,
                amount=f"{d.amount:.2f}" if d.amount is not None else None,
                due_on=d.due_on,
                status=d.status,
                overdue=d.overdue,
                slip_code=d.code,
                slip_url=request.build_absolute_uri(d.slip_url) if d.slip_url else None,
                note=d.note,
            )
            for d in data.debts
        ],
        deadlines=[
            PortalDeadline(what=d.what, due=d.due, citation=d.citation, late=d.late, url=d.url)
            for d in data.deadlines
        ],
        permits=[
            PortalPermit(
                number=p.number,
                status=p.get_status_display(),
                valid_until=p.valid_until,
                line=p.line.code if p.line else "",
            )
            for p in data.permits
        ],
        vehicles=[
            PortalVehicle(
                plate=v.plate_display, category=v.get_category_display(), manufacture_year=v.manufacture_year
            )
            for v in data.vehicles
        ],
        notices=[
            PortalNotice(number=row["notice"].number, status=row["status"], next_step=row["next"] or "")
            for row in data.notices
        ],
        requests=[
            PortalRequest(
                what=r["what"],
                protocol=r["protocol"],
                filed_on=r["filed_on"],
                status=r["status"],
                next_step=r["next_step"],
            )
            for r in data.requests
        ],
    )
