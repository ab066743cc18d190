"""Objects the shared test `world` needs for the training URLs (tests/conftest.py): a course, a
class with a session, an enrolment with its attendance and a certificate in each jurisdiction."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.training.models import Attendance, Certificate, Course, CourseClass, Enrolment, Session


def extend_world(world: Any) -> None:
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        day = dt.date(2025, 3, 10)
        course = Course.objects.create(
            jurisdiction=jurisdiction,
            name="Curso de teste",
            workload_hours=8,
            role="holder",
            purpose=Course.Purpose.OBLIGATION,
            citation="teste",
        )
        klass = CourseClass.objects.create(
            jurisdiction=jurisdiction,
            course=course,
            starts_on=day,
            ends_on=day,
            place="Sala 1",
            capacity=10,
            instructor="Instrutor",
            status=CourseClass.Status.FINISHED,
        )
        session = Session.objects.create(jurisdiction=jurisdiction, course_class=klass, day=day)
        enrolment = Enrolment.objects.create(
            jurisdiction=jurisdiction,
            course_class=klass,
            person=objects["registry.person"],
            enrolled_on=day,
            status=Enrolment.Status.COMPLETED,
            attendance_percent=100,
            minimum_percent=75,
        )
        Attendance.objects.create(
            jurisdiction=jurisdiction, session=session, enrolment=enrolment, present=True
        )
        certificate = Certificate.objects.create(
            jurisdiction=jurisdiction,
            enrolment=enrolment,
            number=f"T-{jurisdiction.code}",
            issued_on=day,
            citation="teste",
        )
        objects["training.course"] = course
        objects["training.courseclass"] = klass
        objects["training.certificate"] = certificate
