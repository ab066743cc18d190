"""Fares in force per line, readjustments, and fare studies (cost sheets)."""

from __future__ import annotations

from typing import ClassVar

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel


class FareStudy(TenantModel):
    """A cost sheet (GEIPOT shape): inputs and outputs frozen when the study is concluded."""

    class Status(models.TextChoices):
        DRAFT = "rascunho", "Em elaboração"
        FROZEN = "concluido", "Concluído (valores congelados)"

    title = models.CharField("título", max_length=200)
    line = models.ForeignKey(
        "registry.Line",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="linha",
    )
    revision = models.BooleanField("revisão de tarifa em vigor", default=False)
    requested_by = models.CharField("pedido de revisão de", max_length=200, blank=True)
    request_reference = models.CharField("protocolo do pedido", max_length=100, blank=True)
    inputs = models.JSONField("dados de entrada", default=dict)
    outputs = models.JSONField("resultado", default=dict, blank=True)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.DRAFT)
    frozen_at = models.DateTimeField("concluído em", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "estudo tarifário"
        verbose_name_plural = "estudos tarifários"

    def __str__(self) -> str:
        return self.title


class FareAct(TenantModel):
    """The fare of a line from a date, citing the act that set it."""

    line = models.ForeignKey(
        "registry.Line", on_delete=models.PROTECT, related_name="+", verbose_name="linha"
    )
    valid_from = models.DateField("em vigor desde")
    amount = models.DecimalField(
        "tarifa", max_digits=8, decimal_places=2, validators=[MinValueValidator(0.01)]
    )
    reduced_amount = models.DecimalField(
        "tarifa com desconto", max_digits=8, decimal_places=2, null=True, blank=True
    )
    act = models.CharField("ato que fixou a tarifa", max_length=300)
    council_opinion = models.CharField("parecer do conselho", max_length=300, blank=True)
    study = models.ForeignKey(
        FareStudy, on_delete=models.PROTECT, null=True, blank=True, related_name="acts", verbose_name="estudo"
    )
    annulled_at = models.DateTimeField("anulada em", null=True, blank=True)
    annulled_reason = models.TextField("motivo da anulação", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["line", "-valid_from"]
        verbose_name = "tarifa"
        verbose_name_plural = "tarifas"
        constraints = [
            models.UniqueConstraint(
                fields=["line", "valid_from"],
                condition=Q(annulled_at__isnull=True),
                name="one_live_fare_per_day",
            )
        ]

    def __str__(self) -> str:
        return f"Tarifa da linha {self.line.code} desde {self.valid_from:%d/%m/%Y}"


class Readjustment(TenantModel):
    """A fare readjustment percentage in force from a date (Recife art. 25, § 3º; art. 36, § 1º;
    art. 45, p.ú.: the fixed fees and the fine base follow it). `applied` lists the dated values
    it recorded (core.AgencyValue ids, parameter, before and after)."""

    valid_from = models.DateField("em vigor desde")
    percent = models.DecimalField("percentual de reajuste", max_digits=7, decimal_places=4)
    act = models.CharField("ato do reajuste", max_length=300)
    council_opinion = models.CharField("parecer do conselho", max_length=300, blank=True)
    applied = models.JSONField("valores corrigidos", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-valid_from"]
        verbose_name = "reajuste tarifário"
        verbose_name_plural = "reajustes tarifários"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "valid_from"], name="one_readjustment_per_day")
        ]

    def __str__(self) -> str:
        return f"Reajuste de {self.valid_from:%d/%m/%Y}"
