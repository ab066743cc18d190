"""What sanctions leave on record: administrative measures, fines, and what final decisions
leave behind (mandatory courses, suspensions followed up, revocation processes, Esteio's
interventions)."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models

from lotacao.core.tenancy import TenantModel

# ------------------------------------------------------------------ measures (medidas administrativas)


class Measure(TenantModel):
    """An administrative measure taken with a notice (Maricá art. 64: recorded on the notice),
    with the conditions the law sets for its release, each met on a date."""

    class Kind(models.TextChoices):
        VEHICLE_RETENTION = "vehicle_retention", "Retenção do veículo"
        VEHICLE_REMOVAL = "vehicle_removal", "Afastamento do veículo"
        VEHICLE_SEIZURE = "vehicle_seizure", "Remoção e apreensão do veículo"
        DOCUMENT_SEIZURE = "document_seizure", "Recolhimento de documentos"
        STAFF_REMOVAL = "staff_removal", "Afastamento do pessoal de operação"
        PERMIT_SUSPENSION = "permit_suspension", "Suspensão da permissão"

    class Status(models.TextChoices):
        IN_FORCE = "in_force", "Em vigor"
        RELEASED = "released", "Liberada"
        CONVERTED = "converted", "Convertida em outra medida"

    notice = models.ForeignKey(
        "enforcement.InfractionNotice", on_delete=models.PROTECT, related_name="measures"
    )
    kind = models.CharField("medida", max_length=30, choices=Kind.choices)
    applied_at = models.DateTimeField("aplicada em")
    detail = models.TextField("detalhes (local de depósito, documentos recolhidos…)", blank=True)
    days = models.PositiveIntegerField("dias (suspensão)", null=True, blank=True)
    # [{"id", "label", "cite", "met_on", "note", "by"}] from the pack's measure.release for the kind.
    conditions = models.JSONField("condições de liberação", default=list, blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    missing_parameters = models.JSONField("parâmetros indefinidos", default=list, blank=True)
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.IN_FORCE)
    released_on = models.DateField("liberada em", null=True, blank=True)
    release_note = models.TextField("observação da liberação", blank=True)
    # The measure it turned into (Maricá art. 54, parágrafo único: a retention that cannot be
    # fixed on the spot becomes a seizure).
    converted_to = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="converted_from"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "notice__holder_id"

    class Meta:
        verbose_name = "medida administrativa"
        verbose_name_plural = "medidas administrativas"
        ordering = ["-applied_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — auto {self.notice_id}"

    def get_absolute_url(self) -> str:
        return self.notice.get_absolute_url()


# ------------------------------------------------------------------------------------------ fines


class Fine(TenantModel):
    """The fine of a notice: in BRL or in a fiscal unit converted on the payment date, its due date
    from the law (or set by the agency where the law is silent), payment and the effects of not
    paying. Holders' fines have a billing Charge (clearance); clandestine offenders' do not."""

    class Status(models.TextChoices):
        AWAITING = "awaiting", "Aguardando decisão"
        OPEN = "open", "Em aberto"
        SUSPENDED = "suspended", "Suspensa"
        PAID = "paid", "Paga"
        OFFSET = "offset", "Descontada de créditos"
        CANCELLED = "cancelled", "Cancelada"
        REFUNDED = "refunded", "Restituída"

    notice = models.OneToOneField(
        "enforcement.InfractionNotice", on_delete=models.PROTECT, related_name="fine"
    )
    holder = models.ForeignKey(
        "registry.Holder", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    payer_name = models.CharField("devedor", max_length=200)
    payer_document = models.CharField("documento do devedor", max_length=20, blank=True)
    amount = models.DecimalField("valor (R$)", max_digits=12, decimal_places=2, null=True, blank=True)
    units = models.DecimalField("quantidade", max_digits=12, decimal_places=2, null=True, blank=True)
    unit = models.CharField("unidade fiscal", max_length=20, blank=True)
    due_on = models.DateField("vencimento", null=True, blank=True)
    due_explanation = models.TextField("explicação do vencimento", blank=True)
    due_citations = models.JSONField("fundamentos do vencimento", default=list, blank=True)
    slip_count = models.PositiveSmallIntegerField("guias emitidas", default=0)
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.OPEN)
    status_note = models.TextField("motivo da situação", blank=True)
    paid_on = models.DateField("pago em", null=True, blank=True)
    paid_amount = models.DecimalField(
        "valor pago (R$)", max_digits=12, decimal_places=2, null=True, blank=True
    )
    unit_value = models.DecimalField(
        "valor da unidade na data do pagamento", max_digits=12, decimal_places=4, null=True, blank=True
    )
    unit_value_citation = models.CharField("fundamento do valor da unidade", max_length=300, blank=True)
    payment_reference = models.CharField("comprovante", max_length=100, blank=True)
    # What was given back: the whole fine of a notice annulled later, or the difference of a fine
    # the final decision reduced (`sanctions.refunds`).
    refunded_amount = models.DecimalField(
        "valor restituído (R$)", max_digits=12, decimal_places=2, null=True, blank=True
    )
    charge = models.OneToOneField(
        "billing.Charge", on_delete=models.PROTECT, null=True, blank=True, related_name="fine"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        verbose_name = "multa"
        verbose_name_plural = "multas"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["jurisdiction", "status", "due_on"], name="enf_fine_status_due")]

    def __str__(self) -> str:
        return f"Multa do {self.notice}"

    def get_absolute_url(self) -> str:
        return self.notice.get_absolute_url()

    @property
    def in_units(self) -> bool:
        return self.units is not None and bool(self.unit)


# --------------------------------------------------------------- what final decisions leave behind


class CourseRequirement(TenantModel):
    """A mandatory course a final decision imposed (Maricá art. 52; Cabo's 100 points)."""

    notice = models.ForeignKey("enforcement.InfractionNotice", on_delete=models.PROTECT, related_name="+")
    holder = models.ForeignKey(
        "registry.Holder", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    person = models.ForeignKey(
        "registry.Person", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    required_on = models.DateField("exigido em")
    blocks_operation = models.BooleanField("impede operar até concluir", default=False)
    completed_on = models.DateField("concluído em", null=True, blank=True)
    certificate = models.CharField("certificado", max_length=200, blank=True)
    citation = models.CharField("fundamento", max_length=300, blank=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        verbose_name = "curso obrigatório"
        verbose_name_plural = "cursos obrigatórios"


class SuspensionFollowUp(TenantModel):
    """A suspension a final decision imposed, and, where the law asks (Maricá art. 58 §§ 3º–4º;
    Pernambuco art. 30 § 1º), the proof that its faults were fixed before the permit returns."""

    class Status(models.TextChoices):
        RUNNING = "running", "Suspensão em curso"
        AWAITING_PROOF = "awaiting_proof", "Aguardando comprovação das correções"
        ENDED = "ended", "Encerrada"
        REVOCATION_OPENED = "revocation_opened", "Processo de cassação aberto"

    notice = models.ForeignKey("enforcement.InfractionNotice", on_delete=models.PROTECT, related_name="+")
    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="+")
    starts_on = models.DateField("início")
    ends_on = models.DateField("fim")
    requires_proof = models.BooleanField("exige comprovar as correções", default=False)
    proof_note = models.TextField("comprovação", blank=True)
    proved_on = models.DateField("comprovado em", null=True, blank=True)
    status = models.CharField("situação", max_length=30, choices=Status.choices, default=Status.RUNNING)
    citations = models.JSONField("fundamentos", default=list, blank=True)

    holder_path: ClassVar[str | None] = "permit__holder_id"

    class Meta:
        verbose_name = "acompanhamento de suspensão"
        verbose_name_plural = "acompanhamentos de suspensão"


class RevocationProcess(TenantModel):
    """A revocation that a final decision, the points or a missed proof calls for, where the law
    gives the act to another authority (Esteio Anexo I art. 9 § 2º: the Mayor) or asks for a
    process first (Maricá art. 58 § 4º)."""

    class Status(models.TextChoices):
        OPEN = "open", "Em andamento"
        REVOKED = "revoked", "Cassação aplicada"
        DISMISSED = "dismissed", "Arquivado"

    notice = models.ForeignKey(
        "enforcement.InfractionNotice", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="+")
    opened_on = models.DateField("aberto em")
    cause = models.TextField("motivo")
    decided_by_label = models.CharField("quem decide", max_length=200)
    act = models.CharField("ato (decreto, portaria)", max_length=200, blank=True)
    closed_on = models.DateField("encerrado em", null=True, blank=True)
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.OPEN)
    citations = models.JSONField("fundamentos", default=list, blank=True)

    holder_path: ClassVar[str | None] = "permit__holder_id"

    class Meta:
        verbose_name = "processo de cassação"
        verbose_name_plural = "processos de cassação"


class Intervention(TenantModel):
    """Esteio's intervention (arts. 43–45): decreed with interventor, term, goals and limits; its
    procedure opened within 30 days and concluded within 180, or it is void."""

    class Status(models.TextChoices):
        DECREED = "decreed", "Decretada"
        PROCEDURE_OPEN = "procedure_open", "Procedimento instaurado"
        CONCLUDED = "concluded", "Concluída"
        VOID = "void", "Inválida (prazo perdido)"
        ANNULLED = "annulled", "Nula (pressupostos não observados)"

    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="+")
    decree = models.CharField("decreto", max_length=200)
    decreed_on = models.DateField("decretada em")
    interventor = models.CharField("interventor", max_length=200)
    term_until = models.DateField("prazo da intervenção")
    goals = models.TextField("objetivos")
    limits = models.TextField("limites")
    procedure_due = models.DateField("instaurar procedimento até", null=True, blank=True)
    procedure_opened_on = models.DateField("procedimento instaurado em", null=True, blank=True)
    conclusion_due = models.DateField("concluir até", null=True, blank=True)
    concluded_on = models.DateField("concluída em", null=True, blank=True)
    outcome_note = models.TextField("resultado", blank=True)
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.DECREED)
    citations = models.JSONField("fundamentos", default=list, blank=True)

    holder_path: ClassVar[str | None] = "permit__holder_id"

    class Meta:
        verbose_name = "intervenção"
        verbose_name_plural = "intervenções"

    def __str__(self) -> str:
        return f"Intervenção ({self.decree})"


class InterruptionRequest(TenantModel):
    """A holder's request to interrupt the service (Maricá art. 38: up to 30 days a year, authorized
    by the Executive "observada a conveniência do serviço"), checked with the engine; beyond the
    limit it is refused — interrupting more than authorized is desistência and leads to revocation
    (art. 38, parágrafo único; art. 58, IV) — and a manager decides whether to open that process."""

    class Status(models.TextChoices):
        REQUESTED = "requested", "Pedido registrado, aguardando decisão"
        AUTHORIZED = "authorized", "Autorizada"
        DENIED = "denied", "Indeferida"
        OVER_LIMIT = "over_limit", "Recusada: além do limite anual"
        REVOCATION_OPENED = "revocation_opened", "Processo de cassação aberto"
        CLOSED = "closed", "Arquivada"

    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="+")
    starts_on = models.DateField("interromper de")
    ends_on = models.DateField("até")
    days = models.PositiveIntegerField("dias pedidos")
    year_days = models.PositiveIntegerField("dias no ano, com este pedido")
    reason = models.TextField("motivo do pedido")
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.REQUESTED)
    explanation = models.TextField("verificação da lei", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    decided_on = models.DateField("decidido em", null=True, blank=True)
    decision_note = models.TextField("decisão", blank=True)
    revocation = models.ForeignKey(
        RevocationProcess, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "permit__holder_id"

    class Meta:
        verbose_name = "pedido de interrupção do serviço"
        verbose_name_plural = "pedidos de interrupção do serviço"
        ordering = ["-starts_on", "-id"]

    def __str__(self) -> str:
        return f"Interrupção de {self.starts_on:%d/%m/%Y} a {self.ends_on:%d/%m/%Y}"
