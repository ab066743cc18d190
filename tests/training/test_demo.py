"""The demo has Recife's training course (art. 7º, VI) with a finished class, its holder present
at both days and the certificate issued as a document of the dossier; a second run adds nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command

from lotacao.training.models import Certificate, Course, CourseClass, Enrolment


def test_the_demo_has_a_course_a_class_and_a_certificate(db: Any, client: Any) -> None:
    call_command("load_demo", stdout=StringIO())
    course = Course.objects.get(jurisdiction_id="recife")
    assert course.citation.endswith("art. 7º, VI")
    klass = CourseClass.objects.get(course=course)
    assert klass.status == CourseClass.Status.FINISHED
    enrolment = Enrolment.objects.get(course_class=klass)
    assert enrolment.status == Enrolment.Status.COMPLETED and enrolment.attendance_percent == 100
    certificate = Certificate.objects.get(enrolment=enrolment)
    assert certificate.document is not None and certificate.document.status == "aceito"
    before = (Course.objects.count(), Certificate.objects.count())
    call_command("load_demo", stdout=StringIO())
    assert (Course.objects.count(), Certificate.objects.count()) == before
    from lotacao.accounts.models import User

    client.force_login(User.objects.get(username="gestor.recife"))
    for url in ("/cursos/", f"/cursos/turmas/{klass.pk}/"):
        response = client.get(url)
        assert response.status_code == 200, url
