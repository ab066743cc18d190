"""Screens of the bank statement import and its reconciliation report."""

from __future__ import annotations

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from lotacao.audit.services import history
from lotacao.billing import permissions
from lotacao.billing.forms import AssignCreditForm, BankImportForm, DismissCreditForm
from lotacao.billing.payments.bank import MAX_BYTES, import_statement
from lotacao.billing.payments.models import BankImport, ReconciliationItem
from lotacao.billing.payments.reconcile import assign_credit, dismiss_credit
from lotacao.billing.viewkit import access, attempt, jurisdictions, require
from lotacao.core.models import Jurisdiction


class BankImportList(LoginRequiredMixin, View):
    def render(self, request: HttpRequest, form: BankImportForm | None = None) -> HttpResponse:
        places = jurisdictions(request, permissions.OFFICE)
        return render(
            request,
            "billing/imports.html",
            {
                "title": "Extratos bancários",
                "imports": BankImport.objects.select_related("jurisdiction")[:100],
                "form": form or (BankImportForm(jurisdictions=places) if places else None),
            },
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render(request)

    def post(self, request: HttpRequest) -> HttpResponse:
        form = BankImportForm(
            request.POST, request.FILES, jurisdictions=jurisdictions(request, permissions.OFFICE)
        )
        if form.is_valid():
            upload = form.cleaned_data["file"]
            if upload.size > MAX_BYTES:
                form.add_error("file", "Arquivo grande demais (máximo de 5 MB).")
                return self.render(request, form)
            jurisdiction = Jurisdiction.objects.get(code=form.cleaned_data["jurisdiction"])
            done = attempt(
                request,
                form,
                lambda: import_statement(
                    actor=request.user,
                    jurisdiction=jurisdiction,
                    filename=upload.name,
                    content=upload.read(),
                    reason=form.cleaned_data["reason"],
                ),
                "Arquivo importado: confira a conciliação.",
            )
            if done is not None:
                return redirect("billing:import", done.pk)
        return self.render(request, form)


class BankImportDetail(LoginRequiredMixin, View):
    model = BankImport

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        bank_import = get_object_or_404(BankImport.objects.all(), pk=pk)
        sections = [
            ("Conciliadas", bank_import.report.get("matched", [])),
            ("Pagamentos parciais", bank_import.report.get("partial", [])),
            ("Enviadas à fila de conciliação", bank_import.report.get("unmatched", [])),
            ("Duplicadas (já importadas)", bank_import.report.get("duplicates", [])),
        ]
        return render(
            request,
            "billing/import.html",
            {
                "title": str(bank_import),
                "bank_import": bank_import,
                "sections": sections,
                "ignored": bank_import.report.get("ignored", []),
                "format": bank_import.report.get("format", ""),
                "events": history(bank_import)[:20],
            },
        )


class ReconciliationQueue(LoginRequiredMixin, View):
    """The credits waiting for a clerk: pending first, then the last ones resolved."""

    def get(self, request: HttpRequest) -> HttpResponse:
        pending = ReconciliationItem.objects.filter(status=ReconciliationItem.Status.PENDING)
        resolved = ReconciliationItem.objects.exclude(status=ReconciliationItem.Status.PENDING)
        return render(
            request,
            "billing/reconciliation_queue.html",
            {
                "title": "Conciliação bancária pendente",
                "pending": pending.select_related("jurisdiction")[:200],
                "resolved": resolved.select_related("jurisdiction")[:50],
            },
        )


class ReconciliationDetail(LoginRequiredMixin, View):
    model = ReconciliationItem

    def render(
        self,
        request: HttpRequest,
        item: ReconciliationItem,
        assign: AssignCreditForm | None = None,
        dismiss: DismissCreditForm | None = None,
    ) -> HttpResponse:
        can = permissions.has(access(request), item.jurisdiction_id, permissions.OFFICE)
        open_ = can and item.status == ReconciliationItem.Status.PENDING
        return render(
            request,
            "billing/reconciliation_item.html",
            {
                "title": str(item),
                "item": item,
                "assign": (assign or AssignCreditForm())
                if open_ and item.kind == item.Kind.UNMATCHED
                else None,
                "dismiss": (dismiss or DismissCreditForm(prefix="dismiss")) if open_ else None,
                "events": history(item)[:20],
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render(request, get_object_or_404(ReconciliationItem.objects.all(), pk=pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        item = get_object_or_404(ReconciliationItem.objects.all(), pk=pk)
        require(request, item.jurisdiction_id, permissions.OFFICE, "conciliar créditos bancários")
        if request.POST.get("action") == "assign":
            assign = AssignCreditForm(request.POST)
            if assign.is_valid():
                done = attempt(
                    request,
                    assign,
                    lambda: assign_credit(
                        actor=request.user,
                        item=item,
                        slip_code=assign.cleaned_data["slip_code"],
                        reason=assign.cleaned_data["reason"],
                    ),
                    "Crédito atribuído: pagamento registrado.",
                )
                if done is not None:
                    return redirect("billing:reconciliation_item", item.pk)
            return self.render(request, item, assign=assign)
        dismiss = DismissCreditForm(request.POST, prefix="dismiss")
        if dismiss.is_valid():
            done = attempt(
                request,
                dismiss,
                lambda: dismiss_credit(actor=request.user, item=item, reason=dismiss.cleaned_data["reason"]),
                "Crédito descartado da fila.",
            )
            if done is not None:
                return redirect("billing:reconciliation_item", item.pk)
        return self.render(request, item, dismiss=dismiss)
