"""The operator duties the laws put on holders: incident and accident reports, the register of
prior authorizations (with their validity) and the periodic reports with their due dates."""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from lotacao.core.tenancy import TenantModel
from lotacao.documents.models import private_storage
from lotacao.registry.models import Holder, Vehicle


def duties_upload_name(instance: Any, filename: str) -> str:
    """duties/<jurisdiction>/<random hex>.<extension from the detected content type>: the
    operator's photos and reports apart from the documents under review."""
    extension = {"application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}.get(
        instance.content_type, "bin"
    )
    return f"duties/{instance.jurisdiction_id}/{uuid.uuid4().hex}.{extension}"


class IncidentReport(TenantModel):
    """An accident, or another fact that interrupts or changes the service, reported by the holder
    (or entered by staff), with the law's deadline computed by the engine."""

    class Kind(models.TextChoices):
        ACCIDENT = "accident", "Acidente"
        INCIDENT = "incident", "Outro fato que interrompe ou altera o serviço"

    class Source(models.TextChoices):
        HOLDER = "holder", "Pelo permissionário"
        STAFF = "staff", "Pelo órgão gestor"

    protocol = models.CharField("protocolo", max_length=30, unique=True)
    holder = models.ForeignKey(Holder, on_delete=models.PROTECT, related_name="incident_reports")
    vehicle = models.ForeignKey(Vehicle, on_delete=models.PROTECT, related_name="incident_reports")
    kind = models.CharField("natureza", max_length=10, choices=Kind.choices)
    occurred_at = models.DateTimeField("ocorrido em")
    reported_at = models.DateTimeField("comunicado em")
    place = models.CharField("local", max_length=200, blank=True)
    victims = models.BooleanField("houve vítimas", default=False)
    vehicle_withdrawn = models.BooleanField("veículo recolhido para reparos", default=False)
    description = models.TextField("descrição")
    source = models.CharField("registrado", max_length=8, choices=Source.choices, default=Source.HOLDER)
    due_on = models.DateField("prazo da comunicação", null=True, blank=True)
    deadline_text = models.TextField("prazo, nas palavras do motor", blank=True)
    late = models.BooleanField("comunicado fora do prazo", default=False)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    suggested_infractions = models.JSONField("infrações sugeridas", default=list, blank=True)
    inspection = models.ForeignKey(
        "inspections.Inspection",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="vistoria após o acidente",
    )
    reviewed_at = models.DateTimeField("analisado em", null=True, blank=True)
    review_note = models.TextField("análise do órgão", blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["-reported_at", "-id"]
        verbose_name = "comunicação de ocorrência"
        verbose_name_plural = "comunicações de ocorrência"

    def __str__(self) -> str:
        return f"Comunicação {self.protocol}"


class IncidentPhoto(TenantModel):
    report = models.ForeignKey(IncidentReport, on_delete=models.PROTECT, related_name="photos")
    file = models.FileField("foto", storage=private_storage, upload_to=duties_upload_name, max_length=200)
    content_type = models.CharField("tipo do conteúdo", max_length=40)
    size = models.PositiveIntegerField("tamanho (bytes)")
    sha256 = models.CharField(max_length=64)
    uploaded_at = models.DateTimeField("enviada em", auto_now_add=True)

    holder_path: ClassVar[str | None] = "report__holder_id"

    class Meta:
        ordering = ["report", "id"]
        verbose_name = "foto da ocorrência"
        verbose_name_plural = "fotos da ocorrência"

    def __str__(self) -> str:
        return f"Foto {self.pk} da {self.report}"


class Authorization(TenantModel):
    """A prior authorization the law requires (interruption, leaving the municipality, another
    use, modification, sound equipment, advertising, sale): asked by the holder, decided by staff
    with reasons and citation; once granted, in force between its dates."""

    class Kind(models.TextChoices):
        INTERRUPTION = "interruption", "Interrupção ou suspensão do serviço"
        LEAVE_MUNICIPALITY = "leave_municipality", "Saída do veículo do município"
        OTHER_USE = "other_use", "Uso do veículo para outros fins"
        MODIFICATION = "modification", "Alteração das características originais do veículo"
        SOUND_EQUIPMENT = "sound_equipment", "Equipamento sonoro ou audiovisual"
        ADVERTISING = "advertising", "Publicidade no veículo"
        SALE = "sale", "Retirada ou venda do veículo"

    class Status(models.TextChoices):
        REQUESTED = "requested", "Pedida, aguardando decisão"
        GRANTED = "granted", "Autorizada"
        DENIED = "denied", "Indeferida"
        REVOKED = "revoked", "Revogada"
        WITHDRAWN = "withdrawn", "Desistência do permissionário"

    holder = models.ForeignKey(Holder, on_delete=models.PROTECT, related_name="authorizations")
    vehicle = models.ForeignKey(
        Vehicle, on_delete=models.PROTECT, null=True, blank=True, related_name="authorizations"
    )
    kind = models.CharField("autorização", max_length=20, choices=Kind.choices)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.REQUESTED)
    starts_on = models.DateField("a partir de")
    ends_on = models.DateField("até")
    purpose = models.TextField("motivo e detalhes do pedido")
    citation = models.CharField("fundamento", max_length=300)
    requested_at = models.DateTimeField("pedida em", auto_now_add=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_on = models.DateField("decidida em", null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decision_reasons = models.TextField("razões da decisão", blank=True)
    decision_citation = models.CharField("fundamento da decisão", max_length=300, blank=True)
    months = models.PositiveSmallIntegerField("meses de publicidade", null=True, blank=True)
    charge = models.ForeignKey(
        "billing.Charge",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="cobrança da taxa",
    )

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["-starts_on", "-id"]
        verbose_name = "autorização prévia"
        verbose_name_plural = "autorizações prévias"
        indexes = [models.Index(fields=["vehicle", "status", "ends_on"], name="authorization_in_force")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")), name="authorization_dates_in_order"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.holder}"


class PeriodicReport(TenantModel):
    """One period's report or data a law requires (Recife art. 13 XXVI; Esteio art. 24 II–III;
    Maricá arts. 24 § 2º, 40 XXXI): a row exists once the holder delivers it; the periods due and
    missing are computed from the law's (or the agency's) periodicity."""

    holder = models.ForeignKey(Holder, on_delete=models.PROTECT, related_name="periodic_reports")
    report = models.CharField("relatório", max_length=40)  # the pack's parameter id after "report."
    period_start = models.DateField("início do período")
    period_end = models.DateField("fim do período")
    due_on = models.DateField("prazo de entrega")
    delivered_at = models.DateTimeField("entregue em")
    late = models.BooleanField("entregue fora do prazo", default=False)
    file = models.FileField(
        "arquivo", storage=private_storage, upload_to=duties_upload_name, max_length=200, blank=True
    )
    content_type = models.CharField("tipo do conteúdo", max_length=40, blank=True)
    notes = models.TextField("observações", blank=True)
    citation = models.CharField("fundamento", max_length=300)
    delivered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["-period_end", "report"]
        verbose_name = "relatório periódico"
        verbose_name_plural = "relatórios periódicos"
        constraints = [
            models.UniqueConstraint(
                fields=["holder", "report", "period_start"], name="one_periodic_report_per_period"
            )
        ]

    def __str__(self) -> str:
        return f"Relatório de {self.period_start:%m/%Y} — {self.holder}"
