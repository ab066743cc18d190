"""The screens of training (`/cursos/`, staff only): the catalogue and a course's classes, a class
with its sessions, enrolments, attendance and the buttons of its state table, and the
certificate's PDF. Rows come through the scoped managers: a row outside the user's scope is a 404."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Person
from lotacao.training import permissions, rules, services, states
from lotacao.training.models import (
    ROLE_CHOICES,
    Attendance,
    Certificate,
    Course,
    CourseClass,
    Enrolment,
    Session,
)
from lotacao.training.pdf import certificate_pdf


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _codes(request: HttpRequest, roles: tuple[str, ...]) -> list[str]:
    return permissions.jurisdictions_for(_access(request), roles)


def _require(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    if not permissions.allowed(_access(request), code, roles):
        raise PermissionDenied("Seu perfil não permite esta ação nos cursos.")


def _date(raw: str, label: str) -> dt.date:
    try:
        return dt.date.fromisoformat((raw or "").strip())
    except ValueError as error:
        raise ValidationError(f"Informe {label} (dd/mm/aaaa).") from error


def _int(raw: str, label: str, *, optional: bool = False) -> int | None:
    raw = (raw or "").strip()
    if not raw and optional:
        return None
    try:
        return int(raw)
    except ValueError as error:
        raise ValidationError(f"Informe {label} em números.") from error


class CourseList(LoginRequiredMixin, View):
    """The catalogue in scope and, for the gestor, the form of a new course."""

    def _render(self, request: HttpRequest, errors: list[str], data: Any, status: int = 200) -> HttpResponse:
        if not _codes(request, permissions.VIEW_ROLES):
            raise PermissionDenied("Seu perfil não tem acesso aos cursos.")
        today = timezone.localdate()
        can_create = _codes(request, permissions.CATALOGUE_ROLES)
        documents = {}
        for code in can_create:
            for role, _label in ROLE_CHOICES:
                for item in rules.training_documents(code, role, today):
                    documents[item.code] = f"{item.label} ({item.citation})"
        return render(
            request,
            "training/courses.html",
            {
                "title": "Cursos e capacitação",
                "rows": Course.objects.all()[:300],
                "can_create": bool(can_create),
                "jurisdictions": list(
                    Jurisdiction.objects.filter(code__in=can_create).values_list("code", "name")
                ),
                "roles": ROLE_CHOICES,
                "purposes": Course.Purpose.choices,
                "documents": sorted(documents.items()),
                "errors": errors,
                "data": data,
            },
            status=status,
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self._render(request, [], {})

    def post(self, request: HttpRequest) -> HttpResponse:
        data = request.POST
        code = data.get("jurisdicao", "")
        _require(request, code, permissions.CATALOGUE_ROLES)
        try:
            course = services.create_course(
                actor=request.user,
                jurisdiction_code=code,
                name=data.get("nome", ""),
                workload_hours=_int(data.get("carga", ""), "a carga horária") or 0,
                role=data.get("funcao", ""),
                purpose=data.get("finalidade", ""),
                document_code=data.get("documento", ""),
                validity_months=_int(data.get("validade", ""), "a validade", optional=True),
                validity_act=data.get("ato", ""),
                reason=data.get("motivo", ""),
            )
        except ValidationError as error:
            return self._render(request, error.messages, data, status=422)
        messages.success(request, "Curso incluído no catálogo.")
        return HttpResponseRedirect(reverse("training:course", args=[course.pk]))


class CourseDetail(LoginRequiredMixin, View):
    model = Course

    def _render(
        self, request: HttpRequest, course: Course, errors: list[str], status: int = 200
    ) -> HttpResponse:
        _require(request, course.jurisdiction_id, permissions.VIEW_ROLES)
        return render(
            request,
            "training/course.html",
            {
                "title": course.name,
                "course": course,
                "classes": course.classes.all(),
                "can_open": permissions.allowed(
                    _access(request), course.jurisdiction_id, permissions.RECORD_ROLES
                ),
                "events": history(course)[:20],
                "errors": errors,
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, get_object_or_404(Course.objects.all(), pk=pk), [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        course = get_object_or_404(Course.objects.all(), pk=pk)
        _require(request, course.jurisdiction_id, permissions.RECORD_ROLES)
        data = request.POST
        try:
            klass = services.open_class(
                actor=request.user,
                course=course,
                starts_on=_date(data.get("inicio", ""), "o início"),
                ends_on=_date(data.get("fim", ""), "o fim"),
                place=data.get("local", ""),
                capacity=_int(data.get("vagas", ""), "as vagas") or 0,
                instructor=data.get("instrutor", ""),
                reason=data.get("motivo", ""),
            )
        except ValidationError as error:
            return self._render(request, course, error.messages, status=422)
        messages.success(request, "Turma aberta.")
        return HttpResponseRedirect(reverse("training:class", args=[klass.pk]))


class ClassDetail(LoginRequiredMixin, View):
    """A class: its sessions and attendance, the enrolments, and the state table's buttons."""

    model = CourseClass

    def _render(
        self, request: HttpRequest, klass: CourseClass, errors: list[str], status: int = 200
    ) -> HttpResponse:
        _require(request, klass.jurisdiction_id, permissions.VIEW_ROLES)
        access = _access(request)
        roles = (
            set(permissions.RECORD_ROLES)
            if access is not None and access.operator
            else set(access.roles.get(klass.jurisdiction_id, set()) if access is not None else set())
        )
        enrolments = list(klass.enrolments.select_related("person").order_by("person__full_name"))
        certificates = {c.enrolment_id: c for c in Certificate.objects.filter(enrolment__course_class=klass)}
        sessions = list(klass.sessions.all())
        marks = {
            (a.session_id, a.enrolment_id): a.present
            for a in Attendance.objects.filter(session__course_class=klass)
        }
        grid = [
            {
                "session": s,
                "rows": [
                    {"enrolment": e, "present": marks.get((s.pk, e.pk))}
                    for e in enrolments
                    if e.status == "enrolled"
                ],
            }
            for s in sessions
        ]
        return render(
            request,
            "training/class.html",
            {
                "title": f"{klass.course.name} — turma de {klass.starts_on:%d/%m/%Y}",
                "klass": klass,
                "enrolments": [(e, certificates.get(e.pk)) for e in enrolments],
                "grid": grid,
                "actions": states.class_actions(klass, roles),
                "can_record": bool(roles & set(permissions.RECORD_ROLES))
                and klass.status in ("open", "closed"),
                "minimum": rules.min_attendance(klass.jurisdiction_id, timezone.localdate()),
                "events": history(klass)[:20],
                "errors": errors,
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(
            request, get_object_or_404(CourseClass.objects.select_related("course"), pk=pk), []
        )

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        klass = get_object_or_404(CourseClass.objects.select_related("course"), pk=pk)
        _require(request, klass.jurisdiction_id, permissions.RECORD_ROLES)
        data = request.POST
        what = data.get("acao", "")
        reason = data.get("motivo", "")
        try:
            if what == "aula":
                services.add_session(
                    actor=request.user,
                    course_class=klass,
                    day=_date(data.get("data", ""), "a data da aula"),
                    topic=data.get("conteudo", ""),
                    reason=reason,
                )
                done = "Aula incluída."
            elif what == "inscrever":
                cpf = "".join(ch for ch in data.get("cpf", "") if ch.isdigit())
                person = Person.objects.filter(jurisdiction_id=klass.jurisdiction_id, cpf=cpf).first()
                if person is None:
                    raise ValidationError("Não há pessoa cadastrada com este CPF nesta jurisdição.")
                services.enrol(actor=request.user, course_class=klass, person=person, reason=reason)
                done = "Inscrição registrada."
            elif what == "frequencia":
                session = get_object_or_404(Session.objects.all(), pk=_int(data.get("aula", ""), "a aula"))
                if session.course_class_id != klass.pk:
                    raise ValidationError("Aula desconhecida nesta turma.")
                present = {
                    e.pk: data.get(f"presente-{e.pk}") == "1"
                    for e in klass.enrolments.filter(status=Enrolment.Status.ENROLLED)
                }
                services.record_attendance(
                    actor=request.user, session=session, present=present, reason=reason
                )
                done = "Frequência registrada."
            elif what == "cancelar_inscricao":
                enrolment = get_object_or_404(
                    Enrolment.objects.filter(course_class=klass),
                    pk=_int(data.get("inscricao", ""), "a inscrição"),
                )
                services.cancel_enrolment(actor=request.user, enrolment=enrolment, reason=reason)
                done = "Inscrição cancelada."
            elif what in states.CLASS_BY_NAME:
                services.transition_class(actor=request.user, course_class=klass, action=what, reason=reason)
                done = "Situação da turma alterada."
            else:
                raise ValidationError("Ação desconhecida.")
        except ValidationError as error:
            return self._render(request, klass, error.messages, status=422)
        messages.success(request, done)
        return HttpResponseRedirect(reverse("training:class", args=[klass.pk]))


class CertificatePdf(LoginRequiredMixin, View):
    model = Certificate

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        certificate = get_object_or_404(
            Certificate.objects.select_related("enrolment__person", "enrolment__course_class__course"), pk=pk
        )
        _require(request, certificate.jurisdiction_id, permissions.VIEW_ROLES)
        response = HttpResponse(certificate_pdf(certificate), content_type="application/pdf")
        name = certificate.number.replace("/", "-")
        response["Content-Disposition"] = f'inline; filename="certificado-{name}.pdf"'
        return response
