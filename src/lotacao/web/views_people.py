"""Clerks' screens for people: create and edit persons, companies/associations/cooperatives,
line representatives; the person's page with documents (valid, expiring, missing).

Every write goes through lotacao.registry.services (validated, audited). Objects are looked up
through the scoped managers (404 outside the user's scope); writing needs gestor or atendente.

They live at the edge because a person's and a company's page put the registry's record beside
the documents app's (the registry, below both, only lists); their URLs (lotacao.web.urls_people,
namespace `people`) keep their paths under /cadastro/.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.views_base import ScopedDetailView, ScopedListView
from lotacao.core import law
from lotacao.core.models import Jurisdiction
from lotacao.core.text import fold
from lotacao.documents import permissions as document_permissions
from lotacao.documents.summary import person_documents
from lotacao.registry import services
from lotacao.registry.forms import CompanyForm, PersonForm, RepresentativeForm
from lotacao.registry.models import POSITION_LABELS, Company, Line, LineRepresentative, Person
from lotacao.registry.views import PersonDetail

WRITE_ROLES = ("gestor", "atendente")


def can_write(request: HttpRequest, jurisdiction: str) -> bool:
    access = getattr(request, "access", None)
    return bool(access is not None and (access.operator or access.has_role(jurisdiction, *WRITE_ROLES)))


def writable_jurisdictions(request: HttpRequest) -> list[Jurisdiction]:
    access = getattr(request, "access", None)
    if access is None:
        return []
    qs = Jurisdiction.objects.order_by("name")
    if access.operator:
        return list(qs)
    return [j for j in qs.filter(code__in=list(access.roles)) if access.has_role(j.code, *WRITE_ROLES)]


def _errors(form: Any, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


class ObjectWriteView(LoginRequiredMixin, View):
    """A screen that acts on one object found through the scoped manager."""

    model: ClassVar[type[models.Model]]

    def get_object(self, pk: int) -> Any:
        obj: Any = get_object_or_404(self.model._default_manager.all(), pk=pk)
        if not can_write(self.request, obj.jurisdiction_id):
            raise PermissionDenied("Seu perfil não permite alterar este cadastro.")
        return obj


# ------------------------------------------------------------------------------------- persons


class PersonFile(PersonDetail):
    """The person's page: registration, documents (valid, expiring, missing) and history."""

    template_name = "people/person_file.html"
    fields = [
        *PersonDetail.fields,
        ("Endereço", "address_display"),
        ("Reside no município desde", "residence_since"),
    ]

    def extra_context(self, obj: Any) -> dict[str, Any]:
        access = getattr(self.request, "access", None)
        show_documents = document_permissions.can_view(access, obj.jurisdiction_id)
        return {
            "can_edit": can_write(self.request, obj.jurisdiction_id),
            "show_documents": show_documents,
            "documents": person_documents(obj, timezone.localdate()) if show_documents else None,
            **person_records(obj),
        }


def person_records(person: Person) -> dict[str, Any]:
    """What the person is in the system, each through the scoped managers (a holder sees their
    own): roles (holder, permit agent, line representative), permits, vehicles, notices (as holder
    or as the agent named), fines."""
    from lotacao.enforcement.models import Fine, InfractionNotice
    from lotacao.permits.models import Permit, PermitAgent
    from lotacao.registry.models import Holder, Vehicle

    holders = list(Holder.objects.filter(person=person))
    roles: list[dict[str, Any]] = [
        {"label": "Permissionário", "detail": "", "url": reverse("registry:holder", args=[h.pk])}
        for h in holders
    ]
    for agent in PermitAgent.objects.filter(person=person).select_related("permit").order_by("-starts_on"):
        until = f" até {agent.ends_on:%d/%m/%Y}" if agent.ends_on else ""
        roles.append(
            {
                "label": agent.get_role_display(),
                "detail": f"{agent.permit}, desde {agent.starts_on:%d/%m/%Y}{until}",
                "url": reverse("permits:detail", args=[agent.permit_id]),
            }
        )
    for position in LineRepresentative.objects.filter(person=person).select_related("line"):
        roles.append(
            {
                "label": position.position_label,
                "detail": str(position.line),
                "url": reverse("lines:line", args=[position.line_id]),
            }
        )
    permits = Permit.objects.filter(holder__in=holders).select_related("line", "vehicle").order_by("-id")
    notices = (
        InfractionNotice.objects.filter(models.Q(holder__in=holders) | models.Q(agent=person))
        .order_by("-drawn_up_at")
    )
    fines = Fine.objects.filter(notice__in=notices).select_related("notice").order_by("-id")
    return {
        "roles": roles,
        "permits": list(permits[:50]),
        "vehicles": list(Vehicle.objects.filter(holder__in=holders)[:50]),
        "notices": list(notices[:50]),
        "fines": list(fines[:50]),
    }


class PersonCreate(LoginRequiredMixin, View):
    def get_form(self, data: Any = None) -> PersonForm:
        return PersonForm(data)

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render(request, self.get_form())

    def render(self, request: HttpRequest, form: PersonForm) -> HttpResponse:
        jurisdictions = writable_jurisdictions(request)
        if not jurisdictions:
            raise PermissionDenied("Seu perfil não permite cadastrar pessoas.")
        return render(
            request,
            "people/person_form.html",
            {"form": form, "title": "Nova pessoa", "jurisdictions": jurisdictions},
        )

    def post(self, request: HttpRequest) -> HttpResponse:
        jurisdictions = {j.code: j for j in writable_jurisdictions(request)}
        if not jurisdictions:
            raise PermissionDenied("Seu perfil não permite cadastrar pessoas.")
        form = self.get_form(request.POST)
        code = request.POST.get("jurisdiction") or next(iter(jurisdictions))
        if code not in jurisdictions:
            raise PermissionDenied("Jurisdição fora do seu perfil.")
        if form.is_valid():
            fields = form.person_fields()
            try:
                person = services.create_person(
                    actor=request.user,
                    jurisdiction=jurisdictions[code],
                    cpf=fields.pop("cpf"),
                    full_name=fields.pop("full_name"),
                    reason=form.cleaned_data["reason"],
                    **fields,
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, f"Cadastro de {person} salvo.")
                return redirect("people:person", person.pk)
        return self.render(request, form)


class PersonEdit(ObjectWriteView):
    model = Person

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        person = self.get_object(pk)
        initial = {name: getattr(person, name) for name in PersonForm.base_fields if name != "reason"}
        initial["cpf"] = person.cpf_display
        initial["reason"] = "Atualização cadastral"
        return self.render(request, person, PersonForm(initial=initial))

    def render(self, request: HttpRequest, person: Person, form: PersonForm) -> HttpResponse:
        return render(
            request,
            "people/person_form.html",
            {"form": form, "title": f"Editar {person}", "person": person},
        )

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        person = self.get_object(pk)
        form = PersonForm(request.POST)
        if form.is_valid():
            fields = form.person_fields()
            if re.sub(r"\D", "", fields["cpf"]) == person.cpf:
                fields.pop("cpf")
            try:
                services.update_person(
                    actor=request.user, person=person, changes=fields, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Cadastro atualizado.")
                return redirect("people:person", person.pk)
        return self.render(request, person, form)


# ----------------------------------------------------------------------------------- companies


class CompanyList(ScopedListView):
    model = Company
    title = "Pessoas jurídicas, associações e cooperativas"
    columns = [("Razão social", "legal_name"), ("CNPJ", "cnpj_display"), ("Natureza", "kind")]
    search_fields = ["name_search__contains"]  # razão social and nome fantasia, folded
    document_search_fields = ["cnpj__startswith"]
    search_help = "Razão social, nome fantasia (com ou sem acento) ou CNPJ"
    detail_url_name = "people:company"
    export_stem = "pessoas-juridicas"

    def normalize_query(self, query: str) -> list[str]:
        return [fold(query)]


class CompanyDetail(ScopedDetailView):
    model = Company
    template_name = "people/company_detail.html"
    fields = [
        ("Razão social", "legal_name"),
        ("Nome fantasia", "trade_name"),
        ("CNPJ", "cnpj_display"),
        ("Natureza", "kind"),
        ("E-mail", "email"),
        ("Telefone", "phone"),
        ("Município", "city"),
    ]

    def extra_context(self, obj: Any) -> dict[str, Any]:
        from lotacao.documents.models import Document

        return {
            "representatives": LineRepresentative.objects.filter(organization=obj).select_related(
                "person", "line"
            ),
            "documents": Document.objects.filter(company=obj),
        }


class CompanyCreate(LoginRequiredMixin, View):
    def render(self, request: HttpRequest, form: CompanyForm) -> HttpResponse:
        jurisdictions = writable_jurisdictions(request)
        if not jurisdictions:
            raise PermissionDenied("Seu perfil não permite cadastrar pessoas jurídicas.")
        return render(
            request,
            "people/company_form.html",
            {"form": form, "title": "Nova pessoa jurídica", "jurisdictions": jurisdictions},
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render(request, CompanyForm())

    def post(self, request: HttpRequest) -> HttpResponse:
        jurisdictions = {j.code: j for j in writable_jurisdictions(request)}
        if not jurisdictions:
            raise PermissionDenied("Seu perfil não permite cadastrar pessoas jurídicas.")
        code = request.POST.get("jurisdiction") or next(iter(jurisdictions))
        if code not in jurisdictions:
            raise PermissionDenied("Jurisdição fora do seu perfil.")
        form = CompanyForm(request.POST)
        if form.is_valid():
            data = dict(form.cleaned_data)
            reason = data.pop("reason")
            try:
                company = services.create_company(
                    actor=request.user,
                    jurisdiction=jurisdictions[code],
                    cnpj=data.pop("cnpj"),
                    legal_name=data.pop("legal_name"),
                    reason=reason,
                    **data,
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, f"{company} cadastrada.")
                return redirect("people:company", company.pk)
        return self.render(request, form)


# ----------------------------------------------------------------------------- representatives


class LineRepresentatives(ObjectWriteView):
    """The representatives of a line (who the permit holders elected), and a form to add one."""

    model = Line

    def get_object(self, pk: int) -> Any:
        return get_object_or_404(Line.objects.all(), pk=pk)

    def positions(self, line: Line) -> tuple[list[tuple[str, str]], str, str | None]:
        day = timezone.localdate()
        values = law.value(line.jurisdiction_id, services.REPRESENTATIVES_PARAMETER, day) or {}
        cite = law.citation(line.jurisdiction_id, services.REPRESENTATIVES_PARAMETER, day)
        choices = [(p, f"{POSITION_LABELS.get(p, p)} (até {n})") for p, n in values.items()]
        undefined = None if values else "A lei desta jurisdição não prevê representantes de linha."
        return choices, cite, undefined

    def render(self, request: HttpRequest, line: Line, form: RepresentativeForm | None) -> HttpResponse:
        choices, cite, undefined = self.positions(line)
        return render(
            request,
            "people/line_representatives.html",
            {
                "title": f"Representantes da linha {line.code}",
                "line": line,
                "representatives": LineRepresentative.objects.filter(line=line).select_related(
                    "person", "organization"
                ),
                "form": form if choices and can_write(request, line.jurisdiction_id) else None,
                "citation": cite,
                "undefined": undefined,
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_object(pk)
        choices, _, _ = self.positions(line)
        form = RepresentativeForm(positions=choices, initial={"term_start": timezone.localdate()})
        return self.render(request, line, form)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_object(pk)
        if not can_write(request, line.jurisdiction_id):
            raise PermissionDenied("Seu perfil não permite alterar representantes.")
        choices, _, _ = self.positions(line)
        form = RepresentativeForm(request.POST, positions=choices)
        if form.is_valid():
            data = form.cleaned_data
            try:
                person = _person_by_cpf(data["cpf"])
                cnpj = data["organization_cnpj"]
                organization = _company_by_cnpj(cnpj) if cnpj else None
                services.add_line_representative(
                    actor=request.user,
                    line=line,
                    person=person,
                    organization=organization,
                    position=data["position"],
                    term_start=data["term_start"],
                    reason=data["reason"],
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Representante registrado.")
                return redirect("people:line_representatives", line.pk)
        return self.render(request, line, form)


def _person_by_cpf(cpf: str) -> Person:
    digits = re.sub(r"\D", "", cpf)
    person: Person | None = Person.objects.filter(cpf=digits).first()
    if person is None:
        raise ValidationError(f"Nenhuma pessoa com o CPF {cpf} — cadastre-a antes.")
    return person


def _company_by_cnpj(cnpj: str) -> Company:
    digits = re.sub(r"\D", "", cnpj)
    company: Company | None = Company.objects.filter(cnpj=digits).first()
    if company is None:
        raise ValidationError(f"Nenhuma associação ou cooperativa com o CNPJ {cnpj} — cadastre-a antes.")
    return company
