"""The authorization of an individual or special service (Esteio art. 17: "autorizado pelo Poder
Público Municipal, nos termos do regulamento próprio"; art. 36, III names the táxi too): one holder
(a person or a company of the registry), one vehicle of the registry, the number, the agency's act
that grants it, the start and the validity (an agency value: the law gives no term).

A vehicle serves one live authorization at a time (a database constraint), and none while it is
bound to a live permit (the service checks it). Staff's register: holders never see these rows
here (`holder_path` is None).
"""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel


class Authorization(TenantModel):
    class Kind(models.TextChoices):
        TAXI_COMMON = "taxi_common", "Táxi comum (individual comum)"
        TAXI_SPECIAL = "taxi_special", "Táxi especial (individual especial)"
        SCHOOL = "school", "Transporte escolar"
        CHARTERED = "chartered", "Transporte fretado"

    class Status(models.TextChoices):
        REQUESTED = "requested", "Requerida"
        GRANTED = "granted", "Autorizada"
        SUSPENDED = "suspended", "Suspensa"
        REVOKED = "revoked", "Cassada"
        EXPIRED = "expired", "Vencida"
        WITHDRAWN = "withdrawn", "Extinta por desistência"
        REFUSED = "refused", "Indeferida"
        REPLACED = "replaced", "Encerrada pela substituição do veículo"

    kind = models.CharField("serviço", max_length=20, choices=Kind.choices)
    person = models.ForeignKey(
        "registry.Person",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="service_authorizations",
        verbose_name="pessoa física",
    )
    company = models.ForeignKey(
        "registry.Company",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="service_authorizations",
        verbose_name="pessoa jurídica",
    )
    vehicle = models.ForeignKey(
        "registry.Vehicle",
        on_delete=models.PROTECT,
        related_name="service_authorizations",
        verbose_name="veículo",
    )
    vehicle_acquired_on = models.DateField("veículo adquirido em", null=True, blank=True)
    replaces = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name="substitui o veículo da autorização",
    )
    number = models.CharField("número", max_length=40, blank=True)
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.REQUESTED)
    requested_on = models.DateField("requerida em")
    act = models.CharField("ato de autorização", max_length=300, blank=True)
    starts_on = models.DateField("início", null=True, blank=True)
    valid_until = models.DateField("válida até", null=True, blank=True)
    validity_citation = models.CharField("fundamento da validade", max_length=300, blank=True)
    suspended_until = models.DateField("suspensa até", null=True, blank=True)
    ended_on = models.DateField("encerrada em", null=True, blank=True)
    last_act = models.CharField("ato da última decisão", max_length=300, blank=True)
    last_reasons = models.TextField("razões da última decisão", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    LIVE: ClassVar[tuple[str, ...]] = ("granted", "suspended")
    OPEN: ClassVar[tuple[str, ...]] = ("requested", "granted", "suspended")

    class Meta:
        verbose_name = "autorização de serviço"
        verbose_name_plural = "autorizações de serviço"
        ordering = ["-requested_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(person__isnull=False) & Q(company__isnull=True))
                | (Q(person__isnull=True) & Q(company__isnull=False)),
                name="authorization_holder_is_person_or_company",
            ),
            models.UniqueConstraint(
                fields=["jurisdiction", "number"],
                condition=~Q(number=""),
                name="unique_authorization_number",
            ),
            models.UniqueConstraint(
                fields=["vehicle"],
                condition=Q(status__in=["requested", "granted", "suspended"]),
                name="one_open_authorization_per_vehicle",
            ),
        ]

    def __str__(self) -> str:
        return f"Autorização {self.number}" if self.number else f"Pedido de autorização nº {self.pk}"

    @property
    def holder_name(self) -> str:
        return str(self.person or self.company or "")

    @property
    def holder_document(self) -> str:
        if self.person is not None:
            return self.person.cpf_display
        return self.company.cnpj_display if self.company is not None else ""

    @property
    def is_taxi(self) -> bool:
        return self.kind in (self.Kind.TAXI_COMMON, self.Kind.TAXI_SPECIAL)

    def effective_status(self, on: dt.date) -> str:
        """The status on a date: a live authorization past its validity reads as expired."""
        if self.status in self.LIVE and self.valid_until is not None and self.valid_until < on:
            return self.Status.EXPIRED
        if self.status == self.Status.SUSPENDED and self.suspended_until and self.suspended_until < on:
            return self.Status.GRANTED
        return self.status

    def effective_status_label(self, on: dt.date) -> str:
        return str(self.Status(self.effective_status(on)).label)
