"""REST endpoints of billing (mounted at /api/billing): same scope and roles as the screens.

- GET  /charges?holder=&open=       charges in scope (a holder: their own)
- GET  /charges/{id}                one charge, with its slip code and the PIX code when available
- GET  /holders/{id}/clearance?procedure=   the clearance: which charge blocks and how to pay
- POST /declarations                a month's demand (a holder: their own; staff: any holder)
- GET  /runs/preview?jurisdiction=&period=AAAA-MM   what the month's run would create or refuse
- POST /pix-webhook/{jurisdiction}/pix   the bank's Pix notification (a `pix_webhook` token)
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Field, Router, Schema
from ninja.errors import HttpError
from ninja.security import HttpBearer

from lotacao.accounts.tokens import scoped_token
from lotacao.billing import permissions
from lotacao.billing.clearance.selectors import PROCEDURES, clearance
from lotacao.billing.ledger.models import Charge
from lotacao.billing.payments import slips
from lotacao.billing.payments.reconcile import receive_pix
from lotacao.billing.runs import services as runs
from lotacao.billing.runs.declarations import declare_demand, parse_month
from lotacao.billing.runs.models import DemandDeclaration
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Holder, Line

router = Router(tags=["cobrancas"])


class ChargeOut(Schema):
    id: int
    jurisdiction: str
    holder_id: int
    kind: str
    fee: str
    description: str
    competence: dt.date | None
    amount: str
    due_on: dt.date
    paid_on: dt.date | None
    cancelled: bool
    contested: bool
    status: str
    citation: str
    fund: str
    slip_code: str
    pix: str | None = None


class ClearanceOut(Schema):
    clear: bool
    reasons: list[str]
    citations: list[str]
    blocking: list[int]
    total: str


class DeclarationIn(Schema):
    holder_id: int | None = None
    line_id: int
    month: str
    full_passengers: int
    reduced_passengers: int = 0
    free_passengers: int = 0
    km: str = "0"
    revenue: str | None = None
    reason: str = "Declaração pela API"


class DeclarationOut(Schema):
    id: int
    holder_id: int
    line_id: int
    month: dt.date
    full_passengers: int
    source: str


class PlanOut(Schema):
    period: dt.date
    charges: list[dict[str, object]]
    refusals: list[str]
    notes: list[str]


def _out(charge: Charge, with_pix: bool = False) -> ChargeOut:
    today = timezone.localdate()
    pix = slips.charge_slip(charge, today).pix_code or None if with_pix else None
    return ChargeOut(
        id=charge.pk,
        jurisdiction=charge.jurisdiction_id,
        holder_id=charge.holder_id,
        kind=charge.kind,
        fee=charge.fee,
        description=charge.description,
        competence=charge.competence,
        amount=str(charge.amount),
        due_on=charge.due_on,
        paid_on=charge.paid_on,
        cancelled=charge.cancelled,
        contested=charge.contested,
        status=charge.status_label(today),
        citation=charge.citation,
        fund=charge.fund,
        slip_code=charge.slip_code,
        pix=pix,
    )


@router.get("/charges", response=list[ChargeOut])
def list_charges(request: HttpRequest, holder: int | None = None, open: bool = False) -> list[ChargeOut]:
    qs = Charge.objects.all().order_by("-due_on", "-id")
    if holder is not None:
        qs = qs.filter(holder_id=holder)
    if open:
        qs = qs.filter(cancelled=False, paid_on__isnull=True)
    return [_out(c) for c in qs[:500]]


@router.get("/charges/{charge_id}", response=ChargeOut)
def get_charge(request: HttpRequest, charge_id: int) -> ChargeOut:
    return _out(get_object_or_404(Charge.objects.all(), pk=charge_id), with_pix=True)


@router.get("/holders/{holder_id}/clearance", response=ClearanceOut)
def holder_clearance(request: HttpRequest, holder_id: int, procedure: str) -> ClearanceOut:
    holder = get_object_or_404(Holder.objects.all(), pk=holder_id)
    if procedure not in PROCEDURES:
        raise HttpError(422, f"Procedimento desconhecido: {procedure}.")
    verdict = clearance(holder=holder, on=timezone.localdate(), procedure=procedure)
    return ClearanceOut(
        clear=verdict.clear,
        reasons=verdict.reasons,
        citations=verdict.citations,
        blocking=[c.pk for c in verdict.blocking],
        total=str(verdict.total),
    )


@router.post("/declarations", response={201: DeclarationOut})
def post_declaration(request: HttpRequest, payload: DeclarationIn) -> tuple[int, DeclarationOut]:
    access = getattr(request, "access", None)
    holder_id = access.holder_id if access is not None and access.is_holder else payload.holder_id
    if holder_id is None:
        raise HttpError(422, "Informe o permissionário (holder_id).")
    holder = get_object_or_404(Holder.objects.all(), pk=holder_id)
    own = permissions.is_own_holder(access, holder.pk)
    if not own and not permissions.has(access, holder.jurisdiction_id, permissions.OFFICE):
        raise HttpError(403, "Seu perfil não permite lançar declarações.")
    line = get_object_or_404(Line.unscoped.filter(jurisdiction_id=holder.jurisdiction_id), pk=payload.line_id)
    decl = declare_demand(
        actor=request.user,
        holder=holder,
        line=line,
        month=parse_month(payload.month),
        full_passengers=payload.full_passengers,
        reduced_passengers=payload.reduced_passengers,
        free_passengers=payload.free_passengers,
        km=payload.km,
        revenue=payload.revenue,
        source=DemandDeclaration.Source.HOLDER if own else DemandDeclaration.Source.CLERK,
        reason=payload.reason,
        today=timezone.localdate(),
    )
    return 201, DeclarationOut(
        id=decl.pk,
        holder_id=decl.holder_id,
        line_id=decl.line_id,
        month=decl.month,
        full_passengers=decl.full_passengers,
        source=decl.source,
    )


@router.get("/runs/preview", response=PlanOut)
def preview_run(request: HttpRequest, jurisdiction: str, period: str) -> PlanOut:
    if not permissions.has(getattr(request, "access", None), jurisdiction, permissions.OFFICE):
        raise HttpError(403, "Seu perfil não permite simular o faturamento.")
    plan = runs.preview(jurisdiction, parse_month(period))
    return PlanOut(period=plan.period, charges=plan.lines, refusals=plan.refusals, notes=plan.notes)


# ----------------------------------------------------------------------------- Pix notifications


class PixWebhookToken(HttpBearer):
    """The agency's token for the bank's Pix notifications (scope `pix_webhook`, one jurisdiction).
    The TLS proxy checks the bank's client certificate first (docs/billing.md)."""

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        found = scoped_token(token, "pix_webhook")
        if found is None:
            return None
        request.pix_token = found  # type: ignore[attr-defined]
        return found


class PixIn(Schema):
    endToEndId: str = Field(max_length=40)
    txid: str | None = Field(default=None, max_length=40)
    valor: str = Field(max_length=20)
    horario: str = Field(max_length=40)
    chave: str | None = Field(default=None, max_length=100)
    infoPagador: str | None = Field(default=None, max_length=200)


class PixNotificationIn(Schema):
    pix: list[PixIn] = Field(max_length=1000)


class PixNotificationOut(Schema):
    received: int
    matched: int
    partial: int
    queued: int
    duplicates: int


@router.post(
    "/pix-webhook/{jurisdiction}/pix",
    response=PixNotificationOut,
    auth=[PixWebhookToken()],
    summary="Notificação Pix do banco (webhook da API Pix do Banco Central)",
)
def pix_webhook(request: HttpRequest, jurisdiction: str, payload: PixNotificationIn) -> PixNotificationOut:
    """O PSP recebedor chama `POST {webhookUrl}/pix` com `{"pix": [...]}`. Idempotente pelo
    endToEndId: reenviar a mesma notificação não grava nada de novo. Créditos sem guia vão para a
    fila de conciliação."""
    token = request.pix_token  # type: ignore[attr-defined]
    place = get_object_or_404(Jurisdiction.unscoped.all(), code=jurisdiction)
    if token.jurisdiction_id != place.code:
        raise HttpError(403, "Este token não é da jurisdição desta notificação.")
    counts = receive_pix(
        actor=token.user, jurisdiction=place, items=[item.model_dump() for item in payload.pix]
    )
    return PixNotificationOut(**counts)
