"""Monthly demand declarations and billing runs."""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar

from django.core.validators import MinValueValidator
from django.db import models

from lotacao.core.tenancy import TenantModel


class DemandDeclaration(TenantModel):
    """The demand a holder carried on a line in a month: the base of the fees on demand."""

    class Source(models.TextChoices):
        HOLDER = "permissionario", "Declaração do permissionário"
        CLERK = "atendimento", "Lançada pelo atendimento"
        SURVEY = "pesquisa", "Pesquisa operacional do órgão"

    holder = models.ForeignKey(
        "registry.Holder",
        on_delete=models.PROTECT,
        related_name="declarations",
        verbose_name="permissionário",
    )
    line = models.ForeignKey(
        "registry.Line", on_delete=models.PROTECT, related_name="+", verbose_name="linha"
    )
    month = models.DateField("mês")
    full_passengers = models.PositiveIntegerField("passageiros pagantes (tarifa inteira)")
    reduced_passengers = models.PositiveIntegerField("passageiros com desconto", default=0)
    free_passengers = models.PositiveIntegerField("passageiros com gratuidade", default=0)
    km = models.DecimalField(
        "quilômetros rodados",
        max_digits=12,
        decimal_places=1,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    revenue = models.DecimalField(
        "receita tarifária declarada",
        max_digits=14,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
    )
    source = models.CharField("origem", max_length=20, choices=Source.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["-month", "holder", "line"]
        verbose_name = "declaração de demanda"
        verbose_name_plural = "declarações de demanda"
        constraints = [
            models.UniqueConstraint(fields=["holder", "line", "month"], name="one_declaration_per_month"),
            models.CheckConstraint(condition=models.Q(month__day=1), name="declaration_month_first_day"),
        ]

    def __str__(self) -> str:
        return f"Demanda de {self.month:%m/%Y} — {self.holder}"

    @property
    def passengers(self) -> int:
        return self.full_passengers + self.reduced_passengers + self.free_passengers


class BillingRun(TenantModel):
    """One month's billing of a jurisdiction: simulated (the plan, with what it would create and
    why, or what is missing), approved by the manager, then executed; re-executing a month creates
    nothing new (each charge has its key), and an interrupted run resumes where it stopped."""

    class Status(models.TextChoices):
        PLANNED = "simulado", "Simulado"
        REFUSED = "recusado", "Recusado: faltam valores"
        APPROVED = "aprovado", "Aprovado pelo gestor"
        RUNNING = "executando", "Em execução"
        DONE = "concluido", "Concluído"

    period = models.DateField("competência")
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.PLANNED)
    plan = models.JSONField("cobranças previstas", default=list, blank=True)
    refusals = models.JSONField("valores que faltam", default=list, blank=True)
    notes = models.JSONField("observações", default=list, blank=True)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    approved_by = models.ForeignKey(
        "accounts.User", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    approved_at = models.DateTimeField("aprovado em", null=True, blank=True)
    started_at = models.DateTimeField("início da execução", null=True, blank=True)
    finished_at = models.DateTimeField("fim da execução", null=True, blank=True)
    created_count = models.PositiveIntegerField("cobranças criadas", default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-period", "-id"]
        verbose_name = "faturamento mensal"
        verbose_name_plural = "faturamentos mensais"
        constraints = [
            models.CheckConstraint(condition=models.Q(period__day=1), name="run_period_first_day"),
        ]

    def __str__(self) -> str:
        return f"Faturamento de {self.period:%m/%Y}"
