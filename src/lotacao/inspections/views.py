"""Inspection screens: agenda, schedule, record the result (checklist from the pack), irregularity
notices, seals (PDF with a QR code to the public page) and Recife-style re-registration campaigns."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.db import models
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit import exports as audited_exports
from lotacao.core import exports
from lotacao.core.exports import Column
from lotacao.core.models import Jurisdiction
from lotacao.inspections import permissions, rules, services
from lotacao.inspections.forms import CampaignForm, ConfirmForm, ReregistrationForm, ResultForm, ScheduleForm
from lotacao.inspections.models import (
    Inspection,
    IrregularityNotice,
    Reregistration,
    ReregistrationCampaign,
    Seal,
)
from lotacao.inspections.pdf import notice_pdf, seal_pdf
from lotacao.registry.models import Vehicle


def _errors(form: Any, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


def _file(vehicle: Any) -> str:
    return reverse("vehicles:file", kwargs={"pk": vehicle.pk})


class ObjectView(LoginRequiredMixin, View):
    model: ClassVar[type[models.Model]]

    def get_object(self, pk: int) -> Any:
        return get_object_or_404(self.model._default_manager.all(), pk=pk)


class Agenda(LoginRequiredMixin, View):
    title = "Vistorias"
    # the export: the scheduled inspections (the page's first table), every one of them
    export_columns = [
        Column("Data marcada", "scheduled_for"),
        Column("Veículo", "vehicle.plate_display"),
        Column("Permissionário", "vehicle.holder"),
        Column("Tipo", "kind"),
        Column("Local", "place"),
        Column("Situação", "status"),
    ]

    def scheduled(self) -> Any:
        return (
            Inspection.objects.filter(status=Inspection.Status.SCHEDULED)
            .select_related("vehicle__holder__person", "vehicle__holder__company")
            .order_by("scheduled_for", "id")
        )

    def get(self, request: HttpRequest) -> HttpResponseBase:
        today = timezone.localdate()
        file = audited_exports.answer(
            request,
            title="Vistorias agendadas",
            columns=self.export_columns,
            objects=self.scheduled(),
            stem="vistorias-agendadas",
            personal=True,
        )
        if file is not None:
            return file
        scheduled = self.scheduled()[:200]
        notices = (
            IrregularityNotice.objects.filter(resolved_on__isnull=True)
            .select_related("vehicle")
            .order_by("representation_due")[:200]
        )
        campaigns = ReregistrationCampaign.objects.all()[:10]
        context = {
            "title": self.title,
            "scheduled": scheduled,
            "notices": notices,
            "campaigns": campaigns,
            "today": today,
            "export_links": exports.links(request),
        }
        return render(request, "inspections/agenda.html", context)


class Schedule(ObjectView):
    model = Vehicle

    def _render(self, request: HttpRequest, vehicle: Vehicle, form: Any, status: int = 200) -> HttpResponse:
        context = {"form": form, "title": f"Agendar vistoria — {vehicle}", "vehicle": vehicle}
        return render(request, "inspections/form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        if request.access.is_holder:  # type: ignore[attr-defined]  # the holder books a slot online
            return HttpResponseRedirect(f"{reverse('holder_requests:new_booking')}?veiculo={vehicle.pk}")
        permissions.require(request, vehicle.jurisdiction_id, permissions.INSPECTION_ROLES)
        return self._render(request, vehicle, ScheduleForm(initial={"scheduled_for": timezone.localdate()}))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.INSPECTION_ROLES)
        form = ScheduleForm(request.POST)
        if form.is_valid():
            try:
                inspection = services.schedule_inspection(
                    actor=request.user, vehicle=vehicle, **form.cleaned_data
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Vistoria agendada.")
                return HttpResponseRedirect(reverse("inspections:inspection", kwargs={"pk": inspection.pk}))
        return self._render(request, vehicle, form, status=422)


class InspectionDetail(ObjectView):
    """The inspection; while scheduled, the result form with the pack's checklist."""

    model = Inspection

    def _form(self, inspection: Inspection, data: Any = None) -> tuple[ResultForm, str, str]:
        items, cite, why = services.checklist_for(inspection.jurisdiction_id, timezone.localdate())
        form = ResultForm(data, checklist=items, initial={"performed_on": timezone.localdate()})
        return form, cite, why

    def _render(
        self, request: HttpRequest, inspection: Inspection, form: Any, status: int = 200
    ) -> HttpResponse:
        _, cite, why = self._form(inspection)
        deadline = rules.entry(
            inspection.jurisdiction_id, "inspection.representation_deadline", timezone.localdate()
        )
        if deadline is not None and deadline.status == "repealed":
            deadline = None  # a rule no longer in force is not shown
        context = {
            "title": str(inspection),
            "inspection": inspection,
            "vehicle": inspection.vehicle,
            "form": form,
            "checklist_cite": cite,
            "checklist_undefined": why,
            "deadline": deadline,
            "notice": IrregularityNotice.objects.filter(inspection=inspection).first(),
            "seal": Seal.objects.filter(inspection=inspection).first(),
            "can_inspect": permissions.allowed(
                getattr(request, "access", None), inspection.jurisdiction_id, permissions.INSPECTION_ROLES
            ),
        }
        return render(request, "inspections/inspection.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        inspection = self.get_object(pk)
        return self._render(request, inspection, self._form(inspection)[0])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        inspection = self.get_object(pk)
        permissions.require(request, inspection.jurisdiction_id, permissions.INSPECTION_ROLES)
        form = self._form(inspection, request.POST)[0]
        if form.is_valid():
            try:
                done = services.record_inspection(
                    actor=request.user,
                    inspection=inspection,
                    performed_on=form.cleaned_data["performed_on"],
                    performed_at=form.cleaned_data.get("performed_at"),
                    checklist=form.checklist_answers(),
                    faults=form.fault_lines(),
                    notes=form.cleaned_data.get("notes", ""),
                    representation_due=form.cleaned_data.get("representation_due"),
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                text = (
                    "Vistoria aprovada." if done.status == Inspection.Status.PASSED else "Vistoria reprovada."
                )
                messages.success(request, text)
                return HttpResponseRedirect(reverse("inspections:inspection", kwargs={"pk": done.pk}))
        return self._render(request, inspection, form, status=422)


class SealIssue(ObjectView):
    model = Vehicle

    def _render(self, request: HttpRequest, vehicle: Vehicle, form: Any, status: int = 200) -> HttpResponse:
        context = {"form": form, "title": f"Emitir selo — {vehicle}", "vehicle": vehicle}
        return render(request, "inspections/form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.INSPECTION_ROLES)
        return self._render(request, vehicle, ConfirmForm(initial={"reason": "Emissão de selo de vistoria"}))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.INSPECTION_ROLES)
        form = ConfirmForm(request.POST)
        if form.is_valid():
            try:
                seal = services.issue_seal(
                    actor=request.user, vehicle=vehicle, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(
                    request, f"Selo {seal.number} emitido, válido até {rules.pt(seal.valid_until)}."
                )
                return HttpResponseRedirect(_file(vehicle))
        return self._render(request, vehicle, form, status=422)


class SealPdf(ObjectView):
    model = Seal

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        seal = self.get_object(pk)
        public = request.build_absolute_uri(reverse("public:vehicle", kwargs={"plate": seal.vehicle.plate}))
        response = HttpResponse(seal_pdf(seal, public), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="selo-{seal.number}.pdf"'
        return response


class NoticeDetail(ObjectView):
    model = IrregularityNotice

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        if request.GET.get("formato") == "pdf":
            response = HttpResponse(notice_pdf(notice), content_type="application/pdf")
            response["Content-Disposition"] = f'inline; filename="notificacao-{notice.number}.pdf"'
            return response
        context = {"title": str(notice), "notice": notice, "vehicle": notice.vehicle}
        return render(request, "inspections/notice.html", context)


class Campaigns(LoginRequiredMixin, View):
    def _form(self, request: HttpRequest, data: Any = None) -> CampaignForm:
        codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.CAMPAIGN_ROLES)
        names = dict(Jurisdiction.objects.filter(code__in=codes).values_list("code", "name"))
        return CampaignForm(data, jurisdictions=[(c, names.get(c, c)) for c in codes])

    def _render(self, request: HttpRequest, form: Any, status: int = 200) -> HttpResponse:
        context = {
            "title": "Recadastramento anual",
            "form": form,
            "campaigns": ReregistrationCampaign.objects.all(),
        }
        return render(request, "inspections/campaigns.html", context, status=status)

    def get(self, request: HttpRequest) -> HttpResponse:
        return self._render(request, self._form(request))

    def post(self, request: HttpRequest) -> HttpResponse:
        form = self._form(request, request.POST)
        if form.is_valid():
            code = form.cleaned_data.pop("jurisdiction")
            permissions.require(request, code, permissions.CAMPAIGN_ROLES)
            try:
                campaign = services.open_campaign(
                    actor=request.user, jurisdiction=Jurisdiction.objects.get(code=code), **form.cleaned_data
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                return HttpResponseRedirect(reverse("inspections:campaign", kwargs={"pk": campaign.pk}))
        return self._render(request, form, status=422)


class CampaignDetail(ObjectView):
    model = ReregistrationCampaign

    def _render(
        self, request: HttpRequest, campaign: ReregistrationCampaign, form: Any, status: int = 200
    ) -> HttpResponse:
        context = {
            "title": str(campaign),
            "campaign": campaign,
            "form": form,
            "entries": Reregistration.objects.filter(campaign=campaign).select_related("vehicle"),
            "can_register": permissions.allowed(
                getattr(request, "access", None), campaign.jurisdiction_id, permissions.VEHICLE_ROLES
            ),
        }
        return render(request, "inspections/campaign.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self.get_object(pk)
        form = ReregistrationForm(
            jurisdiction=campaign.jurisdiction_id, initial={"registered_on": timezone.localdate()}
        )
        return self._render(request, campaign, form)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self.get_object(pk)
        permissions.require(request, campaign.jurisdiction_id, permissions.VEHICLE_ROLES)
        form = ReregistrationForm(request.POST, jurisdiction=campaign.jurisdiction_id)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.reregister_vehicle(
                    actor=request.user,
                    campaign=campaign,
                    vehicle=data["vehicle"],
                    on=data["registered_on"],
                    exemption=data.get("exemption") or "",
                    exemption_filed_on=data.get("exemption_filed_on"),
                    exemption_reason=data.get("exemption_reason") or "",
                    reason=data["reason"],
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, f"Veículo {data['vehicle']} recadastrado.")
                return HttpResponseRedirect(reverse("inspections:campaign", kwargs={"pk": campaign.pk}))
        return self._render(request, campaign, form, status=422)
