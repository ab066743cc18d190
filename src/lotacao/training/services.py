"""Writes of training: keyword-only, validated in Portuguese, saved and audited in one
transaction (lotacao.audit.services); status changes through `training.states`.

- `create_course`: a catalogue entry; what it satisfies comes from the pack — a required document
  (`documents.<role>`: Recife art. 7º, VI; Cabo art. 6º, § 2º, c, "em validade": the agency gives
  the validity with its act), the obligation to take part in training (`training.participation`:
  Recife art. 13, IV; Esteio art. 24, VIII; Maricá art. 40, V) or a course imposed by final
  decision (Cabo's Curso Especial de Reeducação; Maricá art. 52);
- `open_class`, `add_session`, `transition_class` (encerrar inscrições, cancelar, encerrar a turma);
- `enrol`: refused when the class is not open or full, when the person is not of the course's role
  (asked through the seam `person_roles`), when already enrolled, and, for a course imposed by a
  decision, when no such course is pending (`pending_course_requirements`);
- `record_attendance`: present or absent at one session;
- finishing the class counts the attendance against the minimum (`training.min_attendance`, an
  agency value: no law gives it) and issues the certificates: numbered, dated, valid for the
  course's months, the PDF kept as an accepted document of the person where the course stands for
  one (so `documents.selectors.document_check` counts it, with its validity), and, where the
  enrolment answers a course imposed by a decision, enforcement is told it is done
  (`course_requirement_completed`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.core.law import entry, pack_for
from lotacao.core.providers import providers
from lotacao.documents.models import Document
from lotacao.training import rules, states
from lotacao.training.models import (
    ROLE_CHOICES,
    Attendance,
    Certificate,
    Course,
    CourseClass,
    Enrolment,
    Session,
)

E = Enrolment.Status
C = CourseClass.Status
PARTICIPATION = "training.participation"


def _need(text: str, message: str) -> str:
    if not (text or "").strip():
        raise ValidationError(message)
    return text.strip()


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _citation_for(code: str, role: str, purpose: str, document_code: str, on: dt.date) -> tuple[str, Any]:
    law = pack_for(code).law
    if purpose == Course.Purpose.DOCUMENT:
        offered_items = rules.training_documents(code, role, on)
        item = next((i for i in offered_items if i.code == document_code), None)
        if item is None:
            offered = ", ".join(f"{i.label} ({i.citation})" for i in offered_items)
            raise ValidationError(
                f"A {law} não exige certificado de curso entre os documentos do "
                f"{rules.role_label(role)}"
                + (f"; os que podem ser supridos por curso: {offered}." if offered else ".")
            )
        return item.citation, item
    if purpose == Course.Purpose.OBLIGATION:
        found = entry(code, PARTICIPATION, on)
        if found is None or found.status != "value" or not found.value:
            raise ValidationError(f"A {law} não obriga a participar de programas de treinamento.")
        return found.citation, None
    if purpose == Course.Purpose.SANCTION:
        cite = rules.sanction_courses(code, on)
        if not cite:
            raise ValidationError(f"A {law} não impõe curso por decisão definitiva.")
        return cite, None
    raise ValidationError("Escolha o que o curso satisfaz.")


@transaction.atomic
def create_course(
    *,
    actor: Any,
    jurisdiction_code: str,
    name: str,
    workload_hours: int,
    role: str,
    purpose: str,
    reason: str,
    document_code: str = "",
    validity_months: int | None = None,
    validity_act: str = "",
    on: dt.date | None = None,
) -> Course:
    """A course of the catalogue, with what it satisfies and the article (from the pack)."""
    _need(reason, "Informe o motivo.")
    name = _need(name, "Informe o nome do curso.")
    day = _today(on)
    if role not in dict(ROLE_CHOICES):
        raise ValidationError("Escolha para quem é o curso.")
    if not workload_hours or int(workload_hours) < 1:
        raise ValidationError("Informe a carga horária, em horas (ao menos 1).")
    citation, item = _citation_for(jurisdiction_code, role, purpose, (document_code or "").strip(), day)
    validity_act = (validity_act or "").strip()
    if validity_months is not None and int(validity_months) < 1:
        raise ValidationError("A validade do certificado deve ser de ao menos 1 mês (ou em branco).")
    if validity_months and not validity_act:
        raise ValidationError(
            "A lei não fixa a validade do certificado: informe o ato do órgão que a fixa "
            "(portaria, resolução)."
        )
    if item is not None and item.expires and not validity_months:
        raise ValidationError(
            f"A lei exige o certificado em validade ({item.citation}) sem fixar o prazo: informe a "
            "validade, em meses, e o ato do órgão que a fixa."
        )
    course = Course(
        jurisdiction_id=jurisdiction_code,
        name=name[:200],
        workload_hours=int(workload_hours),
        validity_months=int(validity_months) if validity_months else None,
        validity_act=validity_act[:200],
        role=role,
        purpose=purpose,
        document_code=item.code if item is not None else "",
        citation=citation[:300],
    )
    return create_audited(actor=actor, instance=course, reason=reason, action="training.course_created")


@transaction.atomic
def set_course_active(*, actor: Any, course: Course, active: bool, reason: str) -> Course:
    _need(reason, "Informe o motivo.")
    course = Course.unscoped.select_for_update().get(pk=course.pk)
    if course.active == active:
        raise ValidationError("O curso já está " + ("em oferta." if active else "fora de oferta."))
    return update_audited(
        actor=actor,
        instance=course,
        changes={"active": active},
        reason=reason,
        action="training.course_updated",
    )


@transaction.atomic
def open_class(
    *,
    actor: Any,
    course: Course,
    starts_on: dt.date,
    ends_on: dt.date,
    place: str,
    capacity: int,
    instructor: str,
    reason: str,
) -> CourseClass:
    _need(reason, "Informe o motivo.")
    if not course.active:
        raise ValidationError(f"O curso {course.name} não está em oferta.")
    if starts_on is None or ends_on is None:
        raise ValidationError("Informe as datas de início e de fim da turma.")
    if ends_on < starts_on:
        raise ValidationError("O fim da turma não pode ser anterior ao início.")
    if not capacity or int(capacity) < 1:
        raise ValidationError("Informe o número de vagas (ao menos 1).")
    klass = CourseClass(
        jurisdiction_id=course.jurisdiction_id,
        course=course,
        starts_on=starts_on,
        ends_on=ends_on,
        place=_need(place, "Informe o local da turma.")[:200],
        capacity=int(capacity),
        instructor=_need(instructor, "Informe o instrutor.")[:200],
    )
    return create_audited(actor=actor, instance=klass, reason=reason, action="training.class_opened")


def _locked_class(klass: CourseClass) -> CourseClass:
    return CourseClass.unscoped.select_for_update().select_related("course").get(pk=klass.pk)


@transaction.atomic
def add_session(
    *, actor: Any, course_class: CourseClass, day: dt.date, reason: str, topic: str = ""
) -> Session:
    _need(reason, "Informe o motivo.")
    klass = _locked_class(course_class)
    if klass.status in (C.FINISHED, C.CANCELLED):
        raise ValidationError(f"A turma {states.CLASS_PHRASES[C(klass.status)]}: não cabe incluir aulas.")
    if day is None or not klass.starts_on <= day <= klass.ends_on:
        raise ValidationError(
            f"A aula deve estar entre o início ({br_date(klass.starts_on)}) e o fim "
            f"({br_date(klass.ends_on)}) da turma."
        )
    if Session.unscoped.filter(course_class=klass, day=day).exists():
        raise ValidationError(f"A turma já tem aula em {br_date(day)}.")
    session = Session(
        jurisdiction_id=klass.jurisdiction_id, course_class=klass, day=day, topic=(topic or "")[:200]
    )
    return create_audited(actor=actor, instance=session, reason=reason, action="training.session_added")


def person_roles(code: str, person: Any, on: dt.date) -> set[str]:
    roles: set[str] = set()
    for _name, provider in providers("person_roles"):
        roles |= set(provider(code=code, person=person, on=on))
    return roles


def pending_requirements(code: str, person: Any, on: dt.date) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for _name, provider in providers("pending_course_requirements"):
        found.extend(provider(code=code, person=person, on=on))
    return found


@transaction.atomic
def enrol(
    *,
    actor: Any,
    course_class: CourseClass,
    person: Any,
    reason: str,
    on: dt.date | None = None,
    requirement_id: int | None = None,
) -> Enrolment:
    """A person in a class: refused when the class is not open or full, when the person is not of
    the course's role, when already enrolled, and, for a course imposed by a decision, when none is
    pending."""
    _need(reason, "Informe o motivo.")
    day = _today(on)
    klass = _locked_class(course_class)
    course = klass.course
    if person is None:
        raise ValidationError("Informe a pessoa a inscrever.")
    if person.jurisdiction_id != klass.jurisdiction_id:
        raise ValidationError("A pessoa não está cadastrada nesta jurisdição.")
    if klass.status != C.OPEN:
        raise ValidationError(f"Não é possível inscrever: a turma {states.CLASS_PHRASES[C(klass.status)]}.")
    taken = Enrolment.unscoped.filter(course_class=klass).exclude(status=E.CANCELLED).count()
    if taken >= klass.capacity:
        raise ValidationError(f"A turma está lotada: as {klass.capacity} vagas estão preenchidas.")
    if course.role not in person_roles(klass.jurisdiction_id, person, day):
        raise ValidationError(
            f"{person.full_name} não está cadastrado como {rules.role_label(course.role)}: o curso "
            f"{course.name} é para {rules.role_label(course.role)} ({course.citation})."
        )
    same = (
        Enrolment.unscoped.filter(person=person, course_class__course=course)
        .exclude(status__in=[E.CANCELLED, E.FAILED])
        .select_related("course_class")
        .order_by("-course_class__starts_on")
        .first()
    )
    if same is not None and (same.status == E.ENROLLED or same.course_class_id == klass.pk):
        raise ValidationError(
            f"{person.full_name} já está inscrito neste curso (turma de "
            f"{br_date(same.course_class.starts_on)}, {lower_first(same.get_status_display())})."
        )
    ref: int | None = None
    if course.purpose == Course.Purpose.SANCTION:
        pending = pending_requirements(klass.jurisdiction_id, person, day)
        taken_refs = set(
            Enrolment.unscoped.filter(
                requirement_ref__in=[p for p, _ in pending], status=E.ENROLLED
            ).values_list("requirement_ref", flat=True)
        )
        open_refs = [p for p, _ in pending if p not in taken_refs]
        if requirement_id is not None:
            if int(requirement_id) not in open_refs:
                raise ValidationError("Este curso obrigatório não está pendente para esta pessoa.")
            ref = int(requirement_id)
        elif open_refs:
            ref = open_refs[0]
        else:
            raise ValidationError(
                f"{person.full_name} não tem curso obrigatório pendente por decisão definitiva: este curso "
                f"é para quem a decisão obrigou ({course.citation})."
            )
    enrolment = Enrolment(
        jurisdiction_id=klass.jurisdiction_id,
        course_class=klass,
        person=person,
        enrolled_on=day,
        requirement_ref=ref,
    )
    return create_audited(actor=actor, instance=enrolment, reason=reason, action="training.enrolled")


@transaction.atomic
def cancel_enrolment(
    *, actor: Any, enrolment: Enrolment, reason: str, on: dt.date | None = None
) -> Enrolment:
    _need(reason, "Informe o motivo do cancelamento.")
    row = Enrolment.unscoped.select_for_update().get(pk=enrolment.pk)
    states.require_enrolment(row, "cancel")
    return update_audited(
        actor=actor,
        instance=row,
        changes={"status": E.CANCELLED, "closed_on": _today(on)},
        reason=reason,
        action="training.enrolment_cancelled",
    )


@transaction.atomic
def record_attendance(
    *,
    actor: Any,
    session: Session,
    present: dict[int, bool],
    reason: str,
    today: dt.date | None = None,
) -> list[Attendance]:
    """Present or absent, per enrolment id, at one session (held on or before today)."""
    _need(reason, "Informe o motivo.")
    day = _today(today)
    session = Session.unscoped.select_related("course_class").get(pk=session.pk)
    klass = _locked_class(session.course_class)
    if klass.status in (C.FINISHED, C.CANCELLED):
        raise ValidationError(f"A turma {states.CLASS_PHRASES[C(klass.status)]}: a frequência não muda mais.")
    if session.day > day:
        raise ValidationError(f"A aula de {br_date(session.day)} ainda não aconteceu.")
    if not present:
        raise ValidationError("Marque a presença ou a falta de ao menos um inscrito.")
    enrolments = {
        e.pk: e
        for e in Enrolment.unscoped.filter(course_class=klass, pk__in=list(present)).select_related("person")
    }
    rows: list[Attendance] = []
    for pk, here in present.items():
        enrolment = enrolments.get(int(pk))
        if enrolment is None:
            raise ValidationError("Inscrição desconhecida nesta turma.")
        if enrolment.status != E.ENROLLED:
            raise ValidationError(
                f"A inscrição de {enrolment.person.full_name} "
                f"{states.ENROLMENT_PHRASES[E(enrolment.status)]}."
            )
        current = Attendance.unscoped.filter(session=session, enrolment=enrolment).first()
        if current is None:
            rows.append(
                create_audited(
                    actor=actor,
                    instance=Attendance(
                        jurisdiction_id=klass.jurisdiction_id,
                        session=session,
                        enrolment=enrolment,
                        present=bool(here),
                    ),
                    reason=reason,
                    action="training.attendance_recorded",
                )
            )
        elif current.present != bool(here):
            rows.append(
                update_audited(
                    actor=actor,
                    instance=current,
                    changes={"present": bool(here)},
                    reason=reason,
                    action="training.attendance_recorded",
                )
            )
        else:
            rows.append(current)
    return rows


@transaction.atomic
def transition_class(
    *, actor: Any, course_class: CourseClass, action: str, reason: str, on: dt.date | None = None
) -> CourseClass:
    """Close the enrolment, cancel the class, or finish it (attendance counted, certificates)."""
    _need(reason, "Informe o motivo.")
    day = _today(on)
    klass = _locked_class(course_class)
    transition = states.require_class(klass, action)
    if action == "finish":
        _finish(actor, klass, day, reason)
    if action == "cancel":
        for enrolment in Enrolment.unscoped.filter(course_class=klass, status=E.ENROLLED):
            update_audited(
                actor=actor,
                instance=enrolment,
                changes={"status": E.CANCELLED, "closed_on": day},
                reason=f"Turma cancelada: {reason}",
                action="training.enrolment_cancelled",
            )
    return update_audited(
        actor=actor,
        instance=klass,
        changes={"status": transition.target},
        reason=reason,
        action="training.class_transition",
    )


def _finish(actor: Any, klass: CourseClass, day: dt.date, reason: str) -> None:
    if day < klass.ends_on:
        raise ValidationError(f"A turma só pode ser encerrada a partir do fim, em {br_date(klass.ends_on)}.")
    sessions = list(Session.unscoped.filter(course_class=klass))
    if not sessions:
        raise ValidationError("A turma não tem aulas registradas: inclua as aulas e a frequência.")
    minimum = rules.min_attendance(klass.jurisdiction_id, day)
    if minimum.percent is None:
        raise ValidationError(f"{minimum.reason} ({minimum.citation})")
    for enrolment in Enrolment.unscoped.filter(course_class=klass, status=E.ENROLLED).select_related(
        "person"
    ):
        present = Attendance.unscoped.filter(enrolment=enrolment, present=True).count()
        percent = present * 100 // len(sessions)
        passed = percent >= minimum.percent
        update_audited(
            actor=actor,
            instance=enrolment,
            changes={
                "status": E.COMPLETED if passed else E.FAILED,
                "closed_on": day,
                "attendance_percent": percent,
                "minimum_percent": minimum.percent,
                "minimum_citation": minimum.citation[:300],
            },
            reason=(f"Frequência de {percent}% das aulas; mínimo de {minimum.percent}% ({minimum.citation})"),
            action="training.enrolment_closed",
        )
        if passed:
            issue_certificate(actor=actor, enrolment=enrolment, on=day, reason=reason)


def _number(code: str, year: int) -> str:
    count = Certificate.unscoped.filter(jurisdiction_id=code, issued_on__year=year).count()
    number = f"{count + 1:04d}/{year}"
    while Certificate.unscoped.filter(jurisdiction_id=code, number=number).exists():
        count += 1
        number = f"{count + 1:04d}/{year}"
    return number


def issue_certificate(*, actor: Any, enrolment: Enrolment, on: dt.date, reason: str) -> Certificate:
    """The certificate of a completed enrolment: numbered per year, dated, valid for the course's
    months; kept as an accepted document where the course stands for one; the course imposed by a
    decision, if any, is done."""
    from lotacao.training.pdf import certificate_pdf

    enrolment = Enrolment.unscoped.select_related("course_class__course", "person").get(pk=enrolment.pk)
    if enrolment.status != E.COMPLETED:
        raise ValidationError("Só a inscrição concluída recebe certificado.")
    if Certificate.unscoped.filter(enrolment=enrolment).exists():
        raise ValidationError("Esta inscrição já tem certificado.")
    course = enrolment.course_class.course
    code = enrolment.jurisdiction_id
    valid_until = on + relativedelta(months=course.validity_months) if course.validity_months else None
    certificate = Certificate(
        jurisdiction_id=code,
        enrolment=enrolment,
        number=_number(code, on.year),
        issued_on=on,
        valid_until=valid_until,
        citation=course.citation,
    )
    certificate = create_audited(
        actor=actor, instance=certificate, reason=reason, action="training.certificate_issued"
    )
    if course.purpose == Course.Purpose.DOCUMENT and course.document_code:
        item = rules.document_requirement(code, course.role, course.document_code, on)
        pdf = certificate_pdf(certificate)
        document = Document(
            jurisdiction_id=code,
            person=enrolment.person,
            code=course.document_code,
            label=(item.label if item is not None else course.name)[:200],
            citation=course.citation[:300],
            sensitive=False,
            content_type="application/pdf",
            size=len(pdf),
            sha256=hashlib.sha256(pdf).hexdigest(),
            original_name=f"certificado-{certificate.number.replace('/', '-')}.pdf",
            issued_on=on,
            valid_until=valid_until,
            status=Document.Status.ACCEPTED,
            reviewed_by=actor if getattr(actor, "pk", None) is not None else None,
            reviewed_at=timezone.now(),
            uploaded_by=actor if getattr(actor, "pk", None) is not None else None,
        )
        document.file.save("certificado", ContentFile(pdf), save=False)
        create_audited(
            actor=actor,
            instance=document,
            reason=f"Certificado {certificate.number} do curso {course.name}",
            action="training.certificate_document",
        )
        certificate.document = document
        certificate.save(update_fields=["document"])
    if enrolment.requirement_ref is not None:
        for _name, provider in providers("course_requirement_completed"):
            provider(
                actor=actor,
                requirement_id=enrolment.requirement_ref,
                completed_on=on,
                certificate=f"Certificado {certificate.number} — {course.name}",
                reason=f"Curso {course.name} concluído com {enrolment.attendance_percent}% de frequência",
            )
    return certificate
