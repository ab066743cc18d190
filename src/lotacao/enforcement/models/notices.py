"""Infraction notices (autos de infração), the engine's penalty stored beside them, how each
was notified, the notice numbers and the points ledger."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models

from lotacao.core.tenancy import TenantModel
from lotacao.documents.models import private_storage
from lotacao.enforcement.reading import describe_penalty


class OffenderKind(models.TextChoices):
    PERMIT_HOLDER = "permit_holder", "Permissionário"
    AUXILIARY_DRIVER = "auxiliary_driver", "Condutor auxiliar"
    RELIEF_DRIVER = "relief_driver", "Condutor eventual"
    FARE_COLLECTOR = "fare_collector", "Cobrador"
    COMPANY = "company", "Empresa"
    UNLICENSED = "unlicensed", "Transporte clandestino"


AGENT_KINDS = {OffenderKind.AUXILIARY_DRIVER, OffenderKind.RELIEF_DRIVER, OffenderKind.FARE_COLLECTOR}


class InfractionNotice(TenantModel):
    class Status(models.TextChoices):
        DRAWN_UP = "drawn_up", "Lavrado"
        NOTIFIED = "notified", "Notificado"
        ARCHIVED = "archived", "Arquivado"
        ANNULLED = "annulled", "Anulado"
        DECIDED_FINAL = "decided_final", "Decisão definitiva"

    number = models.CharField("número", max_length=30)
    drawn_up_at = models.DateTimeField("data e hora da infração")
    place = models.CharField("local", max_length=300, blank=True)
    infraction_code = models.CharField("enquadramento", max_length=40, blank=True)
    infraction_group = models.CharField("grupo", max_length=20, blank=True)
    description = models.TextField("descrição da ocorrência", blank=True)
    offender_kind = models.CharField("infrator", max_length=20, choices=OffenderKind.choices)
    permit = models.ForeignKey(
        "permits.Permit",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="permissão",
    )
    holder = models.ForeignKey(
        "registry.Holder",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="infraction_notices",
        verbose_name="permissionário",
    )
    agent = models.ForeignKey(
        "registry.Person",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="preposto (pessoa)",
    )
    vehicle = models.ForeignKey(
        "registry.Vehicle",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="veículo",
    )
    line = models.ForeignKey(
        "registry.Line",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="linha",
    )
    plate = models.CharField("placa", max_length=7, blank=True)
    offender_name = models.CharField("nome do infrator", max_length=200, blank=True)
    offender_document = models.CharField("documento do infrator", max_length=20, blank=True)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="agente fiscal",
    )
    evidence_image = models.CharField("referência da imagem", max_length=300, blank=True)
    evidence_latitude = models.DecimalField("latitude", max_digits=9, decimal_places=6, null=True, blank=True)
    evidence_longitude = models.DecimalField(
        "longitude", max_digits=9, decimal_places=6, null=True, blank=True
    )
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.DRAWN_UP)
    # The engine's result at drawing up (never changed) and the penalty in force (changed only by
    # override_penalty, with a reason, audited).
    engine_result = models.JSONField("resultado do motor", default=dict, blank=True)
    penalty = models.JSONField("penalidade", default=dict, blank=True)
    penalty_overridden = models.BooleanField("penalidade alterada", default=False)
    override_reason = models.TextField("motivo da alteração", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    explanation = models.TextField("explicação", blank=True)
    law = models.CharField("lei aplicada", max_length=200, blank=True)
    evaluated_for = models.DateField("data de referência do cálculo", null=True, blank=True)
    missing_parameters = models.JSONField("parâmetros indefinidos", default=list, blank=True)
    charged_to_holder = models.BooleanField("cobrado do permissionário", default=False)
    # Notification: the date it counts as served (NoticeService), or the archive the law orders.
    served_on = models.DateField("notificado em", null=True, blank=True)
    archived_on = models.DateField("arquivado em", null=True, blank=True)
    archive_reason = models.TextField("motivo do arquivamento", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        verbose_name = "auto de infração"
        verbose_name_plural = "autos de infração"
        ordering = ["-drawn_up_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="enforcement_notice_number_unique"
            )
        ]
        indexes = [
            models.Index(fields=["jurisdiction", "holder", "drawn_up_at"], name="enf_notice_holder_idx"),
            models.Index(fields=["jurisdiction", "agent", "drawn_up_at"], name="enf_notice_agent_idx"),
            models.Index(fields=["jurisdiction", "plate", "drawn_up_at"], name="enf_notice_plate_idx"),
            models.Index(fields=["status", "drawn_up_at"], name="enf_notice_status_idx"),
            # The daily deadline job reads only notices not yet served (bench_notice_deadlines).
            models.Index(
                fields=["jurisdiction", "drawn_up_at"],
                name="enf_notice_unserved_idx",
                condition=models.Q(served_on__isnull=True, status__in=["drawn_up", "notified"]),
            ),
        ]

    def __str__(self) -> str:
        return f"Auto de infração {self.number}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:notice", kwargs={"pk": self.pk})

    @property
    def penalty_summary(self) -> str:
        return describe_penalty(self.penalty)

    @property
    def infraction_item(self) -> str:
        """The law's item as it prints it (`art. 42, II`), for lists."""
        from lotacao.core.law import pack_for

        row = pack_for(self.jurisdiction_id).infractions.get(self.infraction_code)
        if row is not None:
            return row.cite or row.citation
        if self.infraction_code == "unlicensed_transport":
            return "Transporte clandestino"
        return self.infraction_code


class NoticeService(TenantModel):
    """One notification of a notice: how it was sent, when it counts as served and why."""

    class Method(models.TextChoices):
        HAND = "hand", "Pessoalmente (em mãos)"
        POST_AR = "post_ar", "Via postal com aviso de recebimento (AR)"
        EDITAL = "edital", "Por edital"

    class ReturnReason(models.TextChoices):
        OUTDATED_ADDRESS = "outdated_address", "Endereço ou cadastro desatualizado"
        OTHER = "other", "Outro motivo"

    notice = models.ForeignKey(InfractionNotice, on_delete=models.PROTECT, related_name="services")
    method = models.CharField("meio", max_length=20, choices=Method.choices)
    sent_on = models.DateField("enviada em", null=True, blank=True)
    received_on = models.DateField("recebida em", null=True, blank=True)
    published_on = models.DateField("edital publicado em", null=True, blank=True)
    returned = models.BooleanField("devolvida", default=False)
    returned_reason = models.CharField(
        "motivo da devolução", max_length=20, choices=ReturnReason.choices, blank=True
    )
    returned_note = models.TextField("observação da devolução", blank=True)
    # Served after the agency's deadline where the law only sets the deadline (it does not
    # archive): a manager decides to archive the notice or to go on (`late_decision`).
    late = models.BooleanField("feita depois do prazo do órgão", default=False)
    late_decision = models.CharField(
        "decisão do gestor sobre o atraso",
        max_length=10,
        blank=True,
        choices=[("kept", "Prosseguir"), ("archived", "Arquivar")],
    )
    address = models.CharField("endereço usado", max_length=400, blank=True)
    addressed_to_holder = models.BooleanField("enviada ao permissionário", default=False)
    # None while a letter sent by post waits for its AR (the sending alone may be what the law's
    # deadline to notify asks for: notice.notification_deadline_event = sent).
    served_on = models.DateField("considerada feita em", null=True, blank=True)
    explanation = models.TextField("explicação", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    missing_parameters = models.JSONField("parâmetros indefinidos", default=list, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="registrado por",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "notice__holder_id"

    class Meta:
        verbose_name = "notificação do auto"
        verbose_name_plural = "notificações do auto"
        ordering = ["-served_on", "-id"]

    def __str__(self) -> str:
        return f"Notificação do auto {self.notice_id} ({self.get_method_display()})"


class NoticeCounter(TenantModel):
    """The last notice number of a jurisdiction (row-locked when numbering)."""

    last_number = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction"], name="enforcement_counter_unique")]


class PointsEntry(TenantModel):
    """Points a notice added to a person where the law keeps points."""

    notice = models.ForeignKey(InfractionNotice, on_delete=models.PROTECT, related_name="points_entries")
    person = models.ForeignKey(
        "registry.Person",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="pessoa",
    )
    holder = models.ForeignKey(
        "registry.Holder", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    points = models.PositiveIntegerField("pontos")
    on = models.DateField("data da infração")
    citation = models.CharField("fundamento", max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        verbose_name = "lançamento de pontos"
        constraints = [models.UniqueConstraint(fields=["notice", "person"], name="enforcement_points_unique")]


def evidence_upload_name(instance: NoticePhoto, filename: str) -> str:
    """evidence/<jurisdiction>/<random hex>.<extension from the detected content type>."""
    extension = PHOTO_EXTENSIONS.get(instance.content_type, "bin")
    return f"evidence/{instance.jurisdiction_id}/{uuid.uuid4().hex}.{extension}"


PHOTO_EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}


class NoticePhoto(TenantModel):
    """A photo taken with the phone's camera when the notice was drawn up: evidence kept with the
    notice, outside the web root, served only through a view that checks the scope."""

    notice = models.ForeignKey(InfractionNotice, on_delete=models.PROTECT, related_name="photos")
    file = models.FileField("foto", storage=private_storage, upload_to=evidence_upload_name, max_length=200)
    content_type = models.CharField("tipo do conteúdo", max_length=40)
    size = models.PositiveIntegerField("tamanho (bytes)")
    sha256 = models.CharField(max_length=64)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    uploaded_at = models.DateTimeField("enviada em", auto_now_add=True)

    holder_path: ClassVar[str | None] = "notice__holder_id"

    class Meta:
        ordering = ["notice", "id"]
        verbose_name = "foto do auto"
        verbose_name_plural = "fotos do auto"

    def __str__(self) -> str:
        return f"Foto {self.pk} do {self.notice}"
