"""Fine screens: the fine's page (the notice's fine section, with the staff's forms: issue the slip,
record the payment, record an offset), issuing the fine from a notice, and the slip as PDF
(staff of the jurisdiction and the holder the fine is charged to)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.views_base import ScopedListView
from lotacao.core.exports import Column
from lotacao.core.formats import lower_first
from lotacao.core.validators import format_document
from lotacao.enforcement import permissions
from lotacao.enforcement.models import Fine, InfractionNotice
from lotacao.enforcement.sanctions import fine_payment, fines, refunds
from lotacao.enforcement.sanctions.fines_pdf import slip_pdf


def _date(raw: str, label: str) -> dt.date | None:
    raw = (raw or "").strip()
    if not raw:
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError as error:
        raise ValidationError(f"Data {label} inválida: {raw}.") from error


def _page(request: HttpRequest, notice: InfractionNotice, status: int = 200) -> HttpResponse:
    return render(
        request,
        "enforcement/sanctions/fine_page.html",
        {"object": notice, "title": f"Multa do {notice}"},
        status=status,
    )


def _refused(request: HttpRequest, notice: InfractionNotice, error: ValidationError) -> HttpResponse:
    for message in error.messages:
        messages.error(request, message)
    return _page(request, notice, status=422)


class FineIssue(LoginRequiredMixin, View):
    """Issue the fine of a notice (GET: the notice's fine section; POST: atendente/gestor)."""

    model = InfractionNotice

    def get_object(self, pk: int) -> InfractionNotice:
        notice: InfractionNotice = get_object_or_404(InfractionNotice.objects.all(), pk=pk)
        return notice

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return _page(request, self.get_object(pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        permissions.require(request, notice.jurisdiction_id, permissions.FINE_ROLES)
        try:
            fine = fines.issue_fine(
                actor=request.user,
                notice=notice,
                reason=request.POST.get("reason", "").strip() or "Multa lançada",
                due_on=_date(request.POST.get("due_on", ""), "de vencimento"),
            )
        except ValidationError as error:
            return _refused(request, notice, error)
        if fine is None:
            messages.info(request, "A penalidade deste auto não inclui multa.")
        else:
            messages.success(request, f"Multa lançada: {lower_first(fine.get_status_display())}.")
        return HttpResponseRedirect(notice.get_absolute_url() + "#multa")


class FineList(ScopedListView):
    """Fines of the user's scope (a permit holder: only their own), newest first."""

    model = Fine
    title = "Multas"
    columns = [
        ("Auto de infração", "notice.number"),
        ("Devedor", "payer_name"),
        ("Valor (R$)", "amount"),
        ("Vencimento", "due_on"),
        ("Situação", "status"),
        ("Pago em", "paid_on"),
    ]
    search_fields = ["notice__number__icontains", "payer_name__icontains", "notice__plate__icontains"]
    search_help = "Número do auto, devedor ou placa"
    filters = {"situacao": "status"}
    detail_url_name = "enforcement:fine"
    export_stem = "multas"
    personal_data = True
    export_columns = [
        Column("Auto de infração", "notice.number"),
        Column("Placa", "notice.plate"),
        Column("Devedor", "payer_name"),
        Column("CPF ou CNPJ do devedor", lambda f: format_document(f.payer_document)),
        Column("Valor (R$)", "amount"),
        Column("Quantidade", "units"),
        Column("Unidade fiscal", "unit"),
        Column("Vencimento", "due_on"),
        Column("Situação", "status"),
        Column("Pago em", "paid_on"),
        Column("Valor pago (R$)", "paid_amount"),
    ]

    def get_queryset(self) -> Any:
        return Fine.objects.select_related("notice").order_by("-created_at", "-id")


class FineDetail(LoginRequiredMixin, View):
    """The fine's page; POST `action` = slip | payment (atendente/gestor) | offset (gestor)."""

    model = Fine

    def get_object(self, pk: int) -> Fine:
        fine: Fine = get_object_or_404(Fine.objects.select_related("notice", "charge"), pk=pk)
        return fine

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return _page(request, self.get_object(pk).notice)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        fine = self.get_object(pk)
        action = request.POST.get("action", "")
        roles = permissions.MANAGER_ROLES if action in ("offset", "refund") else permissions.FINE_ROLES
        permissions.require(request, fine.jurisdiction_id, roles)
        reason = request.POST.get("reason", "").strip()
        try:
            if not reason:
                raise ValidationError("Informe o motivo.")
            if action == "slip":
                fine_payment.issue_slip(
                    actor=request.user,
                    fine=fine,
                    reason=reason,
                    due_on=_date(request.POST.get("due_on", ""), "de vencimento"),
                )
                messages.success(request, "Guia de pagamento emitida.")
                return HttpResponseRedirect(reverse("enforcement:fine_slip", kwargs={"pk": fine.pk}))
            act = {"payment": self._payment, "offset": self._offset, "refund": self._refund}.get(action)
            if act is None:
                raise ValidationError("Ação desconhecida.")
            messages.success(request, act(request, fine, reason))
        except ValidationError as error:
            return _refused(request, fine.notice, error)
        return HttpResponseRedirect(fine.notice.get_absolute_url() + "#multa")

    def _payment(self, request: HttpRequest, fine: Fine, reason: str) -> str:
        paid_on = _date(request.POST.get("paid_on", ""), "do pagamento")
        if paid_on is None:
            raise ValidationError("Informe a data do pagamento.")
        fine_payment.record_fine_payment(
            actor=request.user,
            fine=fine,
            paid_on=paid_on,
            payment_reference=request.POST.get("payment_reference", ""),
            amount=request.POST.get("amount", "").replace(",", ".").strip() or None,
            reason=reason,
        )
        return "Pagamento registrado."

    def _offset(self, request: HttpRequest, fine: Fine, reason: str) -> str:
        on = _date(request.POST.get("on", ""), "do desconto")
        if on is None:
            raise ValidationError("Informe a data do desconto.")
        fine_payment.offset_fine(
            actor=request.user,
            fine=fine,
            credit_reference=request.POST.get("credit_reference", ""),
            on=on,
            reason=reason,
        )
        return "Desconto de créditos registrado."

    def _refund(self, request: HttpRequest, fine: Fine, reason: str) -> str:
        refunded_on = _date(request.POST.get("refunded_on", ""), "da restituição")
        if refunded_on is None:
            raise ValidationError("Informe a data da restituição.")
        refunds.record_refund(
            actor=request.user,
            fine=fine,
            refunded_on=refunded_on,
            reference=request.POST.get("reference", ""),
            reason=reason,
        )
        return "Restituição registrada."


class FineSlipPdf(LoginRequiredMixin, View):
    """The current payment slip (staff of the jurisdiction and the holder charged, by scope)."""

    model = Fine

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        fine: Fine = get_object_or_404(Fine.objects.select_related("notice", "jurisdiction"), pk=pk)
        refusal = fine_payment.slip_refusal(fine, timezone.localdate())
        if refusal:
            # Not a bare 404: the address of a slip issued before a defense, an appeal or a
            # payment says why there is no slip now and what follows (issue 11); a slip is
            # offered only with a real amount in R$ and a working PIX code (issue 21).
            return render(
                request,
                "enforcement/sanctions/slip_unavailable.html",
                {
                    "title": f"Guia da multa do auto {fine.notice.number}",
                    "fine": fine,
                    "refusal": refusal if fine.status == Fine.Status.OPEN else "",
                },
            )
        pdf = slip_pdf(fine, on=timezone.localdate())
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="guia-{fine.notice.number}.pdf"'
        return response


__all__: list[Any] = ["FineDetail", "FineIssue", "FineSlipPdf"]
