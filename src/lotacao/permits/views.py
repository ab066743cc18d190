"""Back-office screens of permits (Portuguese): list, detail, guided grant, transitions, term PDF.

Every URL that takes an id is a class-based view with `model`, reading through the scoped manager:
a permit outside the user's scope is a 404. Holders see their own permits (read-only).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit import exports as audited_exports
from lotacao.audit.services import history
from lotacao.audit.views_base import ScopedDetailView, unsearchable
from lotacao.billing.models import Charge
from lotacao.core import exports
from lotacao.core.exports import Column
from lotacao.core.text import fold
from lotacao.core.validators import normalize_plate
from lotacao.councils.forms import add_resolution_field
from lotacao.permits import actions, services
from lotacao.permits.checklist import Step, unblock_steps
from lotacao.permits.eligibility import check_eligibility
from lotacao.permits.forms import ACTION_FORMS, ApplicationForm, GrantForm
from lotacao.permits.models import Ban, Permit, PermitAgent
from lotacao.permits.pdf import term_pdf
from lotacao.registry import services as registry_services
from lotacao.registry.models import Holder, Line, Person, Vehicle

S = Permit.Status


def _errors(error: ValidationError) -> list[str]:
    return list(error.messages)


class PermitList(LoginRequiredMixin, View):
    page_size = 25
    title = "Permissões"

    @staticmethod
    def export_columns(today: dt.date) -> list[Column]:
        return [
            Column("Número", lambda p: p.number or "requerimento sem número"),
            Column("Permissionário", "holder"),
            Column("CPF ou CNPJ", "holder.document_display"),
            Column("Espécie", "kind"),
            Column("Linha", "line.code"),
            Column("Veículo", "vehicle"),
            Column("Situação", lambda p: p.effective_status_label(today)),
            Column("Requerida em", "applied_on"),
            Column("Outorgada em", "granted_on"),
            Column("Válida até", "valid_until"),
        ]

    def filtered(self, request: HttpRequest, today: dt.date) -> tuple[Any, str, str, str]:
        """The permits the page shows (status, line and search applied), the query, status, line."""
        qs = Permit.objects.select_related("holder__person", "holder__company", "line", "vehicle")
        status = request.GET.get("situacao", "")
        if status == S.EXPIRED:
            qs = qs.filter(Q(status=S.EXPIRED) | Q(status__in=Permit.LIVE, valid_until__lt=today))
        elif status in (S.ACTIVE, S.SUSPENDED):
            qs = qs.filter(status=status).exclude(valid_until__lt=today)
        elif status in S.values:
            qs = qs.filter(status=status)
        line = request.GET.get("linha", "")
        if line.isdigit():
            qs = qs.filter(line_id=int(line))
        query = request.GET.get("q", "").strip()
        if unsearchable(query):  # a NUL byte or an absurd length: no search, no 500
            query, qs = "", qs.none()
        if query:
            digits = re.sub(r"\D", "", query)
            plate = re.sub(r"[\s\-]", "", query).upper()
            condition = (
                Q(number__icontains=query)
                | Q(holder__person__name_search__contains=fold(query))
                | Q(holder__company__name_search__contains=fold(query))
                | Q(vehicle__plate__startswith=plate)
            )
            if digits:
                condition |= Q(holder__person__cpf__startswith=digits) | Q(
                    holder__company__cnpj__startswith=digits
                )
            qs = qs.filter(condition)
        return qs, query, status, line

    def get(self, request: HttpRequest) -> HttpResponseBase:
        today = timezone.localdate()
        qs, query, status, line = self.filtered(request, today)
        file = audited_exports.answer(
            request,
            title=self.title,
            columns=self.export_columns(today),
            objects=qs,
            stem="permissoes",
            personal=True,
        )
        if file is not None:
            return file
        page = Paginator(qs, self.page_size).get_page(request.GET.get("pagina"))
        rows = [(p, p.effective_status_label(today)) for p in page.object_list]
        access = request.access  # type: ignore[attr-defined]
        return render(
            request,
            "permits/list.html",
            {
                "title": self.title,
                "rows": rows,
                "export_links": exports.links(request),
                "page": page,
                "query": query,
                "status": status,
                "line": line,
                "statuses": S.choices,
                "lines": Line.objects.all() if access.is_staff_member or access.operator else [],
                "may_apply": any(actions.may(access, j, "grant") for j in access.jurisdictions)
                or access.operator,
            },
        )


class PermitDetail(ScopedDetailView):
    model = Permit
    template_name = "permits/detail.html"
    fields: ClassVar[list[tuple[str, str]]] = [
        ("Número", "number"),
        ("Permissionário", "holder"),
        ("Espécie", "kind"),
        ("Linha", "line"),
        ("Veículo", "vehicle"),
        ("Requerida em", "applied_on"),
        ("Outorgada em", "granted_on"),
        ("Válida até", "valid_until"),
        ("Fundamento do prazo", "term_citation"),
        ("Prorrogações", "renewals"),
        ("Suspensa até", "suspended_until"),
        ("Extinta em", "ends_on"),
    ]

    def extra_context(self, obj: Any) -> dict[str, Any]:
        today = timezone.localdate()
        access = self.request.access  # type: ignore[attr-defined]
        holder = obj.holder
        party = Q(person_id=holder.person_id) if holder.person_id else Q(company_id=holder.company_id)
        staff = access.is_staff_member or access.operator
        return {
            "status_label": obj.effective_status_label(today),
            "agents": PermitAgent.objects.filter(permit=obj).select_related("person"),
            "bans": Ban.objects.filter(party) if staff else [],
            "charges": [c for c in Charge.objects.filter(holder=holder) if c.is_open(today)],
            "actions": actions.available(obj, today, access) if staff else [],
            "eligibility": obj.eligibility,
            "today": today,
            "staff": staff,
        }


def _find_person(cpf: str) -> Person:
    person: Person | None = Person.objects.filter(cpf=cpf).first()
    if person is None:
        raise ValidationError(f"Nenhuma pessoa com o CPF {cpf} no cadastro: cadastre a pessoa primeiro.")
    return person


class ApplicationCreate(LoginRequiredMixin, View):
    """Step 1 of the guided grant: the application, then the eligibility check."""

    def _allowed(self, request: HttpRequest) -> None:
        access = request.access  # type: ignore[attr-defined]
        if not (access.operator or any(actions.may(access, j, "grant") for j in access.jurisdictions)):
            raise PermissionDenied

    def get(self, request: HttpRequest) -> HttpResponse:
        if request.access.is_holder:  # type: ignore[attr-defined]
            return redirect("holder_requests:new_application")  # the holder asks through the portal
        self._allowed(request)
        initial = {"cpf": request.GET.get("cpf", "")}
        return render(
            request,
            "permits/apply.html",
            {"title": "Nova permissão", "form": ApplicationForm(initial=initial)},
        )

    def post(self, request: HttpRequest) -> HttpResponse:
        self._allowed(request)
        form = ApplicationForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                person = _find_person(data["cpf"])
                if not actions.may(request.access, person.jurisdiction_id, "grant"):  # type: ignore[attr-defined]
                    raise PermissionDenied
                holder = Holder.objects.filter(person=person).first() or registry_services.register_holder(
                    actor=request.user, person=person, reason="Requerimento de permissão."
                )
                permit = services.apply_for_permit(
                    actor=request.user,
                    holder=holder,
                    reason=data["reason"],
                    kind=data["kind"],
                    residence_since=data["residence_since"],
                    existing_operator=data["existing_operator"],
                    association_member=data["association_member"],
                    service_months=data["service_months"],
                    infraction_count=data["infraction_count"],
                    other_service=data["other_service"],
                )
                services.assess_application(
                    actor=request.user, permit=permit, reason="Verificação dos requisitos."
                )
                return redirect("permits:grant", pk=permit.pk)
            except ValidationError as error:
                for message in _errors(error):
                    form.add_error(None, message)
        return render(request, "permits/apply.html", {"title": "Nova permissão", "form": form}, status=422)


class PermitObjectView(LoginRequiredMixin, View):
    model = Permit
    action: ClassVar[str] = ""

    def get_object(self, pk: int) -> Permit:
        permit: Permit = get_object_or_404(
            Permit.objects.select_related("holder__person", "line", "vehicle"), pk=pk
        )
        return permit

    def allowed(self, permit: Permit) -> dict[str, Any]:
        today = timezone.localdate()
        access = getattr(self.request, "access")  # noqa: B009 - set by TenancyMiddleware
        return next(a for a in actions.available(permit, today, access) if a["name"] == self.action)


class GrantStep(PermitObjectView):
    """Step 2 of the guided grant: what blocks (and what unblocks it), then line, vehicle and term."""

    action = "grant"

    def _context(self, permit: Permit, form: GrantForm) -> dict[str, Any]:
        today = timezone.localdate()
        state = self.allowed(permit)
        eligibility = None
        steps: list[Step] = []
        if permit.status in Permit.OPEN:
            eligibility = check_eligibility(holder=permit.holder, on=today, application=permit)
            access = self.request.access  # type: ignore[attr-defined]
            manager = access.has_role(permit.jurisdiction_id, "gestor")
            steps = unblock_steps(eligibility, holder=permit.holder, manager=manager, on=today)
        return {
            "title": f"Outorga — {permit.holder}",
            "permit": permit,
            "form": form,
            "state": state,
            "eligibility": eligibility,
            "steps": steps,
            "blocked": eligibility is not None and not eligibility.eligible,
        }

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        permit = self.get_object(pk)
        return render(request, "permits/grant.html", self._context(permit, GrantForm()))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        permit = self.get_object(pk)
        if not self.allowed(permit)["allowed"]:
            raise PermissionDenied
        form = GrantForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                plate = normalize_plate(data["plate"])
                vehicle = Vehicle.objects.filter(plate=plate, jurisdiction_id=permit.jurisdiction_id).first()
                if vehicle is None:
                    raise ValidationError(
                        f"Placa {data['plate']} não cadastrada: cadastre o veículo primeiro."
                    )
                services.grant_permit(
                    actor=request.user,
                    permit=permit,
                    line=data["line"],
                    vehicle=vehicle,
                    reason=data["reason"],
                    number=data["number"],
                    valid_until=data["valid_until"],
                )
                permit.refresh_from_db()
                messages.success(
                    request, f"Permissão nº {permit.number} outorgada. Imprima o termo de permissão."
                )
                return redirect("permits:detail", pk=permit.pk)
            except ValidationError as error:
                for message in _errors(error):
                    form.add_error(None, message)
        return render(request, "permits/grant.html", self._context(permit, form), status=422)


class TransitionView(PermitObjectView):
    """Suspend, reinstate, revoke, withdraw, renew, transfer, add an agent — each with its reason."""

    def _render(self, request: HttpRequest, permit: Permit, form: Any, status: int = 200) -> HttpResponse:
        state = self.allowed(permit)
        return render(
            request,
            "permits/action.html",
            {"title": f"{state['label']} — {permit}", "permit": permit, "form": form, "state": state},
            status=status,
        )

    def _form(self, permit: Permit, data: Any = None) -> Any:
        form = ACTION_FORMS[self.action](data)
        if self.action == "renew":  # the council's resolution, where the law submits renewal to it
            add_resolution_field(form, permit.jurisdiction_id, ("permit.renew",))
        return form

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        permit = self.get_object(pk)
        return self._render(request, permit, self._form(permit))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        permit = self.get_object(pk)
        if not self.allowed(permit)["allowed"]:
            raise PermissionDenied
        form = self._form(permit, request.POST)
        if form.is_valid():
            try:
                run(self.action, actor=request.user, permit=permit, data=form.cleaned_data)
                messages.success(request, "Registrado.")
                return redirect("permits:detail", pk=permit.pk)
            except ValidationError as error:
                for message in _errors(error):
                    form.add_error(None, message)
        return self._render(request, permit, form, status=422)


def run(action: str, *, actor: Any, permit: Permit, data: dict[str, Any]) -> Any:
    """Call the service of a transition with the form's (or the API's) data."""
    reason = data["reason"]
    if action == "suspend":
        return services.suspend_permit(actor=actor, permit=permit, until=data["until"], reason=reason)
    if action == "reinstate":
        return services.reinstate_permit(actor=actor, permit=permit, reason=reason)
    if action == "revoke":
        return services.revoke_permit(actor=actor, permit=permit, reason=reason)
    if action == "withdraw":
        return services.withdraw_permit(
            actor=actor,
            permit=permit,
            notice_on=data["notice_on"],
            ceases_on=data["ceases_on"],
            reason=reason,
        )
    if action == "renew":
        return services.renew_permit(
            actor=actor,
            permit=permit,
            reason=reason,
            requested_on=data["requested_on"],
            approval_reference=data.get("approval_reference") or "",
            users_heard=bool(data.get("users_heard")),
            valid_until=data.get("valid_until"),
            resolution=data.get("resolution"),
        )
    if action == "transfer":
        person = _find_person(data["cpf"])
        holder = Holder.objects.filter(person=person).first() or registry_services.register_holder(
            actor=actor, person=person, reason="Novo titular por transferência."
        )
        return services.transfer_permit(
            actor=actor,
            permit=permit,
            to_holder=holder,
            cause=data["cause"],
            reason=reason,
            consent_reference=data["consent_reference"],
            event_on=data.get("event_on"),
        )
    if action == "agent":
        person = _find_person(data["cpf"])
        return services.add_agent(
            actor=actor,
            permit=permit,
            person=person,
            role=data["role"],
            reason=reason,
            starts_on=data["starts_on"],
        )
    raise Http404


class TermPdf(PermitObjectView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        permit = self.get_object(pk)
        if not permit.number or permit.vehicle is None:
            raise Http404("Permissão ainda não outorgada.")
        url = request.build_absolute_uri(reverse("public:vehicle", kwargs={"plate": permit.vehicle.plate}))
        pdf = term_pdf(permit, public_url=url, on=timezone.localdate())
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="termo-{permit.number.replace("/", "-")}.pdf"'
        return response


__all__ = [
    "ApplicationCreate",
    "GrantStep",
    "PermitDetail",
    "PermitList",
    "TermPdf",
    "TransitionView",
    "history",
]
