"""Models of tenders: each record belongs to one jurisdiction (core.tenancy).

A call (`Call`, the edital) offers places on a line (or a number of permits), opens a window for
applications (`TenderApplication`), ranks them by the law's criteria computed from each
applicant's dossier, breaks ties by a public draw whose seed is recorded before it is held,
publishes the ranking, takes appeals (`TenderAppeal`) in the window it states, and awards: the
winners' permits are granted by the permits app. The state table is `lotacao.tenders.states`.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from lotacao.core.tenancy import TenantModel


class Call(TenantModel):
    class Status(models.TextChoices):
        DRAFT = "draft", "Em elaboração"
        OPEN = "open", "Inscrições abertas"
        CLOSED = "closed", "Inscrições encerradas"
        RANKED = "ranked", "Classificação apurada"
        PUBLISHED = "published", "Classificação publicada"
        APPEALS = "appeals", "Prazo de recurso"
        AWARDED = "awarded", "Adjudicado"
        CANCELLED = "cancelled", "Cancelado"

    number = models.CharField("número do edital", max_length=40)
    subject = models.TextField("objeto")
    line = models.ForeignKey(
        "registry.Line",
        on_delete=models.PROTECT,
        related_name="calls",
        verbose_name="linha",
    )
    places = models.PositiveIntegerField("vagas (permissões)")
    opens_on = models.DateField("inscrições de")
    closes_on = models.DateField("inscrições até")
    criteria = models.JSONField("critérios de classificação", default=list, blank=True)
    criteria_citations = models.JSONField("fundamento dos critérios", default=list, blank=True)
    edital_criteria = models.JSONField("critérios acrescentados pelo edital", default=list, blank=True)
    tie_break_clause = models.CharField(
        "cláusula de desempate do edital",
        max_length=300,
        blank=True,
        help_text="Onde a lei não fixa o desempate, a cláusula do edital que prevê o sorteio público.",
    )
    permit_valid_until = models.DateField(
        "validade das permissões fixada no edital",
        null=True,
        blank=True,
        help_text="Só onde a lei não fixa o prazo da permissão (o edital o fixa).",
    )
    count_provisional_time = models.BooleanField(
        "o tempo com permissão provisória conta como tempo de serviço", default=False
    )
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.DRAFT)
    ties = models.JSONField("empates a sortear", default=list, blank=True)
    draw_seed = models.CharField("semente do sorteio", max_length=200, blank=True)
    draw_seed_published_in = models.CharField("semente publicada em", max_length=300, blank=True)
    draw_seed_recorded_at = models.DateTimeField("semente registrada em", null=True, blank=True)
    draw_held_on = models.DateField("sorteio realizado em", null=True, blank=True)
    draw_result = models.JSONField("resultado do sorteio", default=list, blank=True)
    ranked_on = models.DateField("classificação apurada em", null=True, blank=True)
    published_on = models.DateField("classificação publicada em", null=True, blank=True)
    appeals_from = models.DateField("recursos de", null=True, blank=True)
    appeals_until = models.DateField("recursos até", null=True, blank=True)
    awarded_on = models.DateField("adjudicado em", null=True, blank=True)
    cancelled_on = models.DateField("cancelado em", null=True, blank=True)
    cancel_reason = models.TextField("motivo do cancelamento", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-opens_on", "-id"]
        verbose_name = "edital"
        verbose_name_plural = "editais"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="unique_call_number_per_jurisdiction"
            ),
        ]

    def __str__(self) -> str:
        return f"Edital nº {self.number}"


class TenderApplication(TenantModel):
    class Status(models.TextChoices):
        FILED = "filed", "Inscrita"
        RANKED = "ranked", "Classificada"
        DISQUALIFIED = "disqualified", "Desclassificada"
        AWARDED = "awarded", "Contemplada"
        NOT_AWARDED = "not_awarded", "Não contemplada"

    call = models.ForeignKey(
        Call, on_delete=models.PROTECT, related_name="applications", verbose_name="edital"
    )
    number = models.PositiveIntegerField("número da inscrição")
    holder = models.ForeignKey(
        "registry.Holder",
        on_delete=models.PROTECT,
        related_name="tender_applications",
        verbose_name="inscrito",
    )
    vehicle = models.ForeignKey(
        "registry.Vehicle",
        on_delete=models.PROTECT,
        related_name="tender_applications",
        verbose_name="veículo",
    )
    association = models.ForeignKey(
        "registry.Company",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tender_applications",
        verbose_name="associação a que pertence",
    )
    filed_on = models.DateField("inscrita em")
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.FILED)
    eligibility = models.JSONField("verificação de requisitos na inscrição", default=dict, blank=True)
    facts = models.JSONField("dados do cadastro apurados", default=dict, blank=True)
    incumbent = models.BooleanField("já é permissionário da linha", default=False)
    position = models.PositiveIntegerField("classificação", null=True, blank=True)
    draw_order = models.PositiveIntegerField("ordem no sorteio", null=True, blank=True)
    disqualified_reason = models.TextField("motivo da desclassificação", blank=True)
    permit = models.ForeignKey(
        "permits.Permit",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tender_applications",
        verbose_name="permissão outorgada",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["call", "number"]
        verbose_name = "inscrição em edital"
        verbose_name_plural = "inscrições em edital"
        constraints = [
            models.UniqueConstraint(fields=["call", "number"], name="unique_application_number_per_call"),
            models.UniqueConstraint(fields=["call", "holder"], name="one_application_per_holder_per_call"),
        ]

    def __str__(self) -> str:
        return f"Inscrição nº {self.number} no edital nº {self.call.number}"


class TenderAppeal(TenantModel):
    class Status(models.TextChoices):
        FILED = "filed", "Aguardando julgamento"
        GRANTED = "granted", "Provido"
        DENIED = "denied", "Não provido"

    call = models.ForeignKey(Call, on_delete=models.PROTECT, related_name="appeals", verbose_name="edital")
    application = models.ForeignKey(
        TenderApplication, on_delete=models.PROTECT, related_name="appeals", verbose_name="inscrição"
    )
    filed_on = models.DateField("interposto em")
    grounds = models.TextField("razões do recurso")
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.FILED)
    decided_on = models.DateField("julgado em", null=True, blank=True)
    decision = models.TextField("fundamentos da decisão", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "application__holder_id"

    class Meta:
        ordering = ["call", "filed_on", "id"]
        verbose_name = "recurso contra a classificação"
        verbose_name_plural = "recursos contra a classificação"

    def __str__(self) -> str:
        return f"Recurso da inscrição nº {self.application.number}"
