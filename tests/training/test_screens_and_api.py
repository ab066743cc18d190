"""The /cursos/ screens and the training API: a Recife course from the catalogue form to the
certificate's PDF, the refusals shown as Portuguese errors (422) that change nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.training.models import Certificate, Course, CourseClass, Enrolment
from tests.training.conftest import set_value


def test_recife_course_through_the_screens(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    assert client.get("/cursos/").status_code == 200
    bad = client.post(
        "/cursos/",
        {
            "jurisdicao": "recife",
            "nome": "X",
            "carga": "0",
            "funcao": "holder",
            "finalidade": "obligation",
            "motivo": "x",
        },
    )
    assert bad.status_code == 422 and "carga horária" in bad.content.decode()
    made = client.post(
        "/cursos/",
        {
            "jurisdicao": "recife",
            "nome": "Capacitação de permissionários",
            "carga": "20",
            "funcao": "holder",
            "finalidade": "document",
            "documento": "training_certificate",
            "motivo": "curso definido pelo órgão",
        },
    )
    assert made.status_code == 302
    course = Course.objects.get(name="Capacitação de permissionários")
    today = timezone.localdate()
    start = today - dt.timedelta(days=3)
    opened = client.post(
        f"/cursos/{course.pk}/",
        {
            "inicio": start.isoformat(),
            "fim": today.isoformat(),
            "local": "Sala 2",
            "vagas": "10",
            "instrutor": "Ana",
            "motivo": "turma",
        },
    )
    assert opened.status_code == 302
    klass = CourseClass.objects.get(course=course)
    url = f"/cursos/turmas/{klass.pk}/"
    assert client.post(url, {"acao": "aula", "data": start.isoformat(), "motivo": "aula"}).status_code == 302
    person = world.objects["recife"]["registry.person"]
    refused = client.post(url, {"acao": "inscrever", "cpf": "000", "motivo": "x"})
    assert refused.status_code == 422 and "CPF" in refused.content.decode()
    assert (
        client.post(url, {"acao": "inscrever", "cpf": person.cpf, "motivo": "inscrição"}).status_code == 302
    )
    twice = client.post(url, {"acao": "inscrever", "cpf": person.cpf, "motivo": "de novo"})
    assert twice.status_code == 422 and "já está inscrito" in twice.content.decode()
    enrolment = Enrolment.objects.get(course_class=klass, person=person)
    session = klass.sessions.get()
    mark = client.post(
        url, {"acao": "frequencia", "aula": session.pk, f"presente-{enrolment.pk}": "1", "motivo": "chamada"}
    )
    assert mark.status_code == 302
    no_minimum = client.post(url, {"acao": "finish", "motivo": "fim"})
    assert no_minimum.status_code == 422 and "frequência mínima" in no_minimum.content.decode()
    set_value("recife", "training.min_attendance", 75)
    assert client.post(url, {"acao": "finish", "motivo": "fim"}).status_code == 302
    certificate = Certificate.objects.get(enrolment=enrolment)
    page = client.get(url).content.decode()
    assert f"nº {certificate.number}" in page
    pdf = client.get(f"/cursos/certificados/{certificate.pk}/pdf/")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF-")
    # the API
    listed = client.get("/api/training/courses").json()
    assert any(c["name"] == "Capacitação de permissionários" for c in listed)
    one = client.get(f"/api/training/classes/{klass.pk}").json()
    assert one["enrolments"][0]["certificate"] == certificate.number
    got = client.get(f"/api/training/certificates/{certificate.number.replace('/', '-')}").json()
    assert got["number"] == certificate.number


def test_api_enrolment_refusal_is_a_422(world: Any, client: Any) -> None:
    klass = world.objects["recife"]["training.courseclass"]  # finished
    client.force_login(world.users["atendente.recife"])
    person = world.objects["recife"]["registry.person"]
    answer = client.post(
        f"/api/training/classes/{klass.pk}/enrolments", {"cpf": person.cpf}, content_type="application/json"
    )
    assert answer.status_code == 422
    client.force_login(world.users["fiscal.recife"])
    denied = client.post(
        f"/api/training/classes/{klass.pk}/enrolments", {"cpf": person.cpf}, content_type="application/json"
    )
    assert denied.status_code == 403
