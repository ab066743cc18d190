"""Models of the permits app: permits (with their application), agents, bans and the grant counter.

A permit's life is an explicit state machine (see `lotacao.permits.states`); every transition is
a keyword-only service in `lotacao.permits.services` with its legal checks and its audit record.
"""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel


class Permit(TenantModel):
    class Status(models.TextChoices):
        APPLICATION = "application", "Requerimento em análise"
        ELIGIBLE = "eligible", "Requerente apto"
        INELIGIBLE = "ineligible", "Requerente inapto"
        ACTIVE = "active", "Ativa"
        SUSPENDED = "suspended", "Suspensa"
        REVOKED = "revoked", "Cassada"
        WITHDRAWN = "withdrawn", "Extinta por desistência"
        EXPIRED = "expired", "Vencida"
        TRANSFERRED = "transferred", "Transferida"
        # The delegation ended by a cause of extinction that is no penalty (the term, encampação,
        # rescisão, the company's end, the holder's death: Esteio art. 46): no re-entry ban.
        EXTINCT = "extinct", "Extinta"

    class Kind(models.TextChoices):
        REGULAR = "regular", "Regular"
        PROVISIONAL = "provisional", "Provisória"

    number = models.CharField("número", max_length=30, blank=True)
    holder = models.ForeignKey(
        "registry.Holder", on_delete=models.PROTECT, related_name="permits", verbose_name="permissionário"
    )
    line = models.ForeignKey(
        "registry.Line",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="permits",
        verbose_name="linha",
    )
    vehicle = models.ForeignKey(
        "registry.Vehicle",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="permits",
        verbose_name="veículo",
    )
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.APPLICATION)
    kind = models.CharField("espécie", max_length=20, choices=Kind.choices, default=Kind.REGULAR)
    applied_on = models.DateField("requerida em")
    granted_on = models.DateField("outorgada em", null=True, blank=True)
    valid_until = models.DateField("válida até", null=True, blank=True)
    term_citation = models.CharField("fundamento do prazo", max_length=300, blank=True)
    renewals = models.PositiveSmallIntegerField("prorrogações", default=0)
    suspended_until = models.DateField("suspensa até", null=True, blank=True)
    ends_on = models.DateField("extinta em", null=True, blank=True)
    withdrawal_notice_on = models.DateField("desistência comunicada em", null=True, blank=True)
    extinction_cause = models.CharField(
        "causa da extinção", max_length=300, blank=True, help_text="A causa da lei, com o seu fundamento."
    )
    transfers = models.PositiveSmallIntegerField("transferências", default=0)
    transferred_from = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="transferred_to",
        verbose_name="transferida de",
    )
    # Application data the registries do not hold (selection criteria, residence, declarations).
    existing_operator = models.BooleanField(
        "já opera o serviço com alvará",
        default=False,
        help_text="Critério de seleção onde a lei dá preferência a quem já opera.",
    )
    association_member = models.BooleanField("organizado em associação", default=False)
    service_months = models.PositiveIntegerField("tempo de serviço no sistema (meses)", default=0)
    infraction_count = models.PositiveIntegerField("infrações cometidas no sistema", default=0)
    residence_since = models.DateField("reside no município desde", null=True, blank=True)
    other_service = models.CharField(
        "outra permissão, autorização ou vínculo declarado",
        max_length=300,
        blank=True,
        help_text="Declaração do requerente; em branco se não detém outro serviço.",
    )
    eligibility = models.JSONField("última verificação de requisitos", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    LIVE: ClassVar[tuple[str, ...]] = ("active", "suspended")
    OPEN: ClassVar[tuple[str, ...]] = ("application", "eligible", "ineligible")

    class Meta:
        ordering = ["-applied_on", "-id"]
        verbose_name = "permissão"
        verbose_name_plural = "permissões"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"],
                condition=~Q(number="") & ~Q(status="transferred"),
                name="unique_permit_number_per_jurisdiction",
            ),
            models.UniqueConstraint(
                fields=["vehicle"],
                condition=Q(status__in=["active", "suspended"]),
                name="one_live_permit_per_vehicle",
            ),
        ]
        indexes = [
            models.Index(fields=["jurisdiction", "status", "valid_until"], name="permit_status_until"),
        ]

    def __str__(self) -> str:
        return f"Permissão {self.number}" if self.number else f"Requerimento #{self.pk}"

    def effective_status(self, on: dt.date) -> str:
        """The status on a date: a live permit past its term reads as expired (automatic expiry),
        one whose withdrawal took effect as withdrawn."""
        if self.status in self.LIVE:
            if self.ends_on is not None and self.withdrawal_notice_on is not None and self.ends_on <= on:
                return self.Status.WITHDRAWN
            if self.valid_until is not None and self.valid_until < on:
                return self.Status.EXPIRED
        return self.status

    def effective_status_label(self, on: dt.date) -> str:
        return str(self.Status(self.effective_status(on)).label)


class PermitCounter(TenantModel):
    """One row per jurisdiction, locked (SELECT … FOR UPDATE) by every grant: quotas and numbers."""

    last_number = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction"], name="one_permit_counter")]


class PermitAgent(TenantModel):
    class Role(models.TextChoices):
        AUXILIARY_DRIVER = "auxiliary_driver", "Condutor auxiliar"
        RELIEF_DRIVER = "relief_driver", "Condutor eventual"
        FARE_COLLECTOR = "fare_collector", "Cobrador"

    permit = models.ForeignKey(
        Permit, on_delete=models.PROTECT, related_name="agents", verbose_name="permissão"
    )
    person = models.ForeignKey(
        "registry.Person", on_delete=models.PROTECT, related_name="agent_roles", verbose_name="pessoa"
    )
    role = models.CharField("função", max_length=20, choices=Role.choices)
    starts_on = models.DateField("desde")
    ends_on = models.DateField("até", null=True, blank=True)
    # A suspension of the agent's registration by a final decision (Recife art. 34, III).
    suspended_until = models.DateField("cadastro suspenso até", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "permit__holder_id"

    class Meta:
        ordering = ["permit", "role", "starts_on"]
        verbose_name = "preposto"
        verbose_name_plural = "prepostos"

    def __str__(self) -> str:
        return f"{self.get_role_display()}: {self.person}"

    def is_current(self, on: dt.date) -> bool:
        return self.starts_on <= on and (self.ends_on is None or self.ends_on >= on)

    def is_suspended(self, on: dt.date) -> bool:
        return self.suspended_until is not None and on <= self.suspended_until


class Ban(TenantModel):
    """A re-entry ban (impedimento) of a person or company, after a revocation or loss of service."""

    class Cause(models.TextChoices):
        REVOCATION = "revocation", "Cassação da permissão"
        AGENT_REVOCATION = "agent_revocation", "Cassação do cadastro de preposto"
        LOST_SERVICE = "lost_service", "Perda de serviço do sistema municipal"

    person = models.ForeignKey(
        "registry.Person", on_delete=models.PROTECT, null=True, blank=True, related_name="bans"
    )
    company = models.ForeignKey(
        "registry.Company", on_delete=models.PROTECT, null=True, blank=True, related_name="bans"
    )
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, null=True, blank=True, related_name="bans")
    cause = models.CharField("causa", max_length=20, choices=Cause.choices)
    starts_on = models.DateField("desde")
    ends_on = models.DateField("até")
    citation = models.CharField("fundamento", max_length=300)
    # Lifted when the decision that caused it is annulled or reduced on appeal (Recife art. 43,
    # parágrafo único: the revocation took effect before the appeal was judged).
    lifted_on = models.DateField("levantado em", null=True, blank=True)
    lift_reason = models.TextField("motivo do levantamento", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "permit__holder_id"

    class Meta:
        ordering = ["-starts_on"]
        verbose_name = "impedimento"
        verbose_name_plural = "impedimentos"
        constraints = [
            models.CheckConstraint(
                condition=Q(person__isnull=False) | Q(company__isnull=False), name="ban_has_party"
            ),
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="ban_dates_ordered"),
        ]

    def __str__(self) -> str:
        return f"Impedimento de {self.person or self.company} até {self.ends_on:%d/%m/%Y}"

    def in_force(self, on: dt.date) -> bool:
        """Whether the ban bars its party on `on` (within its dates and not lifted by then)."""
        lifted = self.lifted_on is not None and self.lifted_on <= on
        return self.starts_on <= on <= self.ends_on and not lifted
