"""Requests a permit holder files online and the slots the agency opens for inspections.

A `Request` is one procedure of the holder (its `kind`), with what the holder filed (`details`),
what it points at (the permit, the vehicle, the uploaded document, the booked slot), and the staff
decision that answers it (status, reasons, citation, who and when) and its effect (`effect`: the
Portuguese sentence of what the decision did). Its statuses move only through `states.py`.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel
from lotacao.registry.models import Holder, Vehicle


class InspectionSlot(TenantModel):
    """A date and time the agency opens for inspections, with how many vehicles it takes."""

    starts_at = models.DateTimeField("data e hora")
    place = models.CharField("local", max_length=200)
    capacity = models.PositiveSmallIntegerField("vagas")
    closed = models.BooleanField("fechado", default=False)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None  # holders see slots through the booking form only

    class Meta:
        ordering = ["starts_at", "id"]
        verbose_name = "horário de vistoria"
        verbose_name_plural = "horários de vistoria"
        constraints = [
            models.CheckConstraint(condition=Q(capacity__gte=1), name="slot_capacity_positive"),
        ]

    def __str__(self) -> str:
        from django.utils import timezone

        local = timezone.localtime(self.starts_at)
        return f"{local:%d/%m/%Y às %H:%M} — {self.place}"


class Request(TenantModel):
    class Kind(models.TextChoices):
        APPLICATION = "application", "Requerimento de permissão"
        RENEWAL = "renewal", "Renovação da permissão"
        DOCUMENT = "document", "Envio de documento para análise"
        SUBSTITUTION = "substitution", "Substituição de veículo"
        INSPECTION = "inspection", "Agendamento de vistoria"

    class Status(models.TextChoices):
        FILED = "filed", "Em análise"
        APPROVED = "approved", "Deferido"
        REFUSED = "refused", "Indeferido"
        WITHDRAWN = "withdrawn", "Desistência do requerente"

    protocol = models.CharField("protocolo", max_length=30)
    holder = models.ForeignKey(Holder, on_delete=models.PROTECT, related_name="online_requests")
    kind = models.CharField("requerimento", max_length=16, choices=Kind.choices)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.FILED)
    filed_on = models.DateField("protocolado em")
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    statement = models.TextField("justificativa do requerente", blank=True)
    details = models.JSONField("dados do pedido", default=dict, blank=True)
    requirements = models.JSONField("requisitos verificados ao protocolar", default=list, blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    permit = models.ForeignKey(
        "permits.Permit", on_delete=models.PROTECT, null=True, blank=True, related_name="online_requests"
    )
    vehicle = models.ForeignKey(
        Vehicle, on_delete=models.PROTECT, null=True, blank=True, related_name="online_requests"
    )
    document = models.ForeignKey(
        "documents.Document", on_delete=models.PROTECT, null=True, blank=True, related_name="online_requests"
    )
    slot = models.ForeignKey(
        InspectionSlot, on_delete=models.PROTECT, null=True, blank=True, related_name="bookings"
    )
    decided_on = models.DateField("decidido em", null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decision_reasons = models.TextField("fundamentação da decisão", blank=True)
    decision_citation = models.CharField("fundamento legal da decisão", max_length=500, blank=True)
    effect = models.TextField("efeito da decisão", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["-filed_on", "-id"]
        verbose_name = "requerimento"
        verbose_name_plural = "requerimentos"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "protocol"], name="unique_request_protocol"),
        ]
        indexes = [models.Index(fields=["jurisdiction", "status"], name="request_status_idx")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} nº {self.protocol}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.FILED
