"""Screens of the fleet, trips and the road check: add a vehicle, its insurance, FUSP-LV and
inspection; declare a trip with its passenger list (spreadsheet or typed); the 7-seat authorization;
the manifest PDF; the inspector's plate check on the phone."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.audit.views_base import ScopedListView
from lotacao.chartering import fleet, permissions, privacy, rules, selectors, trips
from lotacao.chartering.forms import DecisionForm, InspectionForm, InsuranceForm, TripForm, VehicleForm
from lotacao.chartering.models import CharteringCompany, FleetVehicle, Trip
from lotacao.chartering.pdf import manifest_pdf
from lotacao.chartering.status import crc_state
from lotacao.chartering.views import ObjectView, access_of, attempt
from lotacao.core.validators import normalize_plate
from lotacao.inspections import selectors as inspections_selectors
from lotacao.registry.models import Vehicle


class FleetAdd(ObjectView):
    model = CharteringCompany
    related = ("holder__company",)

    def _render(
        self, request: HttpRequest, company: CharteringCompany, form: VehicleForm, status: int = 200
    ) -> HttpResponse:
        return render(
            request,
            "chartering/form.html",
            {
                "title": f"Incluir veículo na frota — {company}",
                "form": form,
                "back": reverse("chartering:company", kwargs={"pk": company.pk}),
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, self.get_object(pk), VehicleForm())

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        company = self.get_object(pk)
        if not permissions.can_file(access_of(request), company):
            raise PermissionDenied("Seu perfil não permite alterar a frota desta empresa.")
        form = VehicleForm(request.POST)
        if form.is_valid():
            data = dict(form.cleaned_data)
            keys = (
                "tenure",
                "lessor_name",
                "lessor_cnpj",
                "lessor_same_group",
                "group_proof",
                "rental_category",
                "from_regular",
                "reason",
            )
            options = {k: data.pop(k) for k in keys}
            if attempt(
                request,
                lambda: fleet.add_vehicle(actor=request.user, company=company, **options, **data),
                "Veículo incluído na frota.",
            ):
                return redirect("chartering:company", pk=company.pk)
        return self._render(request, company, form, status=422)


class FleetDetail(ObjectView):
    model = FleetVehicle
    related = ("company__holder__company", "vehicle")
    ACTIONS = ("insurance", "fusp_lv", "inspection", "remove")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = self.get_object(pk)
        today = timezone.localdate()
        context = {
            "title": str(entry),
            "entry": entry,
            "seal": inspections_selectors.current_seal(entry.vehicle, today),
            "insurance": inspections_selectors.current_insurance(entry.vehicle, today),
            "fusp_lv_paid": fleet.fusp_lv_paid(entry, today),
            "can_file": permissions.can_file(access_of(request), entry.company),
            "can_review": permissions.can_review(access_of(request), entry.jurisdiction_id),
            "insurance_form": InsuranceForm(),
            "inspection_form": InspectionForm(),
            "events": history(entry)[:30],
        }
        return render(request, "chartering/fleet.html", context)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = self.get_object(pk)
        access = access_of(request)
        action = request.POST.get("action", "")
        if action not in self.ACTIONS:
            raise Http404("Ação desconhecida.")
        office = permissions.can_review(access, entry.jurisdiction_id)
        if not (
            office or (permissions.can_file(access, entry.company) and action in ("insurance", "remove"))
        ):
            raise PermissionDenied("Seu perfil não permite esta ação.")
        reason = request.POST.get("reason", "").strip() or "Frota de fretamento"
        if action == "insurance":
            form = InsuranceForm(request.POST)
            if not form.is_valid():
                messages.error(request, "Confira os dados da apólice.")
                return redirect("chartering:fleet", pk=entry.pk)
            data = dict(form.cleaned_data)
            data.pop("reason")
            attempt(
                request,
                lambda: fleet.register_insurance(actor=request.user, entry=entry, reason=reason, **data),
                "Apólice registrada.",
            )
        elif action == "fusp_lv":
            attempt(
                request,
                lambda: fleet.issue_fusp_lv(actor=request.user, entry=entry, reason=reason),
                "Taxa FUSP-LV emitida.",
            )
        elif action == "inspection":
            inspection = InspectionForm(request.POST)
            if inspection.is_valid():
                attempt(
                    request,
                    lambda: fleet.request_inspection(
                        actor=request.user,
                        entry=entry,
                        scheduled_for=inspection.cleaned_data["scheduled_for"],
                        place=inspection.cleaned_data["place"],
                        reason=reason,
                    ),
                    "Vistoria agendada.",
                )
            else:
                messages.error(request, "Informe a data da vistoria.")
        else:
            attempt(
                request,
                lambda: fleet.remove_vehicle(actor=request.user, entry=entry, reason=reason),
                "Veículo retirado da frota.",
            )
        return redirect("chartering:fleet", pk=entry.pk)


class TripList(ScopedListView):
    model = Trip
    title = "Viagens de fretamento"
    columns = [("Viagem", "__str__"), ("Empresa", "company"), ("Veículo", "vehicle"), ("Situação", "status")]
    search_fields = [
        "origin__icontains",
        "destination__icontains",
        "company__holder__company__legal_name__icontains",
    ]
    search_help = "Origem, destino ou empresa"
    detail_url_name = "chartering:trip"
    export_stem = "viagens-de-fretamento"  # the trips, never their passengers

    def get_queryset(self) -> models.QuerySet[Any]:
        return Trip.objects.select_related("company__holder__company", "vehicle").order_by("-departs_at")


def _vehicles(company: CharteringCompany) -> list[tuple[str, str]]:
    rows = FleetVehicle.objects.filter(company=company, removed_on__isnull=True).select_related("vehicle")
    return [(str(e.vehicle_id), f"{e.vehicle} — {e.vehicle.get_category_display()}") for e in rows]


class TripCreate(ObjectView):
    model = CharteringCompany
    related = ("holder__company",)

    def _form(self, company: CharteringCompany, *args: Any) -> TripForm:
        return TripForm(
            *args,
            modalities=rules.modalities(company.jurisdiction_id, timezone.localdate()),
            vehicles=_vehicles(company),
        )

    def _render(
        self, request: HttpRequest, company: CharteringCompany, form: TripForm, status: int = 200
    ) -> HttpResponse:
        return render(
            request,
            "chartering/form.html",
            {
                "title": f"Declarar viagem — {company}",
                "form": form,
                "multipart": True,
                "back": reverse("chartering:company", kwargs={"pk": company.pk}),
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, self.get_object(pk), self._form(self.get_object(pk)))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        company = self.get_object(pk)
        if not permissions.can_file(access_of(request), company):
            raise PermissionDenied("Seu perfil não permite declarar viagens desta empresa.")
        form = self._form(company, request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            vehicle = Vehicle.objects.get(pk=int(data["vehicle"]))
            trip_data = trips.TripData(
                modality=data["modality"],
                vehicle=vehicle,
                contractor_name=data["contractor_name"],
                origin=data["origin"],
                destination=data["destination"],
                departs_at=data["departs_at"],
                returns_at=data["returns_at"],
                driver_name=data["driver_name"],
                driver_document=data["driver_document"],
                itinerary=data["itinerary"],
                contractor_document=data["contractor_document"],
                contractor_public=data["contractor_public"],
                declaration=data["declaration"],
                subcontractor_cnpj=data["subcontractor_cnpj"],
            )
            made: list[Trip] = []
            if attempt(
                request,
                lambda: made.append(
                    trips.declare_trip(
                        actor=request.user,
                        company=company,
                        data=trip_data,
                        passengers=data["passengers"],
                        reason=data["reason"],
                    )
                ),
                "Viagem declarada.",
            ):
                return redirect("chartering:trip", pk=made[0].pk)
        return self._render(request, company, form, status=422)


class TripDetail(ObjectView):
    """The trip's manifest; the passengers shown (and the opening audited) only to the company,
    inspectors and managers; the office decides a 7-seat authorization here."""

    model = Trip
    related = ("company__holder__company", "vehicle", "crc")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        trip = self.get_object(pk)
        access = access_of(request)
        passengers = None
        query = request.GET.get("busca", "").strip()[:100]
        if permissions.can_see_passengers(access, trip.company) and request.GET.get("lista") == "1":
            passengers = privacy.open_list(user=request.user, access=access, trip=trip)
        found = privacy.search(passengers, query) if passengers is not None else None
        today = timezone.localdate()
        context = {
            "title": str(trip),
            "trip": trip,
            "modality": rules.modality_label(trip.jurisdiction_id, trip.modality, today)
            if rules.regulates_chartering(trip.jurisdiction_id)
            else trip.modality,
            "passengers": found,
            "passenger_total": len(passengers) if passengers is not None else 0,
            "query": query,
            "can_see_passengers": permissions.can_see_passengers(access, trip.company),
            "can_decide": permissions.can_review(access, trip.jurisdiction_id)
            and trip.status == Trip.Status.AWAITING,
            "can_cancel": permissions.can_file(access, trip.company) and trip.status in Trip.LIVE,
            "can_road": permissions.can_check_on_road(access, trip.jurisdiction_id),
            "offers": selectors.offered_notices(
                trip.vehicle,
                selectors.fleet_entry(trip.vehicle),
                None if not trip.company else crc_state(trip.company, today),
                [trip],
                today,
            ),
            "decision_form": DecisionForm(),
            "events": history(trip)[:30],
        }
        return render(request, "chartering/trip.html", context)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        trip = self.get_object(pk)
        access = access_of(request)
        if request.POST.get("action") == "cancel":
            if not permissions.can_file(access, trip.company):
                raise PermissionDenied("Seu perfil não permite cancelar esta viagem.")
            attempt(
                request,
                lambda: trips.cancel_trip(
                    actor=request.user, trip=trip, reason=request.POST.get("reason", "")
                ),
                "Viagem cancelada.",
            )
            return redirect("chartering:trip", pk=trip.pk)
        if not permissions.can_review(access, trip.jurisdiction_id):
            raise PermissionDenied("Somente o atendente ou o gestor decide a autorização.")
        form = DecisionForm(request.POST)
        if form.is_valid():
            granted = form.cleaned_data["decision"] == "grant"
            attempt(
                request,
                lambda: trips.decide_authorization(
                    actor=request.user, trip=trip, granted=granted, reasons=form.cleaned_data["reasons"]
                ),
                "Viagem autorizada." if granted else "Autorização recusada.",
            )
        else:
            messages.error(request, "Escolha a decisão e informe os motivos.")
        return redirect("chartering:trip", pk=trip.pk)


def public_trip_url(request: HttpRequest, trip: Trip) -> str:
    return request.build_absolute_uri(reverse("public:chartering_trip", kwargs={"token": trip.token}))


class ManifestPdf(ObjectView):
    model = Trip
    related = ("company__holder__company", "company__jurisdiction", "vehicle", "crc")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        trip = self.get_object(pk)
        access = access_of(request)
        passengers = None
        if permissions.can_see_passengers(access, trip.company):
            passengers = privacy.open_list(user=request.user, access=access, trip=trip, channel="manifesto")
        response = HttpResponse(
            manifest_pdf(trip, passengers, public_trip_url(request, trip)), content_type="application/pdf"
        )
        response["Content-Disposition"] = f'inline; filename="manifesto-{trip.pk}.pdf"'
        return response


class RoadCheck(LoginRequiredMixin, View):
    """The inspector types a plate (or arrives from a manifest's QR): company, CRC, modality,
    today's trips and the notices to draw up."""

    def get(self, request: HttpRequest) -> HttpResponse:
        access = access_of(request)
        raw = request.GET.get("placa", "").strip()
        context: dict[str, Any] = {"title": "Fiscalização do fretamento", "raw": raw, "results": []}
        if raw:
            try:
                plate = normalize_plate(raw)
            except ValidationError as error:
                context["error"] = error.messages[0]
                return render(request, "chartering/road.html", context, status=422)
            today = timezone.localdate()
            for vehicle in Vehicle.objects.filter(plate=plate).select_related("jurisdiction"):
                if not permissions.can_check_on_road(access, vehicle.jurisdiction_id):
                    continue
                context["results"].append(selectors.road_check(vehicle, today))
        return render(request, "chartering/road.html", context)
