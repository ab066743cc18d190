"""REST endpoints of fines (mounted at /api/fines): read a fine; record its payment (atendente or
gestor of the jurisdiction). Same scoping as the screens: another jurisdiction's fine is a 404, a
holder reads only their own."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from ninja import Router, Schema
from ninja.errors import HttpError

from lotacao.enforcement import permissions
from lotacao.enforcement.models import Fine
from lotacao.enforcement.sanctions import fine_payment

router = Router(tags=["multas"])


class PaymentIn(Schema):
    paid_on: dt.date
    payment_reference: str
    amount: Decimal | None = None
    reason: str = "Pagamento da multa registrado pela API"


class FineOut(Schema):
    """A fine (lotacao.enforcement.sanctions.fine_payment.fine_data); amounts in R$ as text."""

    id: int
    notice: int
    notice_number: str
    jurisdiction: str
    payer_name: str
    amount: str | None  # None: the law's unit has no value in R$ yet (see status_note)
    units: str | None
    unit: str
    due_on: dt.date | None
    due_explanation: str
    due_citations: list[str]
    status: str
    status_label: str
    status_note: str
    slip_count: int
    paid_on: dt.date | None
    paid_amount: str | None
    unit_value: str | None
    unit_value_citation: str
    payment_reference: str
    charge: int | None


@router.get("/{int:fine_id}", response=FineOut, summary="Multa")
def get_fine(request: HttpRequest, fine_id: int) -> JsonResponse:
    fine = get_object_or_404(Fine.objects.select_related("notice"), pk=fine_id)
    return JsonResponse(fine_payment.fine_data(fine))


@router.post("/{int:fine_id}/payment", response=FineOut, summary="Registrar o pagamento da multa")
def pay_fine(request: HttpRequest, fine_id: int, payload: PaymentIn) -> JsonResponse:
    fine = get_object_or_404(Fine.objects.select_related("notice"), pk=fine_id)
    if not permissions.allowed(
        getattr(request, "access", None), fine.jurisdiction_id, permissions.FINE_ROLES
    ):
        raise HttpError(403, "Seu perfil não permite registrar pagamentos.")
    fine = fine_payment.record_fine_payment(
        actor=request.user,
        fine=fine,
        paid_on=payload.paid_on,
        payment_reference=payload.payment_reference,
        amount=payload.amount,
        reason=payload.reason,
    )
    return JsonResponse(fine_payment.fine_data(fine))
