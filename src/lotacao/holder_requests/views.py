"""Screens of online requests: the holder's list and forms (each saying first what the law
requires), a request's page (the holder's view, the clerk's decision), the agency's slots."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core.models import Jurisdiction
from lotacao.core.vehicle_verdict import has_permits
from lotacao.permits.models import Permit
from lotacao.registry.models import Holder, Vehicle

from . import forms, procedures, services, states
from .models import InspectionSlot, Request

K = Request.Kind


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _holder(request: HttpRequest) -> Holder:
    access = _access(request)
    if access is None or not access.is_holder:
        raise PermissionDenied("Esta página é do permissionário: o pedido é feito pela conta dele no portal.")
    rows = Holder.objects.select_related("person", "company")
    holder: Holder = get_object_or_404(rows, pk=access.holder_id)
    return holder


def _chartering_home(holder: Holder) -> HttpResponse | None:
    """A chartering company (Pernambuco, Lei 16.205/2017) has no permit-regime requests: its CRC
    requests and reports are on its portal home, in chartering words."""
    if has_permits(holder.jurisdiction_id):
        return None
    return redirect(reverse("portal:home") + "#pedidos")


def _clerk_codes(request: HttpRequest) -> list[str]:
    access = _access(request)
    if access is None:
        return []
    if access.operator:
        return list(Jurisdiction.unscoped.filter(active=True).values_list("code", flat=True))
    return sorted(code for code, roles in access.roles.items() if roles & set(states.CLERKS))


def _errors(form: django_forms.Form, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


class RequestList(LoginRequiredMixin, View):
    """The holder's requests (with the forms they may open) or the agency's, for staff."""

    def get(self, request: HttpRequest) -> HttpResponse:
        access = _access(request)
        if access is not None and access.is_holder:
            holder = _holder(request)
            if (elsewhere := _chartering_home(holder)) is not None:
                return elsewhere
            return render(
                request,
                "holder_requests/list_holder.html",
                {
                    "title": "Meus requerimentos",
                    "requests": Request.objects.filter(holder=holder),
                    "procedures": PROCEDURE_PAGES,
                },
            )
        if access is None or not (access.is_staff_member or access.operator):
            raise PermissionDenied("Seu perfil não tem requerimentos.")
        rows = Request.objects.select_related("holder__person", "holder__company")
        status = request.GET.get("situacao", Request.Status.FILED)
        if status in Request.Status.values:
            rows = rows.filter(status=status)
        return render(
            request,
            "holder_requests/list_staff.html",
            {
                "title": "Requerimentos online",
                "requests": rows[:300],
                "statuses": Request.Status.choices,
                "status": status,
                "may_open_slots": bool(_clerk_codes(request)),
            },
        )


# ---------------------------------------------------------------- the holder's forms


class NewRequest(LoginRequiredMixin, View):
    kind: ClassVar[str]
    title: ClassVar[str]
    intro: ClassVar[str]

    def form(self, holder: Holder, data: Any = None, files: Any = None) -> django_forms.Form:
        raise NotImplementedError

    def inputs(self, holder: Holder, data: dict[str, Any]) -> dict[str, Any]:
        return {}

    def render_page(
        self, request: HttpRequest, holder: Holder, form: django_forms.Form, inputs: dict[str, Any]
    ) -> HttpResponse:
        result = procedures.check(self.kind, holder=holder, **inputs)
        return render(
            request,
            "holder_requests/new.html",
            {
                "title": self.title,
                "intro": self.intro,
                "check": result,
                "form": form,
                "multipart": self.kind == K.DOCUMENT,
            },
        )

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        access = _access(request)
        holder = request.user.is_authenticated and access is not None and access.is_holder
        if holder and (elsewhere := _chartering_home(_holder(request))) is not None:
            return elsewhere
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        holder = _holder(request)
        return self.render_page(request, holder, self.form(holder), {})

    def post(self, request: HttpRequest) -> HttpResponse:
        holder = _holder(request)
        form = self.form(holder, request.POST, request.FILES)
        inputs: dict[str, Any] = {}
        if form.is_valid():
            inputs = self.inputs(holder, form.cleaned_data)
            try:
                filed = services.file_request(
                    actor=request.user,
                    holder=holder,
                    kind=self.kind,
                    statement=form.cleaned_data.get("statement", ""),
                    **inputs,
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(
                    request, f"Pedido protocolado sob o nº {filed.protocol}. Acompanhe aqui a análise."
                )
                return redirect("holder_requests:detail", filed.pk)
        check_inputs = {k: v for k, v in inputs.items() if k in ("permit", "vehicle", "slot")}
        return self.render_page(request, holder, form, check_inputs)


def _vehicles(holder: Holder) -> list[tuple[str, str]]:
    rows = Vehicle.objects.filter(holder=holder, deregistered_on__isnull=True).order_by("plate")
    return [
        (str(v.pk), f"{v.plate_display} — {v.get_category_display()}, {v.manufacture_year}") for v in rows
    ]


def _vehicle(holder: Holder, pk: Any) -> Vehicle | None:
    return Vehicle.objects.filter(holder=holder, pk=pk).first() if pk else None


class NewApplication(NewRequest):
    kind = K.APPLICATION
    title = "Pedir permissão"
    intro = "O pedido de permissão segue a forma que a lei do município prevê."

    def form(self, holder: Holder, data: Any = None, files: Any = None) -> django_forms.Form:
        return forms.ApplicationForm(data)


class NewRenewal(NewRequest):
    kind = K.RENEWAL
    title = "Pedir a renovação da permissão"
    intro = "A renovação (prorrogação) da permissão segue as condições da lei."

    def permits(self, holder: Holder) -> list[tuple[str, str]]:
        rows = Permit.objects.filter(holder=holder, status__in=Permit.LIVE).order_by("number")
        return [(str(p.pk), f"Permissão nº {p.number}") for p in rows]

    def form(self, holder: Holder, data: Any = None, files: Any = None) -> django_forms.Form:
        return forms.RenewalForm(data, permits=self.permits(holder))

    def inputs(self, holder: Holder, data: dict[str, Any]) -> dict[str, Any]:
        return {"permit": Permit.objects.filter(holder=holder, pk=data["permit"]).first()}

    def get(self, request: HttpRequest) -> HttpResponse:
        holder = _holder(request)
        first = Permit.objects.filter(holder=holder, status__in=Permit.LIVE).order_by("number").first()
        return self.render_page(request, holder, self.form(holder), {"permit": first})


class NewDocument(NewRequest):
    kind = K.DOCUMENT
    title = "Enviar documento para análise"
    intro = "Envie os documentos que a lei exige; o órgão confere cada um."

    def form(self, holder: Holder, data: Any = None, files: Any = None) -> django_forms.Form:
        codes = procedures.document_choices(holder, timezone.localdate())
        return forms.DocumentForm(data, files, codes=codes, vehicles=_vehicles(holder))

    def inputs(self, holder: Holder, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "document_code": data["code"],
            "vehicle": _vehicle(holder, data.get("vehicle")),
            "file": data["file"],
            "issued_on": data.get("issued_on"),
            "valid_until": data.get("valid_until"),
        }


class NewSubstitution(NewRequest):
    kind = K.SUBSTITUTION
    title = "Pedir a substituição do veículo"
    intro = "O veículo novo precisa atender à lei (idade, lugares, categoria) para substituir o atual."

    def form(self, holder: Holder, data: Any = None, files: Any = None) -> django_forms.Form:
        return forms.SubstitutionForm(data, vehicles=_vehicles(holder))

    def inputs(self, holder: Holder, data: dict[str, Any]) -> dict[str, Any]:
        fields = ("plate", "category", "manufacture_year", "seats", "doors", "decharacterization_proof")
        return {"vehicle": _vehicle(holder, data["vehicle"]), "substitute": {f: data.get(f) for f in fields}}

    def get(self, request: HttpRequest) -> HttpResponse:
        holder = _holder(request)
        first = Vehicle.objects.filter(holder=holder, deregistered_on__isnull=True).order_by("plate").first()
        return self.render_page(request, holder, self.form(holder), {"vehicle": first})


class NewBooking(NewRequest):
    kind = K.INSPECTION
    title = "Agendar vistoria"
    intro = "Escolha um dos horários que o órgão abriu para vistorias."

    def form(self, holder: Holder, data: Any = None, files: Any = None) -> django_forms.Form:
        slots = [
            (str(s.pk), f"{s} ({s.capacity - procedures.slot_taken(s)} vagas)")
            for s in procedures.open_slots(holder.jurisdiction_id)
        ]
        return forms.BookingForm(data, vehicles=_vehicles(holder), slots=slots)

    def get(self, request: HttpRequest) -> HttpResponse:
        holder = _holder(request)
        wanted = request.GET.get("veiculo", "")
        vehicle = _vehicle(holder, wanted) if wanted.isdigit() and len(wanted) < 12 else None
        form = self.form(holder)
        if vehicle is not None:
            form.initial["vehicle"] = str(vehicle.pk)
        return self.render_page(request, holder, form, {"vehicle": vehicle} if vehicle else {})

    def inputs(self, holder: Holder, data: dict[str, Any]) -> dict[str, Any]:
        slot = InspectionSlot.unscoped.filter(jurisdiction_id=holder.jurisdiction_id, pk=data["slot"]).first()
        return {"vehicle": _vehicle(holder, data["vehicle"]), "slot": slot}


PROCEDURE_PAGES = (
    ("holder_requests:new_application", NewApplication.title),
    ("holder_requests:new_renewal", NewRenewal.title),
    ("holder_requests:new_document", NewDocument.title),
    ("holder_requests:new_substitution", NewSubstitution.title),
    ("holder_requests:new_booking", NewBooking.title),
)


# ---------------------------------------------------------------- a request's page


class RequestDetail(LoginRequiredMixin, View):
    """The request as filed, what the law required, the decision; the clerk decides here, the
    holder may withdraw while it is in analysis."""

    model = Request

    def get_object(self, pk: int) -> Request:
        obj: Request = get_object_or_404(
            Request.objects.select_related(
                "holder__person", "holder__company", "permit", "vehicle", "document", "slot", "decided_by"
            ),
            pk=pk,
        )
        return obj

    def render_page(
        self, request: HttpRequest, obj: Request, form: forms.DecisionForm | None = None
    ) -> HttpResponse:
        access = _access(request)
        is_holder = bool(access is not None and access.is_holder)
        may_decide = (not is_holder) and services.may_decide(request.user, obj.jurisdiction_id)
        if may_decide and obj.is_open and form is None:
            form = forms.DecisionForm(code=obj.jurisdiction_id)
        return render(
            request,
            "holder_requests/detail.html",
            {
                "title": str(obj),
                "object": obj,
                "is_holder": is_holder,
                "may_withdraw": is_holder and states.refusal(obj, "withdraw") is None,
                "form": (form or forms.DecisionForm(code=obj.jurisdiction_id))
                if may_decide and obj.is_open
                else None,
                "actions": states.available(obj, "gestor") if may_decide else [],
                "substitute": obj.details.get("substitute", {}),
                "events": [] if is_holder else history(obj)[:50],
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render_page(request, self.get_object(pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self.get_object(pk)
        access = _access(request)
        if request.POST.get("acao") == "desistir":
            try:
                services.withdraw_request(actor=request.user, request=obj)
            except ValidationError as error:
                for message in error.messages:
                    messages.error(request, message)
            else:
                messages.success(request, "Desistência registrada.")
            return redirect("holder_requests:detail", obj.pk)
        if access is not None and access.is_holder:
            raise PermissionDenied("O permissionário não decide requerimentos.")
        form = forms.DecisionForm(request.POST, code=obj.jurisdiction_id)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.decide_request(
                    actor=request.user,
                    request=obj,
                    approve=data["decision"] == "deferir",
                    reasons=data["reasons"],
                    citation=data["citation"],
                    approval_reference=data["approval_reference"],
                    users_heard=data["users_heard"],
                    valid_until=data["valid_until"],
                    resolution=data.get("resolution"),
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Decisão registrada; o requerente será avisado.")
                return redirect("holder_requests:detail", obj.pk)
        return self.render_page(request, obj, form)


# ---------------------------------------------------------------- the agency's slots


class SlotList(LoginRequiredMixin, View):
    """Open inspection slots per date and time with their capacity; close one."""

    def codes(self, request: HttpRequest) -> list[str]:
        codes = _clerk_codes(request)
        if not codes:
            raise PermissionDenied("Somente o gestor e o atendente abrem horários de vistoria.")
        return codes

    def render_page(self, request: HttpRequest, form: forms.SlotForm) -> HttpResponse:
        codes = self.codes(request)
        slots = InspectionSlot.objects.filter(
            jurisdiction_id__in=codes, starts_at__gte=timezone.now() - dt.timedelta(days=1)
        )
        rows = [(s, procedures.slot_taken(s)) for s in slots.order_by("starts_at")[:200]]
        return render(
            request,
            "holder_requests/slots.html",
            {"title": "Horários de vistoria", "form": form, "rows": rows},
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render_page(request, forms.SlotForm())

    def post(self, request: HttpRequest) -> HttpResponse:
        codes = self.codes(request)
        closing = request.POST.get("fechar")
        if closing:
            slot = get_object_or_404(
                InspectionSlot.objects.filter(jurisdiction_id__in=codes),
                pk=closing if closing.isdigit() else 0,
            )
            try:
                services.close_slot(actor=request.user, slot=slot)
            except ValidationError as error:
                for message in error.messages:
                    messages.error(request, message)
            else:
                messages.success(request, "Horário fechado a novos agendamentos.")
            return redirect("holder_requests:slots")
        form = forms.SlotForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            jurisdiction = Jurisdiction.unscoped.get(pk=codes[0])
            starts = timezone.make_aware(dt.datetime.combine(data["day"], data["time"]))
            try:
                services.open_slot(
                    actor=request.user,
                    jurisdiction=jurisdiction,
                    starts_at=starts,
                    place=data["place"],
                    capacity=data["capacity"],
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Horário aberto para agendamento.")
                return redirect("holder_requests:slots")
        return self.render_page(request, form)
