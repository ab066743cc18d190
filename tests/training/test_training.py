"""Training, end to end per law: the catalogue, a class, enrolment and its refusals, attendance,
the minimum attendance (an agency value), the certificate that counts as the required document
(Recife art. 7º, VI; Cabo art. 6º, § 2º, c) and the course a final decision imposed (Cabo's
Curso Especial de Reeducação; Maricá art. 52)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.documents.selectors import document_check
from lotacao.training import services
from lotacao.training.models import Certificate, Course, Enrolment
from tests.clock import today
from tests.training.conftest import notice_for, set_value


def _class(actor: Any, course: Course, capacity: int = 2, days: int = 2) -> Any:
    start = today() - dt.timedelta(days=10)
    klass = services.open_class(
        actor=actor,
        course=course,
        starts_on=start,
        ends_on=start + dt.timedelta(days=days - 1),
        place="Centro de Formação",
        capacity=capacity,
        instructor="Ana Instrutora",
        reason="turma do semestre",
    )
    for n in range(days):
        services.add_session(actor=actor, course_class=klass, day=start + dt.timedelta(days=n), reason="aula")
    return klass


def _attend(actor: Any, klass: Any, present: dict[Any, list[bool]]) -> None:
    for n, session in enumerate(klass.sessions.order_by("day")):
        services.record_attendance(
            actor=actor,
            session=session,
            present={e.pk: marks[n] for e, marks in present.items()},
            reason="chamada",
        )


def test_recife_certificate_satisfies_art_7_vi(place: Any) -> None:
    r = place("recife")
    gestor, person = r["gestor"], r["person"]
    before = document_check(jurisdiction_code="recife", role="holder", person=person, on=today())
    assert "training_certificate" in before.missing
    course = services.create_course(
        actor=gestor,
        jurisdiction_code="recife",
        name="Capacitação de permissionários",
        workload_hours=20,
        role="holder",
        purpose=Course.Purpose.DOCUMENT,
        document_code="training_certificate",
        reason="curso definido pelo Poder Público Municipal",
    )
    assert course.citation.endswith("art. 7º, VI")
    klass = _class(gestor, course)
    enrolment = services.enrol(actor=gestor, course_class=klass, person=person, reason="inscrição")
    _attend(gestor, klass, {enrolment: [True, False]})
    with pytest.raises(ValidationError, match="frequência mínima não está definida"):
        services.transition_class(actor=gestor, course_class=klass, action="finish", reason="fim")
    set_value("recife", "training.min_attendance", 50)
    services.transition_class(actor=gestor, course_class=klass, action="finish", reason="fim")
    enrolment.refresh_from_db()
    assert enrolment.status == Enrolment.Status.COMPLETED and enrolment.attendance_percent == 50
    certificate = Certificate.objects.get(enrolment=enrolment)
    assert certificate.number == f"0001/{today().year}" and certificate.valid_until is None
    assert certificate.document is not None and certificate.document.status == "aceito"
    assert certificate.document.file.read(5) == b"%PDF-"
    after = document_check(jurisdiction_code="recife", role="holder", person=person, on=today())
    assert "training_certificate" not in after.missing + after.pending + after.expired
    assert AuditEvent.objects.filter(action="training.certificate_issued").count() == 1
    # the class is finished: no one else enrols, attendance no longer changes
    with pytest.raises(ValidationError, match="já foi encerrada"):
        services.enrol(actor=gestor, course_class=klass, person=r["stranger"], reason="x")


def test_recife_art_13_iv_participation_and_below_minimum_fails(place: Any) -> None:
    r = place("recife")
    gestor = r["gestor"]
    set_value("recife", "training.min_attendance", 75)
    course = services.create_course(
        actor=gestor,
        jurisdiction_code="recife",
        name="Programa de treinamento do pessoal de operação",
        workload_hours=8,
        role="holder",
        purpose=Course.Purpose.OBLIGATION,
        reason="programa anual",
    )
    assert course.citation.endswith("art. 13, IV")
    klass = _class(gestor, course)
    enrolment = services.enrol(actor=gestor, course_class=klass, person=r["person"], reason="inscrição")
    _attend(gestor, klass, {enrolment: [True, False]})
    services.transition_class(actor=gestor, course_class=klass, action="finish", reason="fim")
    enrolment.refresh_from_db()
    assert enrolment.status == Enrolment.Status.FAILED
    assert not Certificate.objects.filter(enrolment=enrolment).exists()


def test_enrolment_refusals(place: Any, world: Any) -> None:
    r = place("recife")
    gestor = r["gestor"]
    course = services.create_course(
        actor=gestor,
        jurisdiction_code="recife",
        name="Capacitação",
        workload_hours=20,
        role="holder",
        purpose=Course.Purpose.DOCUMENT,
        document_code="training_certificate",
        reason="curso",
    )
    klass = _class(gestor, course, capacity=2)
    with pytest.raises(ValidationError, match="não está cadastrado como permissionário"):
        services.enrol(actor=gestor, course_class=klass, person=r["stranger"], reason="x")
    services.enrol(actor=gestor, course_class=klass, person=r["person"], reason="inscrição")
    with pytest.raises(ValidationError, match="já está inscrito"):
        services.enrol(actor=gestor, course_class=klass, person=r["person"], reason="de novo")
    other = (
        world.objects["recife"]["registry.holder"]
        .__class__.objects.filter(jurisdiction=r["j"])
        .exclude(pk=r["holder"].pk)[0]
    )
    services.enrol(actor=gestor, course_class=klass, person=other.person, reason="inscrição")
    from lotacao.registry import services as registry

    third = registry.register_holder(actor=None, person=r["stranger"], reason="teste")
    with pytest.raises(ValidationError, match="lotada"):
        services.enrol(actor=gestor, course_class=klass, person=third.person, reason="x")
    with pytest.raises(ValidationError, match="não está cadastrada nesta jurisdição"):
        services.enrol(
            actor=gestor, course_class=klass, person=world.objects["esteio"]["registry.person"], reason="x"
        )
    with pytest.raises(ValidationError, match="Informe o motivo"):
        services.enrol(actor=gestor, course_class=klass, person=third.person, reason=" ")
    services.transition_class(actor=gestor, course_class=klass, action="close_enrolment", reason="encerradas")
    with pytest.raises(ValidationError, match="inscrições encerradas"):
        services.enrol(actor=gestor, course_class=klass, person=third.person, reason="x")


def test_catalogue_refusals(place: Any) -> None:
    r = place("recife")
    gestor = r["gestor"]
    base = {
        "actor": gestor,
        "jurisdiction_code": "recife",
        "name": "Curso",
        "workload_hours": 10,
        "reason": "x",
    }
    with pytest.raises(ValidationError, match="não impõe curso por decisão definitiva"):
        services.create_course(**base, role="holder", purpose=Course.Purpose.SANCTION)
    with pytest.raises(ValidationError, match="não exige certificado de curso"):
        services.create_course(**base, role="holder", purpose=Course.Purpose.DOCUMENT, document_code="cnh")
    with pytest.raises(ValidationError, match="ato do órgão"):
        services.create_course(**base, role="holder", purpose=Course.Purpose.OBLIGATION, validity_months=12)
    with pytest.raises(ValidationError, match="carga horária"):
        services.create_course(
            **{**base, "workload_hours": 0}, role="holder", purpose=Course.Purpose.OBLIGATION
        )
    assert not Course.objects.filter(name="Curso").exists()


def test_esteio_art_24_viii_course_for_the_staff(place: Any) -> None:
    e = place("esteio")
    course = services.create_course(
        actor=e["gestor"],
        jurisdiction_code="esteio",
        name="Qualificação técnica de cobradores",
        workload_hours=16,
        role="fare_collector",
        purpose=Course.Purpose.OBLIGATION,
        reason="curso profissionalizante",
    )
    assert course.citation.endswith("art. 24, VIII")
    with pytest.raises(ValidationError, match="não exige certificado"):
        services.create_course(
            actor=e["gestor"],
            jurisdiction_code="esteio",
            name="x",
            workload_hours=1,
            role="holder",
            purpose=Course.Purpose.DOCUMENT,
            document_code="training_certificate",
            reason="x",
        )
    klass = _class(e["gestor"], course)
    with pytest.raises(ValidationError, match="não está cadastrado como cobrador"):
        services.enrol(actor=e["gestor"], course_class=klass, person=e["person"], reason="x")


def test_cabo_certificate_in_validity_and_reeducation_course(place: Any) -> None:
    c = place("cabo")
    gestor, person = c["gestor"], c["person"]
    base = {
        "actor": gestor,
        "jurisdiction_code": "cabo",
        "name": "Treinamento de condutores",
        "workload_hours": 30,
        "role": "holder",
        "purpose": Course.Purpose.DOCUMENT,
        "document_code": "training_certificate",
        "reason": "curso definido pela Secretaria",
    }
    with pytest.raises(ValidationError, match="em validade"):
        services.create_course(**base)
    course = services.create_course(**base, validity_months=24, validity_act="Portaria SESP nº 3/2024")
    assert course.citation.endswith("art. 6º, § 2º, c")
    set_value("cabo", "training.min_attendance", 100)
    klass = _class(gestor, course)
    enrolment = services.enrol(actor=gestor, course_class=klass, person=person, reason="inscrição")
    _attend(gestor, klass, {enrolment: [True, True]})
    services.transition_class(actor=gestor, course_class=klass, action="finish", reason="fim")
    certificate = Certificate.objects.get(enrolment=enrolment)
    assert certificate.valid_until == today() + dt.timedelta(days=0) + _months(24)
    ok = document_check(jurisdiction_code="cabo", role="holder", person=person, on=today())
    assert "training_certificate" not in ok.missing + ok.expired
    assert ok.valid_until["training_certificate"] == certificate.valid_until
    late = document_check(
        jurisdiction_code="cabo",
        role="holder",
        person=person,
        on=certificate.valid_until + dt.timedelta(days=1),
    )
    assert "training_certificate" in late.expired
    # Curso Especial de Reeducação at 100 points: enrolment and completion fulfil the sanction
    from lotacao.enforcement.models import CourseRequirement

    reeducation = services.create_course(
        actor=gestor,
        jurisdiction_code="cabo",
        name="Curso Especial de Reeducação",
        workload_hours=12,
        role="holder",
        purpose=Course.Purpose.SANCTION,
        reason="curso de reeducação",
    )
    klass2 = _class(gestor, reeducation)
    with pytest.raises(ValidationError, match="não tem curso obrigatório pendente"):
        services.enrol(actor=gestor, course_class=klass2, person=person, reason="x")
    requirement = CourseRequirement.objects.create(
        jurisdiction=c["j"],
        notice=notice_for(c["j"], c["holder"]),
        holder=c["holder"],
        person=person,
        required_on=today() - dt.timedelta(days=20),
        blocks_operation=True,
        citation="Lei Municipal 2.019/2002 (Cabo de Santo Agostinho), art. 28",
    )
    enrolment2 = services.enrol(actor=gestor, course_class=klass2, person=person, reason="cumprir a decisão")
    assert enrolment2.requirement_ref == requirement.pk
    _attend(gestor, klass2, {enrolment2: [True, True]})
    services.transition_class(actor=gestor, course_class=klass2, action="finish", reason="fim")
    requirement.refresh_from_db()
    assert requirement.completed_on == today() and "Curso Especial de Reeducação" in requirement.certificate


def _months(n: int) -> Any:
    from dateutil.relativedelta import relativedelta

    return relativedelta(months=n)


def test_marica_art_40_v_and_art_52_update_course(place: Any) -> None:
    m = place("marica")
    gestor, person = m["gestor"], m["person"]
    participation = services.create_course(
        actor=gestor,
        jurisdiction_code="marica",
        name="Treinamento do pessoal de operação",
        workload_hours=8,
        role="holder",
        purpose=Course.Purpose.OBLIGATION,
        reason="programa",
    )
    assert participation.citation.endswith("art. 40, V")
    update = services.create_course(
        actor=gestor,
        jurisdiction_code="marica",
        name="Curso de atualização",
        workload_hours=8,
        role="holder",
        purpose=Course.Purpose.SANCTION,
        reason="art. 52",
    )
    assert update.citation.endswith("art. 52")
    from lotacao.enforcement.models import CourseRequirement

    requirement = CourseRequirement.objects.create(
        jurisdiction=m["j"],
        notice=notice_for(m["j"], m["holder"]),
        holder=m["holder"],
        required_on=today() - dt.timedelta(days=30),
        citation="art. 52",
    )
    set_value("marica", "training.min_attendance", 75)
    klass = _class(gestor, update, days=4)
    enrolment = services.enrol(actor=gestor, course_class=klass, person=person, reason="art. 52")
    assert enrolment.requirement_ref == requirement.pk
    _attend(gestor, klass, {enrolment: [True, True, True, False]})
    services.transition_class(actor=gestor, course_class=klass, action="finish", reason="fim")
    requirement.refresh_from_db()
    assert requirement.completed_on == today()
    assert Certificate.objects.get(enrolment=enrolment).document is None  # not a required document


def test_class_and_session_refusals(place: Any) -> None:
    r = place("recife")
    gestor = r["gestor"]
    course = services.create_course(
        actor=gestor,
        jurisdiction_code="recife",
        name="Capacitação",
        workload_hours=20,
        role="holder",
        purpose=Course.Purpose.OBLIGATION,
        reason="curso",
    )
    with pytest.raises(ValidationError, match="anterior ao início"):
        services.open_class(
            actor=gestor,
            course=course,
            starts_on=today(),
            ends_on=today() - dt.timedelta(days=1),
            place="x",
            capacity=1,
            instructor="y",
            reason="x",
        )
    klass = services.open_class(
        actor=gestor,
        course=course,
        starts_on=today(),
        ends_on=today() + dt.timedelta(days=3),
        place="Sala 1",
        capacity=5,
        instructor="Instrutor",
        reason="x",
    )
    with pytest.raises(ValidationError, match="entre o início"):
        services.add_session(actor=gestor, course_class=klass, day=today() + dt.timedelta(days=9), reason="x")
    session = services.add_session(
        actor=gestor, course_class=klass, day=today() + dt.timedelta(days=1), reason="x"
    )
    with pytest.raises(ValidationError, match="já tem aula"):
        services.add_session(actor=gestor, course_class=klass, day=today() + dt.timedelta(days=1), reason="x")
    enrolment = services.enrol(actor=gestor, course_class=klass, person=r["person"], reason="x")
    with pytest.raises(ValidationError, match="ainda não aconteceu"):
        services.record_attendance(actor=gestor, session=session, present={enrolment.pk: True}, reason="x")
    with pytest.raises(ValidationError, match="só pode ser encerrada a partir do fim"):
        services.transition_class(actor=gestor, course_class=klass, action="finish", reason="x")
    services.transition_class(actor=gestor, course_class=klass, action="cancel", reason="sem instrutor")
    enrolment.refresh_from_db()
    assert enrolment.status == Enrolment.Status.CANCELLED
    with pytest.raises(ValidationError, match="foi cancelada"):
        services.transition_class(actor=gestor, course_class=klass, action="cancel", reason="x")
