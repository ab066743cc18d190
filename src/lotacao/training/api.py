"""The training API, mounted by lotacao.api.main at `/training`.

- `GET /training/courses`: the catalogue in the user's scope, with what each course satisfies;
- `GET /training/classes/{id}`: a class with its enrolments;
- `POST /training/classes/{id}/enrolments`: enrol a person by CPF (201), refused with a 422 and
  the Portuguese reason (full, not of the role, already enrolled, class not open);
- `GET /training/certificates/{number}`: a certificate by its number (`0001-2026`).
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from lotacao.registry.models import Person
from lotacao.training import permissions, services
from lotacao.training.models import Certificate, Course, CourseClass, Enrolment

router = Router(tags=["cursos"])


class CourseOut(Schema):
    id: int
    name: str
    workload_hours: int
    validity_months: int | None
    role: str
    role_label: str
    purpose: str
    purpose_label: str
    document_code: str
    citation: str
    active: bool


class EnrolmentOut(Schema):
    id: int
    person: str
    status: str
    status_label: str
    attendance_percent: int | None
    certificate: str | None


class ClassOut(Schema):
    id: int
    course: CourseOut
    starts_on: dt.date
    ends_on: dt.date
    place: str
    capacity: int
    instructor: str
    status: str
    status_label: str
    enrolments: list[EnrolmentOut]


class EnrolIn(Schema):
    cpf: str
    reason: str = "Inscrição pela API"


class CertificateOut(Schema):
    number: str
    person: str
    course: str
    issued_on: dt.date
    valid_until: dt.date | None
    citation: str


def _access(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    if not permissions.allowed(getattr(request, "access", None), code, roles):
        raise HttpError(403, "Seu perfil não permite esta operação de cursos.")


def _course_out(course: Course) -> CourseOut:
    return CourseOut(
        id=course.pk,
        name=course.name,
        workload_hours=course.workload_hours,
        validity_months=course.validity_months,
        role=course.role,
        role_label=course.get_role_display(),
        purpose=course.purpose,
        purpose_label=course.get_purpose_display(),
        document_code=course.document_code,
        citation=course.citation,
        active=course.active,
    )


def _enrolment_out(enrolment: Enrolment) -> EnrolmentOut:
    certificate = Certificate.objects.filter(enrolment=enrolment).first()
    return EnrolmentOut(
        id=enrolment.pk,
        person=enrolment.person.full_name,
        status=enrolment.status,
        status_label=enrolment.get_status_display(),
        attendance_percent=enrolment.attendance_percent,
        certificate=certificate.number if certificate else None,
    )


def _class_out(klass: CourseClass) -> ClassOut:
    return ClassOut(
        id=klass.pk,
        course=_course_out(klass.course),
        starts_on=klass.starts_on,
        ends_on=klass.ends_on,
        place=klass.place,
        capacity=klass.capacity,
        instructor=klass.instructor,
        status=klass.status,
        status_label=klass.get_status_display(),
        enrolments=[_enrolment_out(e) for e in klass.enrolments.select_related("person")],
    )


@router.get("/courses", response=list[CourseOut])
def list_courses(request: HttpRequest) -> list[CourseOut]:
    codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.VIEW_ROLES)
    return [_course_out(c) for c in Course.objects.filter(jurisdiction_id__in=codes)[:300]]


@router.get("/classes/{class_id}", response=ClassOut)
def get_class(request: HttpRequest, class_id: int) -> ClassOut:
    klass = get_object_or_404(CourseClass.objects.select_related("course"), pk=class_id)
    _access(request, klass.jurisdiction_id, permissions.VIEW_ROLES)
    return _class_out(klass)


@router.post("/classes/{class_id}/enrolments", response={201: EnrolmentOut})
def enrol(request: HttpRequest, class_id: int, payload: EnrolIn) -> tuple[int, EnrolmentOut]:
    klass = get_object_or_404(CourseClass.objects.select_related("course"), pk=class_id)
    _access(request, klass.jurisdiction_id, permissions.RECORD_ROLES)
    cpf = "".join(ch for ch in payload.cpf if ch.isdigit())
    person = Person.objects.filter(jurisdiction_id=klass.jurisdiction_id, cpf=cpf).first()
    if person is None:
        raise ValidationError("Não há pessoa cadastrada com este CPF nesta jurisdição.")
    enrolment = services.enrol(actor=request.user, course_class=klass, person=person, reason=payload.reason)
    return Status(201, _enrolment_out(enrolment))  # type: ignore[return-value]


@router.get("/certificates/{number}", response=CertificateOut)
def get_certificate(request: HttpRequest, number: str) -> CertificateOut:
    certificate = get_object_or_404(
        Certificate.objects.select_related("enrolment__person", "enrolment__course_class__course"),
        number=number.replace("-", "/"),
    )
    _access(request, certificate.jurisdiction_id, permissions.VIEW_ROLES)
    return CertificateOut(
        number=certificate.number,
        person=certificate.enrolment.person.full_name,
        course=certificate.enrolment.course_class.course.name,
        issued_on=certificate.issued_on,
        valid_until=certificate.valid_until,
        citation=certificate.citation,
    )
