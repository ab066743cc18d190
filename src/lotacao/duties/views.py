"""The screens of the operator duties (`/deveres/`): the holder files incident reports, asks for
prior authorizations and delivers periodic reports; staff enter them on the holder's behalf,
review, decide with reasons and citation, and see what is late. Rows come through the scoped
managers: a row outside the user's scope is a 404."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core.models import Jurisdiction
from lotacao.core.vehicle_verdict import clean_plate
from lotacao.duties import permissions, rules, selectors, services, states
from lotacao.duties.models import Authorization, IncidentPhoto, IncidentReport, PeriodicReport
from lotacao.registry.models import Holder, Vehicle


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _own_holder(request: HttpRequest) -> Holder | None:
    access = _access(request)
    if access is not None and access.holder_id is not None:
        holder: Holder = Holder.objects.select_related("person", "company").get(pk=access.holder_id)
        return holder
    return None


def _staff_codes(request: HttpRequest, roles: tuple[str, ...]) -> list[str]:
    return permissions.jurisdictions_for(_access(request), roles)


def _require_someone(request: HttpRequest) -> None:
    if _own_holder(request) is None and not _staff_codes(request, permissions.VIEW_ROLES):
        raise PermissionDenied("Seu perfil não tem acesso aos deveres do operador.")


def _date(raw: str, label: str) -> dt.date:
    try:
        return dt.date.fromisoformat((raw or "").strip())
    except ValueError as error:
        raise ValidationError(f"Informe {label} (dd/mm/aaaa).") from error


def _moment(day: str, time: str, tz: str) -> dt.datetime:
    """A date and an hour typed where the jurisdiction is, as an aware moment."""
    when = _date(day, "a data do fato")
    try:
        hour = dt.time.fromisoformat((time or "").strip())
    except ValueError as error:
        raise ValidationError("Informe a hora do fato (hh:mm).") from error
    return dt.datetime.combine(when, hour, tzinfo=ZoneInfo(tz))


def _vehicle_for(request: HttpRequest, holder: Holder | None, raw_plate: str, vehicle_id: str) -> Vehicle:
    """The holder's chosen vehicle, or the vehicle staff typed by plate (in their scope)."""
    if holder is not None:
        try:
            own: Vehicle = Vehicle.objects.get(pk=int(vehicle_id), holder=holder)
            return own
        except (ValueError, Vehicle.DoesNotExist) as error:
            raise ValidationError("Escolha um dos seus veículos.") from error
    plate = clean_plate(raw_plate)
    codes = _staff_codes(request, permissions.RECORD_ROLES)
    found: Vehicle | None = (
        Vehicle.objects.filter(plate=plate, jurisdiction_id__in=codes).select_related("holder").first()
    )
    if found is None or found.holder_id is None:
        raise ValidationError(f"A placa {plate} não é de um veículo cadastrado com permissionário.")
    return found


# --------------------------------------------------------------------------- home


class DutiesHome(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        _require_someone(request)
        holder = _own_holder(request)
        today = timezone.localdate()
        context: dict[str, Any] = {"title": "Deveres do operador", "holder": holder, "today": today}
        if holder is not None:
            context["deadlines"] = selectors.holder_duties(holder, today)
            context["kinds"] = rules.authorization_kinds(holder.jurisdiction_id, today)
            context["incident_rule"] = rules.incident_rule(holder.jurisdiction_id, today)
        context["incidents"] = IncidentReport.objects.select_related(
            "vehicle", "holder__person", "holder__company"
        )[:10]
        context["authorizations"] = Authorization.objects.select_related(
            "vehicle", "holder__person", "holder__company"
        )[:10]
        context["pending"] = Authorization.objects.filter(status=Authorization.Status.REQUESTED).count()
        context["late"] = IncidentReport.objects.filter(late=True, reviewed_at__isnull=True).count()
        return render(request, "duties/home.html", context)


# --------------------------------------------------------------------------- incident reports


class IncidentList(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        _require_someone(request)
        rows = IncidentReport.objects.select_related("vehicle", "holder__person", "holder__company")
        if request.GET.get("atrasadas") == "1":
            rows = rows.filter(late=True)
        return render(
            request,
            "duties/incidents.html",
            {
                "title": "Comunicações de acidente e ocorrência",
                "rows": rows[:200],
                "can_create": _own_holder(request) is not None
                or bool(_staff_codes(request, permissions.RECORD_ROLES)),
            },
        )


class IncidentCreate(LoginRequiredMixin, View):
    def _context(self, request: HttpRequest, errors: list[str], data: Any) -> dict[str, Any]:
        holder = _own_holder(request)
        today = timezone.localdate()
        code = holder.jurisdiction_id if holder else None
        rule = rules.incident_rule(code, today) if code else None
        return {
            "title": "Comunicar acidente ou ocorrência",
            "holder": holder,
            "vehicles": Vehicle.objects.filter(holder=holder, deregistered_on__isnull=True) if holder else [],
            "rule": rule,
            "citations": [rules.cited(code, c) for c in (rule or {}).values()] if code else [],
            "deadline": rules.incident_deadline(code, today) if code and rule else None,
            "errors": errors,
            "data": data,
            "now": timezone.localtime(),
        }

    def _check(self, request: HttpRequest) -> None:
        if _own_holder(request) is None and not _staff_codes(request, permissions.RECORD_ROLES):
            raise PermissionDenied("Seu perfil não permite registrar comunicações.")

    def get(self, request: HttpRequest) -> HttpResponse:
        self._check(request)
        return render(request, "duties/incident_form.html", self._context(request, [], {}))

    def post(self, request: HttpRequest) -> HttpResponse:
        self._check(request)
        holder = _own_holder(request)
        data = request.POST
        try:
            vehicle = _vehicle_for(request, holder, data.get("placa", ""), data.get("veiculo", ""))
            owner = holder or Holder.objects.get(pk=vehicle.holder_id)
            tz = Jurisdiction.objects.get(pk=owner.jurisdiction_id).timezone
            reported_at = None
            if holder is None and data.get("comunicado_data"):  # staff: when the holder reported it
                reported_at = _moment(
                    data.get("comunicado_data", ""), data.get("comunicado_hora") or "00:00", tz
                )
                if reported_at > timezone.now():
                    raise ValidationError("A data da comunicação não pode ser futura.")
            report = services.report_incident(
                reported_at=reported_at,
                actor=request.user,
                holder=owner,
                vehicle=vehicle,
                kind=data.get("natureza", ""),
                occurred_at=_moment(data.get("data", ""), data.get("hora", ""), tz),
                description=data.get("descricao", ""),
                place=data.get("local", ""),
                victims=data.get("vitimas") == "sim",
                vehicle_withdrawn=data.get("recolhido") == "sim",
                photos=request.FILES.getlist("fotos"),
                source=IncidentReport.Source.HOLDER if holder else IncidentReport.Source.STAFF,
                reason="Comunicação pelo portal" if holder else "Comunicação registrada pelo atendimento",
            )
        except ValidationError as error:
            return render(
                request, "duties/incident_form.html", self._context(request, error.messages, data), status=422
            )
        messages.success(request, f"Comunicação registrada: protocolo {report.protocol}.")
        return HttpResponseRedirect(reverse("duties:incident", args=[report.pk]))


class IncidentDetail(LoginRequiredMixin, View):
    model = IncidentReport

    def _render(
        self, request: HttpRequest, report: IncidentReport, errors: list[str], status: int = 200
    ) -> HttpResponse:
        return render(
            request,
            "duties/incident.html",
            {
                "title": f"Comunicação {report.protocol}",
                "report": report,
                "photos": IncidentPhoto.objects.filter(report=report),
                "can_review": report.reviewed_at is None
                and permissions.allowed(_access(request), report.jurisdiction_id, permissions.RECORD_ROLES),
                "events": history(report)[:20],
                "errors": errors,
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        report = get_object_or_404(
            IncidentReport.objects.select_related("vehicle", "inspection", "holder"), pk=pk
        )
        return self._render(request, report, [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        report = get_object_or_404(IncidentReport.objects.all(), pk=pk)
        if not permissions.allowed(_access(request), report.jurisdiction_id, permissions.RECORD_ROLES):
            raise PermissionDenied("Seu perfil não permite analisar comunicações.")
        try:
            services.review_incident(
                actor=request.user,
                report=report,
                note=request.POST.get("analise", ""),
                reason="Análise da comunicação",
            )
        except ValidationError as error:
            return self._render(request, report, error.messages, status=422)
        messages.success(request, "Análise registrada.")
        return HttpResponseRedirect(reverse("duties:incident", args=[report.pk]))


class IncidentPhotoFile(LoginRequiredMixin, View):
    model = IncidentPhoto

    def get(self, request: HttpRequest, pk: int) -> FileResponse:
        found = get_object_or_404(IncidentPhoto.objects.all(), pk=pk)
        response = FileResponse(found.file.open("rb"), content_type=found.content_type)
        response["Cache-Control"] = "private, no-store"
        return response


# --------------------------------------------------------------------------- authorizations


class AuthorizationList(LoginRequiredMixin, View):
    """The register: every authorization in scope, with its validity; `?vigentes=1` those in force."""

    def get(self, request: HttpRequest) -> HttpResponse:
        _require_someone(request)
        today = timezone.localdate()
        rows = Authorization.objects.select_related("vehicle", "holder__person", "holder__company")
        if request.GET.get("vigentes") == "1":
            rows = rows.filter(status=Authorization.Status.GRANTED, starts_on__lte=today, ends_on__gte=today)
        status = request.GET.get("situacao", "")
        if status in Authorization.Status.values:
            rows = rows.filter(status=status)
        holder = _own_holder(request)
        return render(
            request,
            "duties/authorizations.html",
            {
                "title": "Autorizações prévias",
                "rows": rows[:300],
                "today": today,
                "statuses": Authorization.Status.choices,
                "can_request": holder is not None or bool(_staff_codes(request, permissions.RECORD_ROLES)),
            },
        )


class AuthorizationCreate(LoginRequiredMixin, View):
    def _kinds(self, request: HttpRequest) -> dict[str, str]:
        holder = _own_holder(request)
        today = timezone.localdate()
        if holder is not None:
            return rules.authorization_kinds(holder.jurisdiction_id, today)
        found: dict[str, str] = {}
        for code in _staff_codes(request, permissions.RECORD_ROLES):
            for kind, cite in rules.authorization_kinds(code, today).items():
                found.setdefault(kind, cite)
        return found

    def _context(self, request: HttpRequest, errors: list[str], data: Any) -> dict[str, Any]:
        holder = _own_holder(request)
        kinds = self._kinds(request)
        return {
            "title": "Pedir autorização prévia",
            "holder": holder,
            "kinds": [(k, Authorization.Kind(k).label, cite) for k, cite in kinds.items()],
            "vehicles": Vehicle.objects.filter(holder=holder, deregistered_on__isnull=True) if holder else [],
            "errors": errors,
            "data": data,
            "today": timezone.localdate(),
        }

    def _check(self, request: HttpRequest) -> None:
        if _own_holder(request) is None and not _staff_codes(request, permissions.RECORD_ROLES):
            raise PermissionDenied("Seu perfil não permite registrar pedidos de autorização.")

    def get(self, request: HttpRequest) -> HttpResponse:
        self._check(request)
        return render(request, "duties/authorization_form.html", self._context(request, [], {}))

    def post(self, request: HttpRequest) -> HttpResponse:
        self._check(request)
        holder = _own_holder(request)
        data = request.POST
        try:
            vehicle = None
            if data.get("veiculo") or data.get("placa"):
                vehicle = _vehicle_for(request, holder, data.get("placa", ""), data.get("veiculo", ""))
            if holder is None and vehicle is None:
                raise ValidationError("Informe a placa do veículo do permissionário.")
            owner = holder or Holder.objects.get(pk=vehicle.holder_id)  # type: ignore[union-attr]
            row = services.request_authorization(
                actor=request.user,
                holder=owner,
                vehicle=vehicle,
                kind=data.get("autorizacao", ""),
                starts_on=_date(data.get("inicio", ""), "o início"),
                ends_on=_date(data.get("fim", ""), "o fim"),
                purpose=data.get("motivo", ""),
                reason="Pedido pelo portal" if holder else "Pedido registrado pelo atendimento",
            )
        except ValidationError as error:
            return render(
                request,
                "duties/authorization_form.html",
                self._context(request, error.messages, data),
                status=422,
            )
        messages.success(request, "Pedido registrado: o órgão gestor vai decidir e você será avisado.")
        return HttpResponseRedirect(reverse("duties:authorization", args=[row.pk]))


class AuthorizationDetail(LoginRequiredMixin, View):
    model = Authorization

    def _roles(self, request: HttpRequest, row: Authorization) -> set[str]:
        access = _access(request)
        roles: set[str] = set()
        if access is not None:
            roles |= (
                set(states.DECIDERS) if access.operator else set(access.roles.get(row.jurisdiction_id, set()))
            )
            if access.holder_id == row.holder_id:
                roles.add(states.HOLDER)
        return roles

    def _render(
        self, request: HttpRequest, row: Authorization, errors: list[str], status: int = 200
    ) -> HttpResponse:
        return render(
            request,
            "duties/authorization.html",
            {
                "title": f"Autorização prévia — {row.get_kind_display()}",
                "row": row,
                "actions": states.actions(row, self._roles(request, row)),
                "events": history(row)[:20],
                "errors": errors,
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        row = get_object_or_404(Authorization.objects.select_related("vehicle", "holder", "charge"), pk=pk)
        return self._render(request, row, [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        row = get_object_or_404(Authorization.objects.all(), pk=pk)
        action = request.POST.get("acao", "")
        transition = states.BY_NAME.get(action)
        if transition is None or not set(transition.roles) & self._roles(request, row):
            raise PermissionDenied("Seu perfil não permite esta ação.")
        reasons, cite = request.POST.get("razoes", ""), request.POST.get("fundamento", "")
        try:
            if action in ("grant", "deny"):
                services.decide_authorization(
                    actor=request.user,
                    authorization=row,
                    grant=action == "grant",
                    reasons=reasons,
                    citation=cite,
                )
            elif action == "revoke":
                services.revoke_authorization(
                    actor=request.user, authorization=row, reasons=reasons, citation=cite
                )
            else:
                services.withdraw_authorization(actor=request.user, authorization=row)
        except ValidationError as error:
            return self._render(request, row, error.messages, status=422)
        messages.success(request, "Decisão registrada.")
        return HttpResponseRedirect(reverse("duties:authorization", args=[row.pk]))


# --------------------------------------------------------------------------- periodic reports


class ReportList(LoginRequiredMixin, View):
    """A holder: each finished period of the reports their law requires, the deliveries and the
    demand declarations. Staff: a holder's (`?permissionario=`) or the overdue ones in scope."""

    def _holder(self, request: HttpRequest) -> Holder | None:
        own = _own_holder(request)
        if own is not None:
            return own
        raw = request.GET.get("permissionario") or request.POST.get("permissionario") or ""
        if not raw:
            return None
        try:
            rows = Holder.objects.select_related("person", "company")
            chosen: Holder = get_object_or_404(rows, pk=int(raw))
            return chosen
        except ValueError as error:
            raise Http404("Permissionário inválido.") from error

    def _render(self, request: HttpRequest, errors: list[str], status: int = 200) -> HttpResponse:
        _require_someone(request)
        holder = self._holder(request)
        today = timezone.localdate()
        context: dict[str, Any] = {
            "title": "Relatórios e dados periódicos",
            "holder": holder,
            "errors": errors,
        }
        if holder is not None:
            from lotacao.billing.runs.models import DemandDeclaration

            context["periods"] = selectors.report_periods(holder, today)
            context["pending"] = selectors.pending_rules(holder.jurisdiction_id, today)
            context["declarations"] = DemandDeclaration.objects.filter(holder=holder).select_related("line")[
                :24
            ]
            context["can_deliver"] = _own_holder(request) is not None or permissions.allowed(
                _access(request), holder.jurisdiction_id, permissions.RECORD_ROLES
            )
        else:
            codes = _staff_codes(request, permissions.VIEW_ROLES)
            overdue = []
            for item in selectors.work_items(today, 0):
                if item.kind == services.LATE_REPORT_KIND and item.jurisdiction_id in codes:
                    overdue.append(item)
            context["overdue"] = overdue[:200]
            context["can_set_values"] = bool(_staff_codes(request, ("gestor",)))
            context["pending_by_code"] = [
                (Jurisdiction.objects.get(pk=code).name, selectors.pending_rules(code, today))
                for code in codes
                if code in rules_known()
            ]
        return render(request, "duties/reports.html", context, status=status)

    def get(self, request: HttpRequest) -> HttpResponse:
        return self._render(request, [])

    def post(self, request: HttpRequest) -> HttpResponse:
        holder = self._holder(request)
        if holder is None:
            raise Http404("Escolha o permissionário.")
        if _own_holder(request) is None and not permissions.allowed(
            _access(request), holder.jurisdiction_id, permissions.RECORD_ROLES
        ):
            raise PermissionDenied("Seu perfil não permite registrar entregas.")
        try:
            services.deliver_report(
                actor=request.user,
                holder=holder,
                report=request.POST.get("relatorio", ""),
                period_start=_date(request.POST.get("periodo", ""), "o período"),
                file=request.FILES.get("arquivo"),
                notes=request.POST.get("observacoes", ""),
            )
        except ValidationError as error:
            return self._render(request, error.messages, status=422)
        messages.success(request, "Entrega registrada.")
        url = reverse("duties:reports")
        if _own_holder(request) is None:
            url += f"?permissionario={holder.pk}"
        return HttpResponseRedirect(url)


class ReportFile(LoginRequiredMixin, View):
    model = PeriodicReport

    def get(self, request: HttpRequest, pk: int) -> FileResponse:
        found = get_object_or_404(PeriodicReport.objects.exclude(file=""), pk=pk)
        response = FileResponse(found.file.open("rb"), content_type=found.content_type)
        response["Cache-Control"] = "private, no-store"
        return response


def rules_known() -> set[str]:
    from lotacao.core.law import pack_ids

    return set(pack_ids())
