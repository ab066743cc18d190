"""The service-order editor: periods by day type (headways or fixed departures), fleet, vehicles and
the act, with the law's checks running as the clerk types (`OrderCheck`, JSON) and again on submit."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.utils import timezone

from lotacao.inspections import permissions
from lotacao.lines import law as lines_law
from lotacao.lines import selectors, services
from lotacao.lines.forms import OrderForm, periods_from
from lotacao.lines.models import Place
from lotacao.lines.views import ROLES, LineView, form_errors, line_url
from lotacao.registry.models import Line, Vehicle


def _vehicles(line: Line) -> Any:
    ids = Place.objects.filter(line=line, ends_on__isnull=True).values_list("vehicle_id", flat=True)
    return Vehicle.objects.filter(pk__in=[i for i in ids if i])


class OrderCreate(LineView):
    def _render(self, request: HttpRequest, line: Line, form: Any, status: int = 200) -> HttpResponse:
        today = timezone.localdate()
        label, cite = lines_law.service_order_label(line.jurisdiction_id, today)
        context = {
            "title": f"{label} — {line}",
            "label": label,
            "cite": cite,
            "line": line,
            "form": form,
            "current": selectors.order_summary(selectors.service_order_in_force(line, today)),
        }
        return render(request, "lines/order_form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        permissions.require(request, line.jurisdiction_id, ROLES)
        initial = {"valid_from": timezone.localdate(), "kind": "regular", "fleet": 1, "trip_minutes": 40}
        return self._render(
            request, line, OrderForm(initial=initial, vehicles=_vehicles(line), code=line.jurisdiction_id)
        )

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        permissions.require(request, line.jurisdiction_id, ROLES)
        form = OrderForm(request.POST, vehicles=_vehicles(line), code=line.jurisdiction_id)
        if form.is_valid():
            data = form.cleaned_data
            try:
                order = services.issue_service_order(
                    actor=request.user,
                    line=line,
                    periods=data["periods"],
                    fleet=data["fleet"],
                    trip_minutes=data["trip_minutes"],
                    valid_from=data["valid_from"],
                    act=data.get("act") or "",
                    reason=data["reason"],
                    kind=data["kind"],
                    cause=data.get("cause") or "",
                    valid_until=data.get("valid_until"),
                    vehicles=list(data.get("vehicles") or []),
                    terminal_capacity=data.get("terminal_capacity"),
                    notes=data.get("notes") or "",
                    both_directions=bool(data.get("both_directions")),
                    resolution=data.get("resolution"),
                )
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(request, f"Ordem de serviço nº {order.number} emitida.")
                return HttpResponseRedirect(line_url(line))
        return self._render(request, line, form, status=422)


class OrderCheck(LineView):
    """GET with the editor's fields: the law's findings for those periods (no write)."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        try:
            day = dt.date.fromisoformat(request.GET.get("valid_from") or timezone.localdate().isoformat())
        except ValueError:
            return JsonResponse({"findings": [{"severity": "error", "text": "Data inválida."}]})
        try:
            periods = services.period_data(periods_from(request.GET.dict()))
        except (ValueError, ValidationError) as error:
            return JsonResponse({"findings": [{"severity": "error", "text": str(error)}]})
        if not periods:
            return JsonResponse({"findings": []})
        raw_minutes = request.GET.get("trip_minutes") or ""
        trip_minutes = int(raw_minutes) if raw_minutes.isdigit() and 0 < int(raw_minutes) < 1440 else None
        findings = services.order_findings_for(line, day, periods, trip_minutes)
        return JsonResponse({"findings": [{"severity": f.severity, "text": f.text()} for f in findings]})
