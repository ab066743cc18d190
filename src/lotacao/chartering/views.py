"""Screens of the CRC register: the companies, a company's file, the CRC request with its clocks,
documents, the certificate PDF and the sanctions. Thin: the services validate and audit; rows come
through the scoped managers (a row outside the user's scope is a 404)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.audit.views_base import ScopedListView
from lotacao.chartering import crc as crc_services
from lotacao.chartering import permissions, rules, sanctions, selectors
from lotacao.chartering.forms import ApplicationForm, ReasonForm, SanctionForm
from lotacao.chartering.models import CharteringCompany, Crc, CrcApplication, Sanction
from lotacao.chartering.pdf import crc_pdf
from lotacao.chartering.status import crc_state
from lotacao.documents import services as document_services
from lotacao.documents.forms import UploadForm
from lotacao.documents.rules import document_types
from lotacao.registry.models import Holder


def access_of(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def attempt(request: HttpRequest, work: Callable[[], Any], done: str) -> bool:
    """Run a service; its refusals become messages on the page (nothing was written)."""
    try:
        work()
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
        return False
    messages.success(request, done)
    return True


class ObjectView(LoginRequiredMixin, View):
    model: ClassVar[type[models.Model]]
    related: ClassVar[tuple[str, ...]] = ()

    def get_object(self, pk: int) -> Any:
        return get_object_or_404(self.model._default_manager.select_related(*self.related), pk=pk)


class CompanyList(ScopedListView):
    model = CharteringCompany
    title = "Empresas de fretamento"
    columns = [
        ("Empresa", "holder"),
        ("CNPJ", "holder.company.cnpj_display"),
        ("Jurisdição", "jurisdiction.name"),
    ]
    search_fields = ["holder__company__legal_name__icontains", "holder__company__trade_name__icontains"]
    document_search_fields = ["holder__company__cnpj__startswith"]
    search_help = "Razão social, nome fantasia ou CNPJ"
    detail_url_name = "chartering:company"
    create_url_name = "chartering:enrol"
    create_label = "Incluir empresa no cadastro de fretamento"
    export_stem = "empresas-de-fretamento"

    def get_queryset(self) -> models.QuerySet[Any]:
        return CharteringCompany.objects.select_related("holder__company", "jurisdiction").order_by(
            "holder__company__legal_name"
        )


class Enrol(LoginRequiredMixin, View):
    """Open a company's chartering record: staff pick a company holder; a company enrols itself."""

    def candidates(self, request: HttpRequest) -> list[Holder]:
        access = access_of(request)
        rows = Holder.objects.filter(company__isnull=False, chartering__isnull=True).select_related("company")
        return [
            h
            for h in rows
            if rules.regulates_chartering(h.jurisdiction_id)
            and (access.holder_id == h.pk or permissions.can_review(access, h.jurisdiction_id))
        ]

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(
            request,
            "chartering/enrol.html",
            {"title": "Incluir empresa no fretamento", "candidates": self.candidates(request)},
        )

    def post(self, request: HttpRequest) -> HttpResponse:
        wanted = request.POST.get("holder", "")
        holder = next((h for h in self.candidates(request) if str(h.pk) == wanted), None)
        if holder is None:
            raise Http404("Empresa fora do seu perfil.")
        made: list[CharteringCompany] = []
        ok = attempt(
            request,
            lambda: made.append(
                crc_services.register_company(
                    actor=request.user, holder=holder, reason="Inclusão no cadastro de fretamento"
                )
            ),
            f"{holder} incluída no cadastro de fretamento.",
        )
        if ok:
            return redirect("chartering:application_create", pk=made[0].pk)
        return redirect("chartering:enrol")


class CompanyDetail(ObjectView):
    model = CharteringCompany
    related = ("holder__company", "jurisdiction")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        company = self.get_object(pk)
        access = access_of(request)
        today = timezone.localdate()
        summary = selectors.company_summary(company, today)
        modalities = summary["state"].modalities or next(
            (list(a.modalities) for a in summary["applications"] if a.status in CrcApplication.OPEN), []
        )
        docs = None
        if rules.regulates_chartering(company.jurisdiction_id) and modalities:
            try:
                docs = crc_services.documents_status(company, modalities, today)
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
        context = {
            **summary,
            "title": str(company),
            "docs": docs,
            "can_file": permissions.can_file(access, company),
            "can_sanction": permissions.can_sanction(access, company.jurisdiction_id),
            "sanction_form": SanctionForm(initial={"starts_on": today}),
            "events": history(company)[:30],
        }
        return render(request, "chartering/company.html", context)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The manager applies a sanction decided in a final decision."""
        company = self.get_object(pk)
        if not permissions.can_sanction(access_of(request), company.jurisdiction_id):
            raise PermissionDenied("Somente o gestor aplica sanções ao CRC.")
        form = SanctionForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            attempt(
                request,
                lambda: sanctions.apply_sanction(actor=request.user, company=company, **data),
                "Sanção aplicada.",
            )
        else:
            messages.error(request, "Preencha a sanção, o início e os fundamentos.")
        return redirect("chartering:company", pk=company.pk)


class ApplicationCreate(ObjectView):
    model = CharteringCompany
    related = ("holder__company",)

    def _form(self, company: CharteringCompany, data: Any = None) -> ApplicationForm:
        return ApplicationForm(
            data, modalities=rules.modalities(company.jurisdiction_id, timezone.localdate())
        )

    def _render(
        self, request: HttpRequest, company: CharteringCompany, form: ApplicationForm, status: int = 200
    ) -> HttpResponse:
        return render(
            request,
            "chartering/application_form.html",
            {"title": f"Requerer CRC — {company}", "company": company, "form": form},
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        company = self.get_object(pk)
        return self._render(request, company, self._form(company))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        company = self.get_object(pk)
        if not permissions.can_file(access_of(request), company):
            raise PermissionDenied("Seu perfil não permite requerer o CRC desta empresa.")
        form = self._form(company, request.POST)
        made: list[CrcApplication] = []
        if form.is_valid() and attempt(
            request,
            lambda: made.append(
                crc_services.file_application(
                    actor=request.user,
                    company=company,
                    modalities=form.cleaned_data["modalities"],
                    reason=form.cleaned_data["reason"],
                )
            ),
            "Requerimento protocolado.",
        ):
            return redirect("chartering:application", pk=made[0].pk)
        return self._render(request, company, form, status=422)


class ApplicationDetail(ObjectView):
    model = CrcApplication
    related = ("company__holder__company",)
    ACTIONS = ("deficiency", "completed", "issue", "refuse")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        application = self.get_object(pk)
        access = access_of(request)
        code = application.jurisdiction_id
        docs = None
        if rules.regulates_chartering(code):
            try:
                docs = crc_services.documents_status(
                    application.company, list(application.modalities), timezone.localdate()
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
        context = {
            "title": str(application),
            "application": application,
            "company": application.company,
            "modalities": rules.modality_names(code, list(application.modalities), application.filed_on)
            if rules.regulates_chartering(code)
            else "",
            "docs": docs,
            "can_review": permissions.can_review(access, code),
            "can_issue": permissions.can_issue(access, code),
            "can_file": permissions.can_file(access, application.company),
            "events": history(application)[:30],
        }
        return render(request, "chartering/application.html", context)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        application = self.get_object(pk)
        access = access_of(request)
        action = request.POST.get("action", "")
        code = application.jurisdiction_id
        text = request.POST.get("text", "").strip()
        reason = request.POST.get("reason", "").strip() or text or "Análise do requerimento"
        if action not in self.ACTIONS:
            raise Http404("Ação desconhecida.")
        allowed = {
            "deficiency": permissions.can_review(access, code),
            "completed": permissions.can_review(access, code)
            or permissions.can_file(access, application.company),
            "issue": permissions.can_issue(access, code),
            "refuse": permissions.can_review(access, code),
        }[action]
        if not allowed:
            raise PermissionDenied("Seu perfil não permite esta ação.")
        work = {
            "deficiency": lambda: crc_services.notify_deficiency(
                actor=request.user, application=application, missing=text, reason=reason
            ),
            "completed": lambda: crc_services.record_completion(
                actor=request.user, application=application, reason=reason
            ),
            "issue": lambda: crc_services.issue_crc(
                actor=request.user, application=application, reason=reason
            ),
            "refuse": lambda: crc_services.refuse_application(
                actor=request.user, application=application, reason=text
            ),
        }[action]
        done = {
            "deficiency": "Complementação notificada.",
            "completed": "Complementação registrada.",
            "issue": "CRC emitido.",
            "refuse": "Requerimento indeferido.",
        }[action]
        attempt(request, work, done)
        return redirect("chartering:application", pk=application.pk)


def public_crc_url(request: HttpRequest, crc: Crc) -> str:
    return request.build_absolute_uri(reverse("public:chartering_crc", kwargs={"token": crc.token}))


class CrcPdf(ObjectView):
    model = Crc
    related = ("company__holder__company", "company__jurisdiction")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        crc = self.get_object(pk)
        state = crc_state(crc.company, timezone.localdate(), crc=crc)
        response = HttpResponse(
            crc_pdf(crc, state, public_crc_url(request, crc)), content_type="application/pdf"
        )
        response["Content-Disposition"] = f'inline; filename="{crc.number}.pdf"'
        return response


class DocumentUpload(ObjectView):
    """The company (or a clerk) sends a document of the CRC request; a clerk reviews it."""

    model = CharteringCompany
    related = ("holder__company",)

    def _form(self, company: CharteringCompany, *args: Any) -> UploadForm:
        types = document_types(company.jurisdiction_id, timezone.localdate(), owner="company")
        return UploadForm(*args, choices=[(code, item.label) for code, item in types.items()])

    def _render(
        self, request: HttpRequest, company: CharteringCompany, form: UploadForm, status: int = 200
    ) -> HttpResponse:
        return render(
            request,
            "chartering/upload.html",
            {
                "title": f"Enviar documento — {company}",
                "company": company,
                "form": form,
                "max_mb": document_services.max_upload_bytes() // (1024 * 1024),
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        company = self.get_object(pk)
        return self._render(request, company, self._form(company))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        company = self.get_object(pk)
        if not permissions.can_file(access_of(request), company):
            raise PermissionDenied("Seu perfil não permite enviar documentos desta empresa.")
        form = self._form(company, request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            if attempt(
                request,
                lambda: document_services.upload_document(
                    actor=request.user,
                    code=data["code"],
                    file=data["file"],
                    issued_on=data["issued_on"],
                    valid_until=data["valid_until"],
                    reason=data["reason"],
                    company=company.party,
                ),
                "Documento recebido: aguarda a análise do atendente.",
            ):
                return HttpResponseRedirect(reverse("chartering:company", kwargs={"pk": company.pk}))
        return self._render(request, company, form, status=422)


class SanctionDetail(ObjectView):
    model = Sanction
    related = ("company__holder__company", "crc")
    ACTIONS = ("confirm", "dismiss", "extend", "end")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        sanction = self.get_object(pk)
        context = {
            "title": str(sanction),
            "sanction": sanction,
            "can_sanction": permissions.can_sanction(access_of(request), sanction.jurisdiction_id),
            "today": timezone.localdate(),
            "reason_form": ReasonForm(),
            "events": history(sanction)[:30],
        }
        return render(request, "chartering/sanction.html", context)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        sanction = self.get_object(pk)
        if not permissions.can_sanction(access_of(request), sanction.jurisdiction_id):
            raise PermissionDenied("Somente o gestor decide sobre as sanções do CRC.")
        action = request.POST.get("action", "")
        if action not in self.ACTIONS:
            raise Http404("Ação desconhecida.")
        text = request.POST.get("text", "").strip()
        reason = request.POST.get("reason", "").strip() or text or "Decisão do gestor"
        today = timezone.localdate()
        try:
            days = int(request.POST.get("days", "0") or 0)
        except ValueError:
            days = 0
        work = {
            "confirm": lambda: sanctions.confirm_proposal(
                actor=request.user, sanction=sanction, starts_on=today, reason=reason, decision_reference=text
            ),
            "dismiss": lambda: sanctions.dismiss_proposal(actor=request.user, sanction=sanction, reason=text),
            "extend": lambda: sanctions.extend_sanction(
                actor=request.user, sanction=sanction, extra_days=days, grounds=text, reason=reason
            ),
            "end": lambda: sanctions.end_sanction(
                actor=request.user, sanction=sanction, cure_proof=text, reason=reason
            ),
        }[action]
        attempt(request, work, "Decisão registrada.")
        return redirect("chartering:sanction", pk=sanction.pk)
