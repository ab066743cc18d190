"""Demo training: in Recife, the course whose certificate the holder's dossier asks (Lei
16.856/2003, art. 7º, VI: "certificado de conclusão de curso de capacitação"), one class of two
days held last month with the first holder enrolled, present at both days, and the certificate
the class's end issued (a document of the dossier). The minimum attendance the law leaves to the
agency is recorded as its demonstration act. Idempotent: a jurisdiction with courses is left."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core import law
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Holder
from lotacao.training import rules, services
from lotacao.training.models import Course
from lotacao.web.agency_values import set_agency_value

REASON = "Dados de demonstração"
CODE = "recife"


def load(today: dt.date, summary: Any) -> None:
    jurisdiction = Jurisdiction.objects.filter(code=CODE, active=True).first()
    if jurisdiction is None:
        return
    if Course.unscoped.filter(jurisdiction=jurisdiction).exists():
        summary.existing += 1
        return
    holder = Holder.unscoped.filter(jurisdiction=jurisdiction).select_related("person").order_by("pk").first()
    if holder is None or holder.person is None:
        return
    start = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=10)  # the 10th of last month
    if rules.min_attendance(CODE, start).percent is None:
        set_agency_value(
            actor=None,
            jurisdiction=jurisdiction,
            parameter=rules.MIN_ATTENDANCE,
            valid_from=law.pack_for(CODE).start,
            value=75,
            cite="Portaria de demonstração nº 3/2025",
            reason=REASON,
        )
    course = services.create_course(
        actor=None,
        jurisdiction_code=CODE,
        name="Capacitação de permissionários do transporte complementar",
        workload_hours=16,
        role="holder",
        purpose=Course.Purpose.DOCUMENT,
        document_code="training_certificate",
        reason=REASON,
        on=start,
    )
    klass = services.open_class(
        actor=None,
        course=course,
        starts_on=start,
        ends_on=start + dt.timedelta(days=1),
        place="Centro de Formação da CTTU",
        capacity=20,
        instructor="Ana Paula Ferreira",
        reason=REASON,
    )
    for n, topic in enumerate(("Legislação do STCP/Recife", "Direção segura e atendimento")):
        services.add_session(
            actor=None, course_class=klass, day=start + dt.timedelta(days=n), topic=topic, reason=REASON
        )
    enrolment = services.enrol(actor=None, course_class=klass, person=holder.person, reason=REASON, on=start)
    for session in klass.sessions.order_by("day"):
        services.record_attendance(
            actor=None, session=session, present={enrolment.pk: True}, reason=REASON, today=today
        )
    services.transition_class(actor=None, course_class=klass, action="finish", reason=REASON, on=today)
    summary.created += 1
