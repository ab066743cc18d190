"""Models of training: each record belongs to one jurisdiction (core.tenancy).

- `Course`: the catalogue entry — name, workload, validity, the role it is for and what it
  satisfies (a required document of the pack, an obligation to take part in training, or a course
  a final decision imposed), with the article;
- `CourseClass`: one class of a course (dates, place, capacity, instructor) and its `Session`s;
- `Enrolment`: a person in a class; `Attendance`: present or absent at one session;
- `Certificate`: numbered and dated, its PDF kept as an accepted document of the person
  (lotacao.documents), so the required-document rules count it with its validity.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel

ROLE_CHOICES = [
    ("holder", "Permissionário"),
    ("auxiliary_driver", "Condutor auxiliar"),
    ("relief_driver", "Condutor eventual"),
    ("fare_collector", "Cobrador"),
]


class Course(TenantModel):
    class Purpose(models.TextChoices):
        DOCUMENT = "document", "Certificado exigido entre os documentos"
        OBLIGATION = "obligation", "Participação obrigatória em treinamento"
        SANCTION = "sanction", "Curso imposto por decisão definitiva (reeducação ou atualização)"

    name = models.CharField("nome", max_length=200)
    workload_hours = models.PositiveIntegerField("carga horária (horas)")
    validity_months = models.PositiveIntegerField(
        "validade do certificado (meses)", null=True, blank=True, help_text="Em branco: sem vencimento."
    )
    validity_act = models.CharField("ato que fixa a validade", max_length=200, blank=True)
    role = models.CharField("para quem", max_length=20, choices=ROLE_CHOICES)
    purpose = models.CharField("o que satisfaz", max_length=12, choices=Purpose.choices)
    document_code = models.CharField("documento exigido que o certificado supre", max_length=60, blank=True)
    citation = models.CharField("fundamento", max_length=300)
    active = models.BooleanField("em oferta", default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "curso"
        verbose_name_plural = "cursos"

    def __str__(self) -> str:
        return self.name


class CourseClass(TenantModel):
    class Status(models.TextChoices):
        OPEN = "open", "Inscrições abertas"
        CLOSED = "closed", "Inscrições encerradas"
        FINISHED = "finished", "Concluída"
        CANCELLED = "cancelled", "Cancelada"

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="classes")
    starts_on = models.DateField("início")
    ends_on = models.DateField("fim")
    place = models.CharField("local", max_length=200)
    capacity = models.PositiveIntegerField("vagas")
    instructor = models.CharField("instrutor", max_length=200)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-starts_on", "-id"]
        verbose_name = "turma"
        verbose_name_plural = "turmas"
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="class_dates_order"),
            models.CheckConstraint(condition=Q(capacity__gte=1), name="class_capacity_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.course} — turma de {self.starts_on:%d/%m/%Y}"


class Session(TenantModel):
    course_class = models.ForeignKey(CourseClass, on_delete=models.PROTECT, related_name="sessions")
    day = models.DateField("data")
    topic = models.CharField("conteúdo", max_length=200, blank=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["day", "id"]
        verbose_name = "aula"
        verbose_name_plural = "aulas"

    def __str__(self) -> str:
        return f"Aula de {self.day:%d/%m/%Y}"


class Enrolment(TenantModel):
    class Status(models.TextChoices):
        ENROLLED = "enrolled", "Inscrito"
        COMPLETED = "completed", "Concluiu"
        FAILED = "failed", "Não atingiu a frequência mínima"
        CANCELLED = "cancelled", "Inscrição cancelada"

    course_class = models.ForeignKey(CourseClass, on_delete=models.PROTECT, related_name="enrolments")
    person = models.ForeignKey("registry.Person", on_delete=models.PROTECT, related_name="+")
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.ENROLLED)
    enrolled_on = models.DateField("inscrito em")
    closed_on = models.DateField("encerrada em", null=True, blank=True)
    attendance_percent = models.PositiveIntegerField("frequência (%)", null=True, blank=True)
    minimum_percent = models.PositiveIntegerField("frequência mínima (%)", null=True, blank=True)
    minimum_citation = models.CharField("fundamento da frequência mínima", max_length=300, blank=True)
    # The mandatory course a final decision imposed (lotacao.enforcement's CourseRequirement) this
    # enrolment answers: its id, kept without a foreign key (training sits below enforcement).
    requirement_ref = models.PositiveIntegerField("curso obrigatório atendido", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["course_class", "person_id", "id"]
        verbose_name = "inscrição"
        verbose_name_plural = "inscrições"
        constraints = [
            models.UniqueConstraint(
                fields=["course_class", "person"],
                condition=~Q(status="cancelled"),
                name="one_live_enrolment_per_class",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} — {self.course_class}"


class Attendance(TenantModel):
    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="attendances")
    enrolment = models.ForeignKey(Enrolment, on_delete=models.PROTECT, related_name="attendances")
    present = models.BooleanField("presente")

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["session", "enrolment"]
        verbose_name = "frequência"
        verbose_name_plural = "frequências"
        constraints = [
            models.UniqueConstraint(fields=["session", "enrolment"], name="one_attendance_per_session"),
        ]


class Certificate(TenantModel):
    enrolment = models.OneToOneField(Enrolment, on_delete=models.PROTECT, related_name="certificate")
    number = models.CharField("número", max_length=30)
    issued_on = models.DateField("emitido em")
    valid_until = models.DateField("válido até", null=True, blank=True)
    document = models.ForeignKey(
        "documents.Document", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    citation = models.CharField("fundamento", max_length=300)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-issued_on", "-id"]
        verbose_name = "certificado"
        verbose_name_plural = "certificados"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="certificate_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Certificado {self.number}"
