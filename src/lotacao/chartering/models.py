"""Models of chartering: the authorized company, its CRC applications and certificates, its fleet,
trips with their passenger lists, tracker positions and the CRC's sanctions.

Every row belongs to one jurisdiction (TenantModel) and reaches the company's holder record, so a
company's portal account sees its own rows and nobody else's (`holder_path`).
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from lotacao.core.formats import lower_first
from lotacao.core.tenancy import TenantModel
from lotacao.registry.models import Company

MODALITY_MAX = 20


class CharteringCompany(TenantModel):
    """An authorized company (autorizatária): a registry holder whose party is a company."""

    holder = models.OneToOneField(
        "registry.Holder", on_delete=models.PROTECT, related_name="chartering", verbose_name="empresa"
    )
    regular_fleet = models.PositiveIntegerField(
        "frota cadastrada no transporte regular intermunicipal",
        default=0,
        help_text="Veículos da empresa no transporte regular (art. 3º, § 5º): até 10% podem ir ao fretamento.",  # noqa: E501
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["id"]
        verbose_name = "empresa de fretamento"
        verbose_name_plural = "empresas de fretamento"

    def __str__(self) -> str:
        return str(self.holder)

    @property
    def party(self) -> Company:
        """The registry's company (a chartering holder is always one: register_company checks)."""
        party = self.holder.company
        assert party is not None
        return party


class CrcApplication(TenantModel):
    """A request for a CRC (first or renewal) and its legal clocks (art. 6 and § 1º; art. 8)."""

    class Kind(models.TextChoices):
        INITIAL = "initial", "Primeiro CRC"
        RENEWAL = "renewal", "Renovação"

    class Status(models.TextChoices):
        FILED = "filed", "Protocolado, em análise"
        DEFICIENT = "deficient", "Documentação incompleta: complementação notificada"
        ISSUED = "issued", "CRC emitido"
        ARCHIVED = "archived", "Arquivado"
        REFUSED = "refused", "Indeferido"

    company = models.ForeignKey(CharteringCompany, on_delete=models.PROTECT, related_name="applications")
    kind = models.CharField("tipo", max_length=10, choices=Kind.choices, default=Kind.INITIAL)
    modalities = models.JSONField("modalidades requeridas", default=list)
    filed_on = models.DateField("protocolado em")
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.FILED)
    issue_due = models.DateField("prazo para fornecer o CRC", null=True, blank=True)
    deficiency = models.TextField("documentos a complementar", blank=True)
    deficiency_notified_on = models.DateField("complementação notificada em", null=True, blank=True)
    complement_due = models.DateField("complementar até", null=True, blank=True)
    completed_on = models.DateField("complementado em", null=True, blank=True)
    closed_on = models.DateField("encerrado em", null=True, blank=True)
    closing_reason = models.TextField("motivo do encerramento", blank=True)
    renewal_of = models.ForeignKey(
        "Crc", on_delete=models.PROTECT, null=True, blank=True, related_name="renewals"
    )
    late_renewal = models.BooleanField("renovação fora do prazo", default=False)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    explanation = models.TextField("explicação dos prazos", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "company__holder_id"
    OPEN: ClassVar[tuple[str, ...]] = (Status.FILED, Status.DEFICIENT)

    class Meta:
        ordering = ["-filed_on", "-id"]
        verbose_name = "requerimento de CRC"
        verbose_name_plural = "requerimentos de CRC"
        indexes = [models.Index(fields=["status", "complement_due"], name="crcapp_status_due")]

    def __str__(self) -> str:
        return f"Requerimento de CRC nº {self.pk} — {self.company}"


class Crc(TenantModel):
    """A Certificado de Registro Cadastral: its modalities and validity (art. 8)."""

    company = models.ForeignKey(CharteringCompany, on_delete=models.PROTECT, related_name="crcs")
    application = models.OneToOneField(CrcApplication, on_delete=models.PROTECT, related_name="crc")
    number = models.CharField("número", max_length=30)
    modalities = models.JSONField("modalidades")
    issued_on = models.DateField("emitido em")
    valid_until = models.DateField("válido até")
    limited_by_policy = models.BooleanField("validade limitada pela apólice", default=False)
    cancelled_on = models.DateField("cancelado em", null=True, blank=True)
    revoked_on = models.DateField("cassado em", null=True, blank=True)
    superseded_on = models.DateField("substituído pela renovação em", null=True, blank=True)
    token = models.UUIDField("código público", default=uuid.uuid4, unique=True, editable=False)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "company__holder_id"

    class Meta:
        ordering = ["-issued_on", "-id"]
        verbose_name = "CRC"
        verbose_name_plural = "CRCs"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="unique_crc_number"),
            models.CheckConstraint(
                condition=Q(valid_until__gte=models.F("issued_on")), name="crc_valid_range"
            ),
        ]
        indexes = [models.Index(fields=["company", "-issued_on"], name="crc_company_issued")]

    def __str__(self) -> str:
        return f"CRC {self.number}"


class FleetVehicle(TenantModel):
    """A vehicle in a company's chartering fleet: own, or leased/loaned/rented (art. 18)."""

    class Tenure(models.TextChoices):
        OWN = "own", "Próprio"
        LEASED = "leased", "Arrendado"
        LOANED = "loaned", "Em comodato"
        RENTED = "rented", "Alugado"

    company = models.ForeignKey(CharteringCompany, on_delete=models.PROTECT, related_name="fleet")
    vehicle = models.ForeignKey(
        "registry.Vehicle", on_delete=models.PROTECT, related_name="chartering_entries"
    )
    tenure = models.CharField("posse", max_length=10, choices=Tenure.choices, default=Tenure.OWN)
    lessor_name = models.CharField("arrendador ou locador", max_length=200, blank=True)
    lessor_cnpj = models.CharField("CNPJ do arrendador", max_length=14, blank=True)
    lessor_same_group = models.BooleanField("arrendador do mesmo grupo econômico", default=False)
    group_proof = models.CharField("comprovação do grupo econômico", max_length=300, blank=True)
    rental_category = models.BooleanField("registrado na categoria aluguel", default=True)
    from_regular = models.BooleanField("vem da frota do transporte regular", default=False)
    added_on = models.DateField("incluído em")
    removed_on = models.DateField("retirado em", null=True, blank=True)
    last_position_at = models.DateTimeField("última posição em", null=True, blank=True)
    last_latitude = models.DecimalField("latitude", max_digits=9, decimal_places=6, null=True, blank=True)
    last_longitude = models.DecimalField("longitude", max_digits=9, decimal_places=6, null=True, blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "company__holder_id"

    class Meta:
        ordering = ["company", "vehicle__plate"]
        verbose_name = "veículo da frota de fretamento"
        verbose_name_plural = "veículos da frota de fretamento"
        constraints = [
            models.UniqueConstraint(
                fields=["vehicle"], condition=Q(removed_on__isnull=True), name="one_live_fleet_entry"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.vehicle} — {lower_first(self.get_tenure_display())}"

    @property
    def leased(self) -> bool:
        return self.tenure != self.Tenure.OWN


class Trip(TenantModel):
    """A trip the company declares before departure: its manifest (art. 21)."""

    class Status(models.TextChoices):
        DECLARED = "declared", "Declarada"
        AWAITING = "awaiting", "Aguardando autorização da EPTI"
        AUTHORIZED = "authorized", "Autorizada pela EPTI"
        REFUSED = "refused", "Autorização recusada"
        CANCELLED = "cancelled", "Cancelada"

    company = models.ForeignKey(CharteringCompany, on_delete=models.PROTECT, related_name="trips")
    crc = models.ForeignKey(Crc, on_delete=models.PROTECT, related_name="trips")
    vehicle = models.ForeignKey("registry.Vehicle", on_delete=models.PROTECT, related_name="chartering_trips")
    modality = models.CharField("modalidade", max_length=MODALITY_MAX)
    contractor_name = models.CharField("contratante", max_length=200)
    contractor_document = models.CharField("CPF/CNPJ do contratante", max_length=14, blank=True)
    contractor_public = models.BooleanField("contratante é pessoa jurídica de direito público", default=False)
    declaration = models.CharField("declaração do contratante ou da entidade", max_length=300, blank=True)
    subcontractor_cnpj = models.CharField("CNPJ da empresa subcontratada", max_length=14, blank=True)
    origin = models.CharField("origem", max_length=120)
    destination = models.CharField("destino", max_length=120)
    itinerary = models.TextField("itinerário", blank=True)
    departs_at = models.DateTimeField("partida")
    returns_at = models.DateTimeField("retorno", null=True, blank=True)
    driver_name = models.CharField("condutor", max_length=200)
    driver_document = models.CharField("CNH do condutor", max_length=20)
    passenger_count = models.PositiveIntegerField("passageiros", default=0)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.DECLARED)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField("decidida em", null=True, blank=True)
    decision_reasons = models.TextField("motivos da decisão", blank=True)
    cancelled_reason = models.TextField("motivo do cancelamento", blank=True)
    list_purged_on = models.DateField("lista de passageiros eliminada em", null=True, blank=True)
    token = models.UUIDField("código do manifesto", default=uuid.uuid4, unique=True, editable=False)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "company__holder_id"
    LIVE: ClassVar[tuple[str, ...]] = (Status.DECLARED, Status.AWAITING, Status.AUTHORIZED)

    class Meta:
        ordering = ["-departs_at", "-id"]
        verbose_name = "viagem"
        verbose_name_plural = "viagens"
        indexes = [
            models.Index(fields=["vehicle", "departs_at"], name="trip_vehicle_departs"),
            models.Index(fields=["jurisdiction", "departs_at"], name="trip_jurisdiction_departs"),
            models.Index(fields=["list_purged_on", "returns_at"], name="trip_purge_idx"),
        ]

    def __str__(self) -> str:
        return f"Viagem {self.origin} — {self.destination} em {timezone.localtime(self.departs_at):%d/%m/%Y}"


class Passenger(TenantModel):
    """One name of a trip's passenger list (personal data: seen by the company, inspectors and
    managers only, every opening audited, purged after the period the agency sets)."""

    trip = models.ForeignKey(Trip, on_delete=models.CASCADE, related_name="passengers")
    name = models.CharField("nome", max_length=200)
    document = models.CharField("documento de identificação com foto", max_length=30)
    position = models.PositiveIntegerField("ordem")

    holder_path: ClassVar[str | None] = "trip__company__holder_id"

    class Meta:
        ordering = ["trip", "position"]
        verbose_name = "passageiro"
        verbose_name_plural = "passageiros"

    def __str__(self) -> str:
        return self.name


class Position(TenantModel):
    """A position a company's tracker sent (art. 14, IV)."""

    vehicle = models.ForeignKey("registry.Vehicle", on_delete=models.PROTECT, related_name="positions")
    recorded_at = models.DateTimeField("registrada em")
    latitude = models.DecimalField("latitude", max_digits=9, decimal_places=6)
    longitude = models.DecimalField("longitude", max_digits=9, decimal_places=6)
    speed = models.DecimalField("velocidade (km/h)", max_digits=6, decimal_places=2, null=True, blank=True)
    received_at = models.DateTimeField("recebida em", auto_now_add=True)

    holder_path: ClassVar[str | None] = "vehicle__holder_id"

    class Meta:
        ordering = ["-recorded_at"]
        verbose_name = "posição do rastreador"
        verbose_name_plural = "posições do rastreador"
        constraints = [
            models.UniqueConstraint(fields=["vehicle", "recorded_at"], name="unique_position_instant"),
        ]

    def __str__(self) -> str:
        return f"{self.vehicle} {self.recorded_at:%d/%m/%Y %H:%M}"


class Sanction(TenantModel):
    """A sanction on a CRC: suspension (90 days), cancellation (180 days) or cassação (art. 35),
    proposed by the system or applied by a final decision; extended on recidivism (art. 31); ended
    only after the term and the proof of cure (art. 30, § 1º)."""

    class Kind(models.TextChoices):
        SUSPENSION = "suspension", "Suspensão do CRC"
        CANCELLATION = "cancellation", "Cancelamento do CRC"
        REVOCATION = "revocation", "Cassação do CRC"

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposta ao gestor"
        IN_FORCE = "in_force", "Em vigor"
        ENDED = "ended", "Encerrada"
        DISMISSED = "dismissed", "Proposta rejeitada"

    company = models.ForeignKey(CharteringCompany, on_delete=models.PROTECT, related_name="sanctions")
    crc = models.ForeignKey(Crc, on_delete=models.PROTECT, related_name="sanctions")
    kind = models.CharField("sanção", max_length=14, choices=Kind.choices)
    status = models.CharField("situação", max_length=10, choices=Status.choices, default=Status.PROPOSED)
    grounds = models.TextField("fundamentos de fato")
    decision_reference = models.CharField("decisão (auto, processo)", max_length=120, blank=True)
    starts_on = models.DateField("início", null=True, blank=True)
    original_days = models.PositiveIntegerField("prazo original (dias)", null=True, blank=True)
    days = models.PositiveIntegerField("prazo (dias)", null=True, blank=True)
    ends_on = models.DateField("fim do prazo", null=True, blank=True)
    extensions = models.JSONField("majorações", default=list, blank=True)
    cure_proof = models.TextField("comprovação de que a irregularidade foi sanada", blank=True)
    ended_on = models.DateField("encerrada em", null=True, blank=True)
    dismissed_reason = models.TextField("motivo da rejeição", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "company__holder_id"

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "sanção do CRC"
        verbose_name_plural = "sanções do CRC"
        indexes = [models.Index(fields=["company", "status"], name="sanction_company_status")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.company}"
