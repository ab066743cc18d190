"""Screens of the bank statement import and its reconciliation report."""

from __future__ import annotations

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from lotacao.audit.services import history
from lotacao.billing import permissions
from lotacao.billing.forms import BankImportForm
from lotacao.billing.payments.bank import MAX_BYTES, import_statement
from lotacao.billing.payments.models import BankImport
from lotacao.billing.viewkit import attempt, jurisdictions
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
                "Extrato importado: confira a conciliação.",
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
            ("Sem correspondência", bank_import.report.get("unmatched", [])),
            ("Duplicadas", bank_import.report.get("duplicates", [])),
        ]
        return render(
            request,
            "billing/import.html",
            {
                "title": str(bank_import),
                "bank_import": bank_import,
                "sections": sections,
                "events": history(bank_import)[:20],
            },
        )
