"""Screens of the ledger: charges (list, detail with payment and cancellation, slip), a holder's
ledger (charges, clearance, counter fees, billing account, the month's slip)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from lotacao.audit import exports as audited_exports
from lotacao.audit.services import history
from lotacao.audit.views_base import ScopedListView
from lotacao.billing import lawdata, permissions
from lotacao.billing.clearance.selectors import blocked_procedures, clearance
from lotacao.billing.forms import AccountForm, CancelForm, FeeForm, PaymentForm
from lotacao.billing.ledger import services
from lotacao.billing.ledger.debts import open_debts
from lotacao.billing.ledger.models import Account, Charge, Payment
from lotacao.billing.payments import slips
from lotacao.billing.runs.declarations import parse_month
from lotacao.billing.viewkit import access, attempt, require, today
from lotacao.core import exports
from lotacao.core.exports import Column
from lotacao.core.vehicle_verdict import has_permits
from lotacao.registry.models import Holder


class ChargeList(LoginRequiredMixin, View):
    title = "Cobranças"

    @staticmethod
    def export_columns(on: dt.date) -> list[Column]:
        return [
            Column("Guia", "slip_code"),
            Column("Permissionário", "holder"),
            Column("Natureza", "kind"),
            Column("Descrição", "description"),
            Column("Valor (R$)", "amount"),
            Column("Vencimento", "due_on"),
            Column("Situação", lambda c: c.status_label(on)),
            Column("Pago em", "paid_on"),
        ]

    def filtered(self, request: HttpRequest) -> tuple[Any, str]:
        """The charges the page shows (its situation filter applied) and the filter."""
        qs = Charge.objects.select_related("holder__person", "holder__company").order_by("-due_on", "-id")
        state = request.GET.get("situacao", "")
        if state == "abertas":
            qs = qs.filter(cancelled=False, paid_on__isnull=True)
        elif state == "vencidas":
            qs = qs.filter(cancelled=False, paid_on__isnull=True, due_on__lt=today())
        elif state == "pagas":
            qs = qs.filter(paid_on__isnull=False)
        return qs, state

    def get(self, request: HttpRequest) -> HttpResponseBase:
        qs, state = self.filtered(request)
        file = audited_exports.answer(
            request,
            title=self.title,
            columns=self.export_columns(today()),
            objects=qs,
            stem="cobrancas",
            personal=True,
        )
        if file is not None:
            return file
        return render(
            request,
            "billing/charges.html",
            {
                "title": self.title,
                "charges": qs[:200],
                "state": state,
                "today": today(),
                "access": access(request),
                "export_links": exports.links(request),
            },
        )


class PaymentList(ScopedListView):
    """Payments received (counter, bank statement, other modules), newest first."""

    model = Payment
    title = "Pagamentos"
    columns = [
        ("Guia", "charge.slip_code"),
        ("Permissionário", "charge.holder"),
        ("Pago em", "paid_on"),
        ("Valor pago (R$)", "amount"),
        ("Juros e multa de mora (R$)", "late_amount"),
        ("Forma", "method"),
        ("Comprovante", "reference"),
    ]
    search_fields = ["reference__icontains", "charge__description__icontains"]
    search_help = "Comprovante ou descrição da cobrança"
    filters = {"forma": "method"}
    detail_url_name = "billing:payment_charge"
    export_stem = "pagamentos"
    personal_data = True

    def get_queryset(self) -> Any:
        return Payment.objects.select_related(
            "charge__holder__person", "charge__holder__company", "charge__jurisdiction"
        ).order_by("-paid_on", "-id")


class ChargeDetail(LoginRequiredMixin, View):
    model = Charge

    def get_charge(self, pk: int) -> Charge:
        charge: Charge = get_object_or_404(Charge.objects.select_related("holder", "line"), pk=pk)
        return charge

    def render(self, request: HttpRequest, charge: Charge, **forms: Any) -> HttpResponse:
        can_pay = permissions.has(access(request), charge.jurisdiction_id, permissions.OFFICE)
        open_now = not charge.cancelled and charge.paid_on is None
        extra, why = services.late_amount(charge, today())
        return render(
            request,
            "billing/charge.html",
            {
                "title": str(charge),
                "charge": charge,
                "status": charge.status_label(today()),
                "late": extra,
                "late_why": why,
                "fund": lawdata.fund_labels(charge.jurisdiction_id, charge.due_on).get(charge.fund, ""),
                "payments": charge.payments.all(),
                "pay_form": forms.get("pay_form")
                or (PaymentForm(initial={"paid_on": today()}) if can_pay and open_now else None),
                "cancel_form": forms.get("cancel_form") or (CancelForm() if can_pay and open_now else None),
                "events": history(charge)[:50],
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render(request, self.get_charge(pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        charge = self.get_charge(pk)
        require(request, charge.jurisdiction_id, permissions.OFFICE, "registrar pagamentos")
        if "cancelar" in request.POST:
            cancel = CancelForm(request.POST)
            if cancel.is_valid() and attempt(
                request,
                cancel,
                lambda: services.cancel_charge(
                    actor=request.user, charge=charge, reason=cancel.cleaned_data["reason"]
                ),
                "Cobrança cancelada.",
            ):
                return redirect("billing:charge", charge.pk)
            return self.render(request, charge, cancel_form=cancel)
        form = PaymentForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            done = attempt(
                request,
                form,
                lambda: services.record_payment(
                    actor=request.user,
                    charge=charge,
                    paid_on=data["paid_on"],
                    reason=data["reason"],
                    payment_reference=data["reference"],
                    method="balcao",
                ),
                "Pagamento registrado.",
            )
            if done:
                return redirect("billing:charge", charge.pk)
        return self.render(request, charge, pay_form=form)


class PaymentCharge(LoginRequiredMixin, View):
    """A payment of the list shows the charge it paid, with the payment (a paid charge has no
    forms, so nothing is posted here)."""

    model = Payment

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        payment = get_object_or_404(Payment.objects.all(), pk=pk)
        charge = get_object_or_404(Charge.objects.select_related("holder", "line"), pk=payment.charge_id)
        return ChargeDetail().render(request, charge)


def _pdf(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


class ChargeSlip(LoginRequiredMixin, View):
    model = Charge

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        charge = get_object_or_404(Charge.objects.select_related("holder__jurisdiction"), pk=pk)
        slip = slips.charge_slip(charge, today())
        if request.GET.get("formato") == "html":
            return render(request, "billing/slip.html", {"title": slip.title, "slip": slip})
        return _pdf(slips.pdf(slip), f"guia-{slip.code}.pdf")


class HolderLedger(LoginRequiredMixin, View):
    """A holder's ledger: every charge, the clearance, the counter fees and the billing account."""

    model = Holder

    def get_holder(self, pk: int) -> Holder:
        holder: Holder = get_object_or_404(Holder.objects.select_related("person", "company"), pk=pk)
        return holder

    def render(
        self, request: HttpRequest, holder: Holder, fee_form: Any = None, account_form: Any = None
    ) -> HttpResponse:
        code = holder.jurisdiction_id
        office = permissions.has(access(request), code, permissions.OFFICE)
        fees = [(f, lawdata.description(code, f"fee.{f}")) for f in lawdata.fee_ids(code)]
        # Only the procedures this law makes depend on clearance (a chartering company never
        # reads the permit regime's "outorga de permissão" or "cadastro de preposto").
        blocked, _cite = blocked_procedures(code, today())
        verdicts = [
            (label, clearance(holder=holder, on=today(), procedure=p))
            for p, label in _procedures()
            if p in blocked
        ]
        month = today().replace(day=1)
        month_slip = slips.holder_month_slip(holder, month, today())
        debts = open_debts(holder, today())
        return render(
            request,
            "billing/ledger.html",
            {
                "title": f"Cobranças — {holder}",
                "holder": holder,
                "charges": Charge.objects.filter(holder=holder).order_by("-due_on", "-id"),
                "debts": debts,
                "other_debts": [d for d in debts if d.charge is None],
                "payable": {d.charge.pk: d for d in debts if d.charge is not None},
                "account": Account.objects.filter(holder=holder).first(),
                "verdicts": verdicts,
                "clear_labels": [label for label, v in verdicts if v.clear],
                "today": today(),
                "month": month,
                "month_slip": month_slip if month_slip.total > 0 and month_slip.pix_code else None,
                "chartering": not has_permits(code),
                "office": office,
                "fee_form": fee_form or (FeeForm(fees=fees) if office and fees else None),
                "account_form": account_form or (AccountForm(initial={"on": today()}) if office else None),
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render(request, self.get_holder(pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        holder = self.get_holder(pk)
        code = holder.jurisdiction_id
        require(request, code, permissions.OFFICE, "emitir taxas ou inscrever permissionários")
        if "taxa" in request.POST:
            fees = [(f, lawdata.description(code, f"fee.{f}")) for f in lawdata.fee_ids(code)]
            form = FeeForm(request.POST, fees=fees)
            if form.is_valid():
                data = form.cleaned_data
                charge = attempt(
                    request,
                    form,
                    lambda: services.issue_fee(
                        actor=request.user,
                        holder=holder,
                        fee=data["fee"],
                        on=today(),
                        months=data["months"],
                        reason=data["reason"],
                    ),
                    "Taxa emitida.",
                )
                if charge is not None:
                    return redirect("billing:charge", charge.pk)
            return self.render(request, holder, fee_form=form)
        form2 = AccountForm(request.POST)
        if form2.is_valid():
            data = form2.cleaned_data
            closing = "encerrar" in request.POST
            action = services.close_account if closing else services.open_account
            done = attempt(
                request,
                form2,
                lambda: action(actor=request.user, holder=holder, on=data["on"], reason=data["reason"]),
                "Inscrição encerrada." if closing else "Permissionário inscrito para a cobrança mensal.",
            )
            if done:
                return redirect("billing:ledger", holder.pk)
        return self.render(request, holder, account_form=form2)


def _procedures() -> list[tuple[str, str]]:
    from lotacao.billing.clearance.selectors import PROCEDURES

    return [(p, label.capitalize()) for p, label in PROCEDURES.items()]


class HolderMonthSlip(LoginRequiredMixin, View):
    model = Holder

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        holder = get_object_or_404(Holder.objects.all(), pk=pk)
        try:
            month = parse_month(request.GET.get("mes", f"{today():%m/%Y}"))
        except Exception:
            month = today().replace(day=1)
        slip = slips.holder_month_slip(holder, month, today())
        if slip.total <= 0 or not slip.pix_code:
            # No slip of R$ 0,00 and none without a working PIX code (issue 21).
            return render(
                request,
                "billing/slip_none.html",
                {"title": slip.title.split(" — ")[0], "slip": slip, "month": month, "holder": holder},
            )
        if request.GET.get("formato") == "html":
            return render(request, "billing/slip.html", {"title": slip.title, "slip": slip})
        return _pdf(slips.pdf(slip), f"guia-{slip.code}.pdf")


def month_of(value: dt.date) -> str:
    return f"{value:%m/%Y}"
