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
