"""The demo has Recife's edital (Lei 16.856/2003, art. 2º, § 1º) open with two applications by
applicants the permits' eligibility passes (their documents, CNH included, really accepted), and
Recife's training course (art. 7º, VI) with a finished class, its holder present at both days and
the certificate issued as a document of the dossier; the pages answer; a second run adds nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command

from lotacao.tenders.models import Call, TenderApplication
from lotacao.training.models import Certificate, Course, CourseClass, Enrolment


def test_the_demo_has_an_open_call_and_a_finished_course(db: Any, client: Any) -> None:
    call_command("load_demo", stdout=StringIO())
    call = Call.objects.get(jurisdiction_id="recife")
    assert call.status == "open" and "art. 2º, § 1º" in call.criteria_citations[0]
    applications = TenderApplication.objects.filter(call=call)
    assert applications.count() == 2 and all(a.eligibility["eligible"] for a in applications)

    course = Course.objects.get(jurisdiction_id="recife")
    assert course.citation.endswith("art. 7º, VI")
    klass = CourseClass.objects.get(course=course)
    assert klass.status == CourseClass.Status.FINISHED
    enrolment = Enrolment.objects.get(course_class=klass)
    assert enrolment.status == Enrolment.Status.COMPLETED and enrolment.attendance_percent == 100
    certificate = Certificate.objects.get(enrolment=enrolment)
    assert certificate.document is not None and certificate.document.status == "aceito"

    before = (Call.objects.count(), TenderApplication.objects.count(), Course.objects.count())
    call_command("load_demo", stdout=StringIO())
    assert (Call.objects.count(), TenderApplication.objects.count(), Course.objects.count()) == before

    from lotacao.accounts.models import User

    client.force_login(User.objects.get(username="gestor.recife"))
    for url in (f"/editais/{call.pk}/", "/cursos/", f"/cursos/turmas/{klass.pk}/"):
        assert client.get(url).status_code == 200, url
