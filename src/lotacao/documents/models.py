"""Documents presented by persons, companies and vehicles: the uploaded file, its validity and review.

Which documents each role needs comes from the pack (`documents.<role>`: lotacao.documents.rules).
Files live under MEDIA_ROOT (outside the web root, never under STATIC_ROOT) with a random name,
and are served only by a view that checks the scope and the role (lotacao.documents.views).
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel


class PrivateStorage(FileSystemStorage):
    """Files under MEDIA_ROOT (read from the settings when used) that have no public URL:
    they go out only through a view that checks scope and role."""

    def url(self, name: str | None) -> str:
        raise NotImplementedError("Documentos não têm endereço público; use a tela do documento.")


private_storage = PrivateStorage()


def random_upload_name(instance: Document, filename: str) -> str:
    """documents/<jurisdiction>/<random hex>.<extension from the detected content type>."""
    extension = {"application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg"}.get(
        instance.content_type, "bin"
    )
    return f"documents/{instance.jurisdiction_id}/{uuid.uuid4().hex}.{extension}"


class Document(TenantModel):
    class Status(models.TextChoices):
        PENDING = "pendente", "Aguardando análise"
        ACCEPTED = "aceito", "Aceito"
        REFUSED = "recusado", "Recusado"

    person = models.ForeignKey(
        "registry.Person", on_delete=models.PROTECT, null=True, blank=True, related_name="documents"
    )
    company = models.ForeignKey(
        "registry.Company", on_delete=models.PROTECT, null=True, blank=True, related_name="documents"
    )
    vehicle = models.ForeignKey(
        "registry.Vehicle", on_delete=models.PROTECT, null=True, blank=True, related_name="documents"
    )
    code = models.CharField("tipo", max_length=60)
    label = models.CharField("documento", max_length=200)
    citation = models.CharField("fundamento", max_length=300, blank=True)
    sensitive = models.BooleanField("sigiloso", default=False)
    file = models.FileField("arquivo", storage=private_storage, upload_to=random_upload_name, max_length=200)
    content_type = models.CharField("tipo do conteúdo", max_length=40)
    size = models.PositiveIntegerField("tamanho (bytes)")
    sha256 = models.CharField(max_length=64)
    original_name = models.CharField("nome do arquivo enviado", max_length=200, blank=True)
    issued_on = models.DateField("emitido em", null=True, blank=True)
    valid_until = models.DateField("válido até", null=True, blank=True)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.PENDING)
    refusal_reason = models.TextField("motivo da recusa", blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reviewed_at = models.DateTimeField("analisado em", null=True, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    uploaded_at = models.DateTimeField("enviado em", auto_now_add=True)

    # Permit holders do not see documents through the staff screens (their portal comes later).
    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["code", "-uploaded_at"]
        verbose_name = "documento"
        verbose_name_plural = "documentos"
        constraints = [
            models.CheckConstraint(
                condition=(Q(person__isnull=False) & Q(company__isnull=True) & Q(vehicle__isnull=True))
                | (Q(person__isnull=True) & Q(company__isnull=False) & Q(vehicle__isnull=True))
                | (Q(person__isnull=True) & Q(company__isnull=True) & Q(vehicle__isnull=False)),
                name="document_has_one_owner",
            ),
        ]
        indexes = [
            models.Index(fields=["jurisdiction", "status", "valid_until"], name="document_queue_idx"),
            models.Index(fields=["person", "code"], name="document_person_code_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.label} — {self.owner}"

    @property
    def owner(self) -> Any:
        return self.person or self.company or self.vehicle


class SensitiveAccess(TenantModel):
    """Who opened a sensitive document (criminal-record certificate, medical report), and when."""

    document = models.ForeignKey(Document, on_delete=models.PROTECT, related_name="accesses")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField("em", auto_now_add=True)
    channel = models.CharField("por", max_length=10, default="tela")  # tela | api

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-at"]
        verbose_name = "acesso a documento sigiloso"
        verbose_name_plural = "acessos a documentos sigilosos"

    def __str__(self) -> str:
        return f"{self.user} — {self.document_id} — {self.at:%d/%m/%Y %H:%M}"
