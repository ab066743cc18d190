"""Models of the inspections app: insurance, inspections, irregularity notices, seals, re-registration.

Every row belongs to one jurisdiction (TenantModel) and reaches its permit holder through the
vehicle (`vehicle__holder_id`), so a holder sees their own vehicles' records and nobody else's.
"""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from lotacao.core.formats import lower_first
from lotacao.core.tenancy import TenantModel
from lotacao.registry.models import Vehicle

COVERAGES = {
    "civil_liability": "Responsabilidade civil",
    "death_per_passenger": "Morte por passageiro",
    "disability_per_passenger": "Invalidez por passageiro",
    "third_party": "Danos a terceiros",
}


def _money(label: str) -> models.DecimalField:  # type: ignore[type-arg]
    return models.DecimalField(label, max_digits=14, decimal_places=2, null=True, blank=True)


class InsurancePolicy(TenantModel):
    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="insurance_policies")
    insurer = models.CharField("seguradora", max_length=120)
    number = models.CharField("número da apólice", max_length=60)
    civil_liability = _money("responsabilidade civil (R$)")
    death_per_passenger = _money("morte por passageiro (R$)")
    disability_per_passenger = _money("invalidez por passageiro (R$)")
    third_party = _money("danos a terceiros (R$)")
    valid_from = models.DateField("início da vigência")
    valid_until = models.DateField("fim da vigência")
    citations = models.JSONField("fundamentos", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "vehicle__holder_id"

    class Meta:
        ordering = ["-valid_until", "-id"]
        verbose_name = "apólice de seguro"
        verbose_name_plural = "apólices de seguro"
        indexes = [models.Index(fields=["vehicle", "valid_until"], name="insurance_vehicle_until")]
        constraints = [
            models.CheckConstraint(
                condition=Q(valid_until__gte=models.F("valid_from")), name="insurance_valid_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Apólice {self.number} ({self.insurer})"

    def coverage(self) -> dict[str, str]:
        return {key: str(getattr(self, key)) for key in COVERAGES if getattr(self, key) is not None}


class VehicleAssessment(TenantModel):
    """The engine's decision on a vehicle's admission, stay or replacement, with its grounds."""

    class Action(models.TextChoices):
        ENTRY = "entry", "Ingresso no serviço"
        KEEP = "keep", "Permanência em serviço"
        REPLACE = "replace", "Substituição de veículo"
        INSPECTION = "inspection", "Vistoria"

    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="assessments")
    replaced = models.ForeignKey(
        Vehicle, on_delete=models.PROTECT, null=True, blank=True, related_name="replaced_by_assessments"
    )
    action = models.CharField("ação", max_length=12, choices=Action.choices)
    on = models.DateField("data")
    eligible = models.BooleanField("apto")
    violations = models.JSONField("irregularidades", default=list, blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    explanation = models.TextField("explicação")
    decharacterization_proof = models.CharField(
        "comprovação da descaracterização do substituído", max_length=300, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "vehicle__holder_id"

    class Meta:
        ordering = ["-on", "-id"]
        verbose_name = "avaliação de veículo"
        verbose_name_plural = "avaliações de veículos"

    def __str__(self) -> str:
        return f"{self.get_action_display()} — {self.vehicle}"


class Inspection(TenantModel):
    class Kind(models.TextChoices):
        ANNUAL = "annual", "Anual"
        RANDOM = "random", "Aleatória"
        ENTRY = "entry", "De ingresso"
        REPRESENTATION = "representation", "Reapresentação"
        POST_ACCIDENT = "post_accident", "Após acidente"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Agendada"
        PASSED = "passed", "Aprovada"
        FAILED = "failed", "Reprovada"
        CANCELLED = "cancelled", "Cancelada"

    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="inspections")
    kind = models.CharField("tipo", max_length=16, choices=Kind.choices, default=Kind.ANNUAL)
    scheduled_for = models.DateField("data marcada")
    place = models.CharField("local", max_length=200, blank=True)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    performed_on = models.DateField("realizada em", null=True, blank=True)
    performed_at = models.TimeField("hora", null=True, blank=True)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    checklist = models.JSONField("itens verificados", default=list, blank=True)
    faults = models.JSONField("falhas", default=list, blank=True)
    notes = models.TextField("observações", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    # The vehicle may not operate until this inspection passes (after an accident, where the law
    # says so: Maricá art. 40, IX).
    blocks_operation = models.BooleanField("impede a operação até a aprovação", default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "vehicle__holder_id"

    class Meta:
        ordering = ["-scheduled_for", "-id"]
        verbose_name = "vistoria"
        verbose_name_plural = "vistorias"
        indexes = [models.Index(fields=["vehicle", "status"], name="inspection_vehicle_status")]

    def __str__(self) -> str:
        kind = lower_first(self.get_kind_display())
        return f"Vistoria {kind} de {self.vehicle} em {self.scheduled_for:%d/%m/%Y}"


class IrregularityNotice(TenantModel):
    """Non-punitive notice after a failed inspection: faults and the re-presentation deadline."""

    inspection = models.OneToOneField(Inspection, on_delete=models.PROTECT, related_name="notice")
    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="irregularity_notices")
    number = models.CharField("número", max_length=30)
    issued_on = models.DateField("emitida em")
    faults = models.JSONField("falhas a corrigir", default=list, blank=True)
    representation_due = models.DateField("reapresentar o veículo até")
    deadline_citation = models.CharField("fundamento do prazo", max_length=300)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    resolved_by = models.ForeignKey(
        Inspection, on_delete=models.PROTECT, null=True, blank=True, related_name="resolved_notices"
    )
    resolved_on = models.DateField("resolvida em", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "vehicle__holder_id"

    class Meta:
        ordering = ["-issued_on", "-id"]
        verbose_name = "notificação de irregularidade"
        verbose_name_plural = "notificações de irregularidade"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="unique_notice_number"),
        ]
        indexes = [models.Index(fields=["resolved_on", "representation_due"], name="notice_open_due")]

    def __str__(self) -> str:
        return f"Notificação de irregularidade {self.number}"


class ReregistrationCampaign(TenantModel):
    """A yearly re-registration period, on the calendar the agency announces."""

    year = models.PositiveSmallIntegerField("exercício")
    starts_on = models.DateField("início")
    ends_on = models.DateField("fim")
    notes = models.TextField("observações", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None  # staff screens only

    class Meta:
        ordering = ["-year"]
        verbose_name = "campanha de recadastramento"
        verbose_name_plural = "campanhas de recadastramento"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "year"], name="unique_campaign_year"),
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="campaign_range"),
        ]

    def __str__(self) -> str:
        return f"Recadastramento {self.year}"


class Reregistration(TenantModel):
    class Exemption(models.TextChoices):
        NONE = "", "Nenhuma"
        FORCE_MAJEURE = "force_majeure", "Força maior ou caso fortuito formalizado no calendário"
        AGENCY_CAUSE = "agency_cause", "Atraso causado pelo Poder Público"

    campaign = models.ForeignKey(ReregistrationCampaign, on_delete=models.PROTECT, related_name="entries")
    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="reregistrations")
    registered_on = models.DateField("recadastrado em")
    late = models.BooleanField("fora do calendário", default=False)
    exemption = models.CharField(
        "isenção da multa", max_length=16, choices=Exemption.choices, default="", blank=True
    )
    exemption_filed_on = models.DateField("ocorrido formalizado em", null=True, blank=True)
    exemption_reason = models.TextField("justificativa da isenção", blank=True)
    fine_due = models.BooleanField("sujeito à multa", default=False)
    fees = models.JSONField("taxas", default=list, blank=True)
    total_fees = models.DecimalField("total das taxas", max_digits=12, decimal_places=2, default=0)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "vehicle__holder_id"

    class Meta:
        ordering = ["-registered_on", "-id"]
        verbose_name = "recadastramento"
        verbose_name_plural = "recadastramentos"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "vehicle"], name="unique_reregistration"),
        ]

    def __str__(self) -> str:
        return f"Recadastramento {self.campaign.year} — {self.vehicle}"


class Seal(TenantModel):
    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="seals")
    inspection = models.OneToOneField(
        Inspection, on_delete=models.PROTECT, null=True, blank=True, related_name="seal"
    )
    reregistration = models.ForeignKey(
        Reregistration, on_delete=models.PROTECT, null=True, blank=True, related_name="seals"
    )
    number = models.CharField("número", max_length=30)
    issued_on = models.DateField("emitido em")
    valid_until = models.DateField("válido até")
    citations = models.JSONField("fundamentos", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "vehicle__holder_id"

    class Meta:
        ordering = ["-valid_until", "-id"]
        verbose_name = "selo de vistoria"
        verbose_name_plural = "selos de vistoria"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="unique_seal_number"),
        ]
        indexes = [models.Index(fields=["vehicle", "valid_until"], name="seal_vehicle_until")]

    def __str__(self) -> str:
        return f"Selo {self.number}"


class ProvisionalAuthorization(TenantModel):
    """The provisional authorization of a vehicle over the age the law admits, for the holder
    selected in the tender, until the vehicle is replaced (Maricá art. 25, § 6º;
    `vehicle.provisional_over_age`)."""

    class Status(models.TextChoices):
        IN_FORCE = "in_force", "Em vigor"
        REPLACED = "replaced", "Encerrada pela substituição do veículo"
        EXPIRED = "expired", "Vencida"

    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="provisional_authorizations")
    tender_act = models.CharField("certame e ato da seleção", max_length=200)
    selected_on = models.DateField("selecionado em")
    granted_on = models.DateField("emitida em")
    valid_until = models.DateField("válida até")
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.IN_FORCE)
    ended_on = models.DateField("encerrada em", null=True, blank=True)
    citation = models.CharField("fundamento", max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "vehicle__holder_id"

    class Meta:
        ordering = ["-valid_until", "-id"]
        verbose_name = "autorização provisória de veículo"
        verbose_name_plural = "autorizações provisórias de veículos"
        constraints = [
            models.UniqueConstraint(
                fields=["vehicle"], condition=Q(status="in_force"), name="one_provisional_in_force"
            ),
        ]

    def __str__(self) -> str:
        return f"Autorização provisória de {self.vehicle} até {self.valid_until:%d/%m/%Y}"

    def in_force(self, on: dt.date) -> bool:
        return self.status == self.Status.IN_FORCE and self.granted_on <= on <= self.valid_until
