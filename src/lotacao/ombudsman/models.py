"""Manifestations of public service users (Lei federal 13.460/2017) about the regulated transport.

A `Complaint` is what anyone may read who works the agency's queue: kind, subject (plate, line),
the 30-day clock (art. 16), the answer. Who filed it lives apart, in `ComplaintIdentity`: art. 10,
§ 7º makes the complainant's identity personal information with restricted access, so it is read
only by the ombudsman role and each opening is audited (`services.open_identity`). The public
follows a manifestation with its protocol and an access code of which only a hash is stored.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from lotacao.core.tenancy import TenantModel
from lotacao.documents.models import private_storage

DESCRIPTION_MAX = 4000
PLACE_MAX = 300


class Kind(models.TextChoices):
    """Lei 13.460/2017, art. 2º, V (manifestações), in the federal decree's five kinds."""

    COMPLAINT = "reclamacao", "Reclamação"
    REPORT = "denuncia", "Denúncia"
    SUGGESTION = "sugestao", "Sugestão"
    PRAISE = "elogio", "Elogio"
    REQUEST = "solicitacao", "Solicitação"


class Channel(models.TextChoices):
    WEB = "web", "Internet"
    PHONE = "phone", "Telefone"
    COUNTER = "counter", "Atendimento presencial"


class Status(models.TextChoices):
    RECEIVED = "received", "Recebida"
    ANALYSIS = "analysis", "Em análise"
    FORWARDED = "forwarded", "Encaminhada a outro setor"
    ANSWERED = "answered", "Respondida"
    CLOSED = "closed", "Encerrada"


class Unit(models.TextChoices):
    """Where inside the agency a manifestation may be forwarded (art. 16, p.ú.)."""

    ENFORCEMENT = "fiscalizacao", "Fiscalização"
    OFFICE = "atendimento", "Atendimento e cadastro"
    MANAGEMENT = "gestao", "Gestão"


class Complaint(TenantModel):
    protocol = models.CharField("protocolo", max_length=20, unique=True)
    access_hash = models.CharField(max_length=64)  # sha256 of the access code, shown once
    kind = models.CharField("tipo", max_length=12, choices=Kind.choices)
    channel = models.CharField("canal", max_length=8, choices=Channel.choices, default=Channel.WEB)
    status = models.CharField("situação", max_length=10, choices=Status.choices, default=Status.RECEIVED)
    plate = models.CharField("placa", max_length=7, blank=True)
    vehicle = models.ForeignKey(
        "registry.Vehicle", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    line = models.ForeignKey(
        "registry.Line", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    holder = models.ForeignKey(  # the operator the complaint is about (the vehicle's holder), for statistics
        "registry.Holder", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    occurred_at = models.DateTimeField("data e hora do fato", null=True, blank=True)
    place = models.CharField("local", max_length=PLACE_MAX, blank=True)
    description = models.TextField("relato", max_length=DESCRIPTION_MAX)
    received_at = models.DateTimeField("recebida em")
    due_on = models.DateField("prazo da resposta")
    extended_on = models.DateField("prorrogada em", null=True, blank=True)
    extension_reason = models.TextField("motivo da prorrogação", blank=True)
    forwarded_to = models.CharField("encaminhada a", max_length=16, choices=Unit.choices, blank=True)
    forward_note = models.TextField("pedido ao setor", blank=True)
    answer = models.TextField("resposta", blank=True)
    measures = models.TextField("providências adotadas", blank=True)
    answered_at = models.DateTimeField("respondida em", null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField("encerrada em", null=True, blank=True)
    inspection = models.ForeignKey(
        "inspections.Inspection", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_by = models.ForeignKey(  # the clerk who took a phone or counter call; empty on the web
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    holder_path: ClassVar[str | None] = None  # a permit holder never reads complaints about them

    class Meta:
        ordering = ["due_on", "id"]
        verbose_name = "manifestação"
        verbose_name_plural = "manifestações"
        indexes = [
            models.Index(fields=["jurisdiction", "status", "due_on"], name="complaint_queue"),
            models.Index(fields=["jurisdiction", "received_at"], name="complaint_received"),
        ]

    def __str__(self) -> str:
        return f"Manifestação {self.protocol}"

    @property
    def is_open(self) -> bool:
        return self.status not in (Status.ANSWERED, Status.CLOSED)


class ComplaintIdentity(TenantModel):
    """Who filed it, if they said (never required: art. 10, § 1º); read only by the ombudsman."""

    complaint = models.OneToOneField(Complaint, on_delete=models.PROTECT, related_name="identity")
    name = models.CharField("nome", max_length=200, blank=True)
    email = models.EmailField("e-mail", max_length=200, blank=True)
    phone = models.CharField("telefone", max_length=30, blank=True)

    class Meta:
        verbose_name = "identificação do manifestante"
        verbose_name_plural = "identificações de manifestantes"

    def __str__(self) -> str:
        return f"Identificação da {self.complaint}"


def photo_upload_name(instance: Any, filename: str) -> str:
    extension = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}.get(
        instance.content_type, "bin"
    )
    return f"ombudsman/{instance.jurisdiction_id}/{uuid.uuid4().hex}.{extension}"


class ComplaintPhoto(TenantModel):
    complaint = models.ForeignKey(Complaint, on_delete=models.PROTECT, related_name="photos")
    file = models.FileField("foto", storage=private_storage, upload_to=photo_upload_name, max_length=200)
    content_type = models.CharField("tipo do conteúdo", max_length=40)
    size = models.PositiveIntegerField("tamanho (bytes)")
    sha256 = models.CharField(max_length=64)
    uploaded_at = models.DateTimeField("enviada em", auto_now_add=True)

    class Meta:
        ordering = ["complaint", "id"]
        verbose_name = "foto da manifestação"
        verbose_name_plural = "fotos das manifestações"

    def __str__(self) -> str:
        return f"Foto {self.pk} da {self.complaint}"
