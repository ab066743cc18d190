"""Vehicle screens for clerks: register, edit, replace, insurance, and the vehicle's file (insurance,
inspections, seal, age limit, replacement deadline). The law is checked by the services
(lotacao.inspections.services), which name the articles in their refusals.

They live beside the inspections they show (the registry, below, only lists vehicles); their URLs
(lotacao.inspections.urls_vehicles, namespace `vehicles`) keep their paths under /cadastro/."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.db import models
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core import providers
from lotacao.core.formats import lower_first
from lotacao.core.models import Jurisdiction
from lotacao.inspections import permissions, rules, selectors, services
from lotacao.inspections.forms_vehicles import (
    InsuranceForm,
    ProvisionalEndForm,
    ProvisionalForm,
    VehicleCreateForm,
    VehicleEditForm,
    VehicleReplaceForm,
)
from lotacao.inspections.models import (
    Inspection,
    InsurancePolicy,
    IrregularityNotice,
    ProvisionalAuthorization,
    Seal,
    VehicleAssessment,
)
from lotacao.registry.models import Vehicle


def _errors(form: Any, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


class VehicleObjectView(LoginRequiredMixin, View):
    model: ClassVar[type[models.Model]] = Vehicle

    def get_object(self, pk: int) -> Any:
        return get_object_or_404(self.model._default_manager.all(), pk=pk)


class VehicleCreate(LoginRequiredMixin, View):
    template = "inspections/vehicle_form.html"

    def _form(self, request: HttpRequest, data: Any = None) -> VehicleCreateForm:
        codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.VEHICLE_ROLES)
        names = dict(Jurisdiction.objects.filter(code__in=codes).values_list("code", "name"))
        return VehicleCreateForm(data, jurisdictions=[(c, names.get(c, c)) for c in codes])

    def get(self, request: HttpRequest) -> HttpResponse:
        form = self._form(request)
        if not form.fields["jurisdiction"].choices:  # type: ignore[attr-defined]
            permissions.require(request, "", permissions.VEHICLE_ROLES)
        return render(request, self.template, {"form": form, "title": "Cadastrar veículo"})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = self._form(request, request.POST)
        if form.is_valid():
            code = form.cleaned_data["jurisdiction"]
            permissions.require(request, code, permissions.VEHICLE_ROLES)
            try:
                vehicle = services.admit_vehicle(
                    actor=request.user,
                    jurisdiction=Jurisdiction.objects.get(code=code),
                    holder=form.cleaned_data.get("holder"),
                    reason=form.cleaned_data["reason"],
                    **form.vehicle_data(),
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, f"Veículo {vehicle} cadastrado.")
                return HttpResponseRedirect(reverse("vehicles:file", kwargs={"pk": vehicle.pk}))
        return render(request, self.template, {"form": form, "title": "Cadastrar veículo"}, status=422)


def _service(vehicle: Any, today: Any) -> tuple[Any, Any]:
    """The permit the vehicle serves and its place on a line today, asked through the seams of
    the apps above (permits, lines)."""
    ((_p, permit_of),) = providers.providers("vehicle_permit")
    ((_l, place_of),) = providers.providers("vehicle_line")
    return permit_of(vehicle), place_of(vehicle, today)


class VehicleFile(VehicleObjectView):
    """Everything about a vehicle on one page."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        today = timezone.localdate()
        code = vehicle.jurisdiction_id
        access = getattr(request, "access", None)
        age = rules.age_limit(vehicle, today)
        permit, place = _service(vehicle, today)
        context = {
            "permit": permit,
            "place": place,
            "line": place.line if place is not None else getattr(permit, "line", None),
            "title": str(vehicle),
            "vehicle": vehicle,
            "today": today,
            "age": age,
            "seal": selectors.current_seal(vehicle, today),
            "insurance": selectors.current_insurance(vehicle, today),
            "policies": InsurancePolicy.objects.filter(vehicle=vehicle)[:20],
            "inspections": Inspection.objects.filter(vehicle=vehicle)[:20],
            "notices": IrregularityNotice.objects.filter(vehicle=vehicle)[:20],
            "seals": Seal.objects.filter(vehicle=vehicle)[:20],
            "assessments": VehicleAssessment.objects.filter(vehicle=vehicle)[:10],
            "keep": rules.assess(code, "keep", today, vehicle),
            "public": selectors.public_vehicle_info(vehicle, today),
            "events": history(vehicle)[:50],
            "provisional_rule": rules.provisional_rule(code, today),
            "provisionals": ProvisionalAuthorization.objects.filter(vehicle=vehicle)[:10],
            "can_edit": permissions.allowed(access, code, permissions.VEHICLE_ROLES),
            "can_inspect": permissions.allowed(access, code, permissions.INSPECTION_ROLES),
        }
        return render(request, "inspections/vehicle_file.html", context)


class VehicleEdit(VehicleObjectView):
    template = "inspections/vehicle_form.html"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
        form = VehicleEditForm(initial=VehicleEditForm.initial_for(vehicle))
        return render(
            request, self.template, {"form": form, "title": f"Alterar veículo {vehicle}", "vehicle": vehicle}
        )

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
        form = VehicleEditForm(request.POST)
        if form.is_valid():
            try:
                services.update_vehicle(
                    actor=request.user,
                    vehicle=vehicle,
                    changes=form.changes(),
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Veículo alterado.")
                return HttpResponseRedirect(reverse("vehicles:file", kwargs={"pk": vehicle.pk}))
        context = {"form": form, "title": f"Alterar veículo {vehicle}", "vehicle": vehicle}
        return render(request, self.template, context, status=422)


class VehicleReplace(VehicleObjectView):
    template = "inspections/vehicle_form.html"

    def _context(self, vehicle: Vehicle, form: Any) -> dict[str, Any]:
        today = timezone.localdate()
        rule = rules.entry(vehicle.jurisdiction_id, "inspection.replaced_vehicle_decharacterization", today)
        return {
            "form": form,
            "title": f"Substituir o veículo {vehicle}",
            "vehicle": vehicle,
            "age": rules.age_limit(vehicle, today),
            "decharacterization": rule
            if rule is not None and rule.status == "value" and rule.value
            else None,
        }

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
        form = VehicleReplaceForm(
            initial={"category": vehicle.category, "seats": vehicle.seats, "doors": vehicle.doors}
        )
        return render(request, self.template, self._context(vehicle, form))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
        form = VehicleReplaceForm(request.POST)
        if form.is_valid():
            try:
                new = services.replace_vehicle(
                    actor=request.user,
                    replaced=vehicle,
                    reason=form.cleaned_data["reason"],
                    decharacterization_proof=form.cleaned_data.get("decharacterization_proof", ""),
                    **form.vehicle_data(),
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, f"Veículo {vehicle} substituído por {new}; {vehicle} foi baixado.")
                return HttpResponseRedirect(reverse("vehicles:file", kwargs={"pk": new.pk}))
        return render(request, self.template, self._context(vehicle, form), status=422)


class InsuranceCreate(VehicleObjectView):
    template = "inspections/vehicle_form.html"

    def _context(self, vehicle: Vehicle, form: Any) -> dict[str, Any]:
        today = timezone.localdate()
        minimum = rules.entry(vehicle.jurisdiction_id, "vehicle.insurance_min", today)
        if minimum is not None and minimum.status == "repealed":
            minimum = None  # a rule no longer in force is not shown
        return {"form": form, "title": f"Seguro do veículo {vehicle}", "vehicle": vehicle, "minimum": minimum}

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
        today = timezone.localdate()
        form = InsuranceForm(initial={"valid_from": today, "valid_until": today + dt.timedelta(days=364)})
        return render(request, self.template, self._context(vehicle, form))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
        form = InsuranceForm(request.POST)
        if form.is_valid():
            try:
                services.register_insurance(actor=request.user, vehicle=vehicle, **form.cleaned_data)
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Apólice registrada.")
                return HttpResponseRedirect(reverse("vehicles:file", kwargs={"pk": vehicle.pk}))
        return render(request, self.template, self._context(vehicle, form), status=422)


class ProvisionalCreate(VehicleObjectView):
    """Grant the provisional authorization of an over-age vehicle to the holder selected in the
    tender (Maricá art. 25, § 6º); refused where the law has none."""

    template = "inspections/vehicle_form.html"

    def _context(self, vehicle: Vehicle, form: Any) -> dict[str, Any]:
        rule = rules.provisional_rule(vehicle.jurisdiction_id, timezone.localdate())
        return {
            "form": form,
            "title": f"Autorização provisória do veículo {vehicle}",
            "vehicle": vehicle,
            "age": rules.age_limit(vehicle, timezone.localdate()),
            "provisional_rule": rule,
        }

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
        return render(request, self.template, self._context(vehicle, ProvisionalForm()))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        vehicle = self.get_object(pk)
        permissions.require(request, vehicle.jurisdiction_id, permissions.VEHICLE_ROLES)
        form = ProvisionalForm(request.POST)
        if form.is_valid():
            try:
                granted = services.grant_provisional(actor=request.user, vehicle=vehicle, **form.cleaned_data)
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, f"{granted} emitida.")
                return HttpResponseRedirect(reverse("vehicles:file", kwargs={"pk": vehicle.pk}))
        return render(request, self.template, self._context(vehicle, form), status=422)


class ProvisionalEnd(VehicleObjectView):
    """End the provisional authorization in force: the vehicle was replaced."""

    model = ProvisionalAuthorization
    template = "inspections/vehicle_form.html"

    def _context(self, row: ProvisionalAuthorization, form: Any) -> dict[str, Any]:
        return {"form": form, "title": f"Encerrar a {lower_first(str(row))}", "vehicle": row.vehicle}

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        row = self.get_object(pk)
        permissions.require(request, row.jurisdiction_id, permissions.VEHICLE_ROLES)
        return render(request, self.template, self._context(row, ProvisionalEndForm()))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        row = self.get_object(pk)
        permissions.require(request, row.jurisdiction_id, permissions.VEHICLE_ROLES)
        form = ProvisionalEndForm(request.POST)
        if form.is_valid():
            try:
                services.end_provisional(
                    actor=request.user, authorization=row, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Autorização provisória encerrada.")
                return HttpResponseRedirect(reverse("vehicles:file", kwargs={"pk": row.vehicle_id}))
        return render(request, self.template, self._context(row, form), status=422)

