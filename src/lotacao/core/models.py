from __future__ import annotations

from typing import ClassVar
from zoneinfo import available_timezones

from django.core.exceptions import ValidationError
from django.db import models

from lotacao.core.tenancy import TenantManager


def validate_timezone(value: str) -> None:
    if value not in available_timezones():
        raise ValidationError(f"Fuso horário desconhecido: {value}.")


class Jurisdiction(models.Model):
    """A municipality or state whose law the installation applies; one regulation pack each."""

    code = models.SlugField("código do pacote", primary_key=True, max_length=40)
    name = models.CharField("nome", max_length=120)
    official_name = models.CharField("nome oficial do órgão gestor", max_length=200)
    state = models.CharField("UF", max_length=2)
    timezone = models.CharField(
        "fuso horário", max_length=64, default="America/Recife", validators=[validate_timezone]
    )
    population = models.PositiveIntegerField(
        "população (IBGE)", null=True, blank=True, help_text="Usada nas cotas que dependem da população."
    )
    active = models.BooleanField("ativa", default=True)
    # The agency's service channels, shown in every page's footer and on the public pages.
    address = models.CharField("endereço do órgão gestor", max_length=300, blank=True)
    phone = models.CharField("telefone de atendimento", max_length=40, blank=True)
    email = models.EmailField("e-mail de atendimento", blank=True)
    website = models.URLField("sítio do órgão gestor", blank=True)
    hours = models.CharField("horário de atendimento", max_length=120, blank=True)
    ombudsman_phone = models.CharField("telefone da ouvidoria", max_length=40, blank=True)
    ombudsman_email = models.EmailField("e-mail da ouvidoria", blank=True)
    ombudsman_url = models.URLField("página da ouvidoria", blank=True)
    # Separation of duties: where an act has two steps, two different people take them.
    separate_billing_steps = models.BooleanField(
        "faturamento: quem aprova não é quem simulou",
        default=True,
        help_text="A aprovação do faturamento mensal exige um servidor diferente do que o simulou.",
    )
    separate_document_review = models.BooleanField(
        "documentos: quem analisa não é quem recebeu",
        default=True,
        help_text="A análise de um documento exige um servidor diferente do que o recebeu no balcão.",
    )
    # Services the law authorizes (táxi, escolar, fretado: Esteio arts. 12 and 17), turned on by
    # the agency where it runs their register here (lotacao.authorizations); off by default.
    authorize_taxi_common = models.BooleanField(
        "autorizações: táxi comum",
        default=False,
        help_text="O órgão registra aqui as autorizações do transporte individual comum (táxi).",
    )
    authorize_taxi_special = models.BooleanField(
        "autorizações: táxi especial",
        default=False,
        help_text="O órgão registra aqui as autorizações do transporte individual especial (táxi).",
    )
    authorize_school = models.BooleanField(
        "autorizações: transporte escolar",
        default=False,
        help_text="O órgão registra aqui as autorizações do transporte escolar.",
    )
    authorize_chartered = models.BooleanField(
        "autorizações: transporte fretado",
        default=False,
        help_text="O órgão registra aqui as autorizações do transporte fretado.",
    )

    jurisdiction_path: ClassVar[str] = "code"
    holder_path: ClassVar[str | None] = "*"

    objects = TenantManager()
    unscoped = models.Manager()

    class Meta:
        ordering = ["name"]
        verbose_name = "jurisdição"
        verbose_name_plural = "jurisdições"
        base_manager_name = "unscoped"

    def __str__(self) -> str:
        return f"{self.name} ({self.state})"


class AgencyValue(models.Model):
    """A value the agency supplies for a pack parameter (what the law leaves undefined, or its
    own acts: fiscal-unit values, municipal holidays, Maricá's infraction groups…), in force from a
    date, citing the act that fixed it. Never edited: a new value from a later date supersedes it,
    and a mistaken one is annulled with a reason (both audited)."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    parameter = models.CharField("parâmetro", max_length=120)
    valid_from = models.DateField("em vigor desde")
    value = models.JSONField("valor")
    cite = models.CharField("ato que o fixou", max_length=300)
    note = models.TextField("observação", blank=True)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    annulled_at = models.DateTimeField("anulado em", null=True, blank=True)
    annulled_reason = models.TextField("motivo da anulação", blank=True)

    jurisdiction_path: ClassVar[str] = "jurisdiction_id"
    holder_path: ClassVar[str | None] = None

    objects = TenantManager()
    unscoped = models.Manager()

    class Meta:
        ordering = ["parameter", "valid_from"]
        verbose_name = "valor informado pelo órgão"
        verbose_name_plural = "valores informados pelo órgão"
        base_manager_name = "unscoped"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "parameter", "valid_from"],
                condition=models.Q(annulled_at__isnull=True),
                name="unique_live_agency_value",
            )
        ]

    def __str__(self) -> str:
        return f"Valor da lei informado desde {self.valid_from:%d/%m/%Y}"


class JobRun(models.Model):
    """One run of a scheduled job: when, how it ended, what it counted (the operator's record).

    A run that is still `running` holds the job: a second run of the same job is refused while it
    does (on PostgreSQL also under an advisory lock, released if the process dies).
    """

    class Status(models.TextChoices):
        RUNNING = "running", "em execução"
        SUCCEEDED = "succeeded", "concluída"
        FAILED = "failed", "falhou"
        SKIPPED = "skipped", "não executada: outra execução em curso"
        ABANDONED = "abandoned", "interrompida (processo encerrado)"

    job = models.CharField("tarefa", max_length=60)
    day = models.DateField("data de referência")
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.RUNNING)
    started_at = models.DateTimeField("início", auto_now_add=True)
    finished_at = models.DateTimeField("fim", null=True, blank=True)
    counts = models.JSONField("contagens", default=dict, blank=True)
    error = models.TextField("erro", blank=True)
    host = models.CharField("máquina e processo", max_length=120, blank=True)

    class Meta:
        ordering = ["-started_at"]
        verbose_name = "execução de tarefa"
        verbose_name_plural = "execuções de tarefas"
        constraints = [
            models.UniqueConstraint(
                fields=["job"], condition=models.Q(status="running"), name="one_running_run_per_job"
            )
        ]
        indexes = [models.Index(fields=["job", "-started_at"], name="core_jobrun_job_idx")]

    def __str__(self) -> str:
        return f"{self.job} {self.day:%d/%m/%Y} — {self.get_status_display()}"
