"""Infraction notices (autos de infração), the engine's penalty stored beside them, the points
ledger, and the idempotency keys of the notice API."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from lotacao.core.tenancy import TenantModel


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
        from lotacao.enforcement.notices.selectors import describe_penalty

        return describe_penalty(self.penalty)


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


class IdempotencyKey(models.Model):
    """One request key of the notice API: the insert under the unique constraint decides who runs."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "Em andamento"
        DONE = "done", "Concluída"

    key = models.CharField(max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    jurisdiction = models.ForeignKey(
        "core.Jurisdiction", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    endpoint = models.CharField(max_length=100)
    payload_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    # The body exactly as first sent (text, not JSON: jsonb would reorder keys and a replay must
    # be byte-for-byte the same).
    response_text = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "endpoint", "key"], name="enforcement_idempotency_unique")
        ]

    def __str__(self) -> str:
        return f"{self.endpoint} {self.key}"


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

    notice = models.ForeignKey(InfractionNotice, on_delete=models.PROTECT, related_name="measures")
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

    notice = models.OneToOneField(InfractionNotice, on_delete=models.PROTECT, related_name="fine")
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


# ------------------------------------------------------------------------- judging bodies and sessions


class JudgingBody(TenantModel):
    """A body that judges defenses or appeals (Recife CDTC and CRA, Esteio CIP, Maricá's
    authorities, EPTI's president, Cabo's Council), created from the pack's process.bodies."""

    key = models.CharField("identificador", max_length=40)
    name = models.CharField("nome", max_length=200)
    collegiate = models.BooleanField("colegiado", default=True)
    citation = models.CharField("fundamento", max_length=300, blank=True)
    active = models.BooleanField("ativo", default=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "órgão julgador"
        verbose_name_plural = "órgãos julgadores"
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "key"], name="enf_body_key_unique")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:body", kwargs={"pk": self.pk})


class BodyMember(TenantModel):
    class Role(models.TextChoices):
        PRESIDENT = "president", "Presidente"
        MEMBER = "member", "Membro"
        ALTERNATE = "alternate", "Suplente"

    body = models.ForeignKey(JudgingBody, on_delete=models.PROTECT, related_name="members")
    name = models.CharField("nome", max_length=200)
    seat = models.CharField("representação", max_length=200, blank=True)
    role = models.CharField("função", max_length=20, choices=Role.choices, default=Role.MEMBER)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    act = models.CharField("ato de nomeação", max_length=200, blank=True)
    starts_on = models.DateField("início do mandato")
    ends_on = models.DateField("fim do mandato", null=True, blank=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "membro do órgão julgador"
        verbose_name_plural = "membros do órgão julgador"
        ordering = ["body", "role", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_role_display()})"

    def serves_on(self, day: Any) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)


class Session(TenantModel):
    class Kind(models.TextChoices):
        ORDINARY = "ordinary", "Ordinária"
        EXTRAORDINARY = "extraordinary", "Extraordinária"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Agendada"
        OPEN = "open", "Em andamento"
        CLOSED = "closed", "Encerrada"

    body = models.ForeignKey(JudgingBody, on_delete=models.PROTECT, related_name="sessions")
    number = models.PositiveIntegerField("número")
    kind = models.CharField("tipo", max_length=20, choices=Kind.choices, default=Kind.ORDINARY)
    held_on = models.DateField("data")
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    present = models.ManyToManyField(BodyMember, blank=True, related_name="sessions_present")
    minutes = models.TextField("ata", blank=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "sessão de julgamento"
        verbose_name_plural = "sessões de julgamento"
        ordering = ["-held_on", "-number"]
        constraints = [models.UniqueConstraint(fields=["body", "number"], name="enf_session_number_unique")]

    def __str__(self) -> str:
        return f"{self.number}ª sessão {self.get_kind_display().lower()} — {self.body}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:session", kwargs={"pk": self.pk})


# ------------------------------------------------------------------------- defenses and appeals


class Filing(TenantModel):
    """A defense or appeal against a notice's penalty, at one instance of the pack's
    process.instances, always with a receipt; late filings are recorded and flagged."""

    class Channel(models.TextChoices):
        COUNTER = "counter", "Protocolo no órgão"
        PORTAL = "portal", "Portal do permissionário"

    class Status(models.TextChoices):
        PENDING = "pending", "Aguardando julgamento"
        DILIGENCE = "diligence", "Em diligência"
        JUDGED = "judged", "Julgado"
        NOT_KNOWN = "not_known", "Não conhecido"

    notice = models.ForeignKey(InfractionNotice, on_delete=models.PROTECT, related_name="filings")
    instance = models.CharField("instância", max_length=40)
    instance_name = models.CharField("nome da instância", max_length=200)
    body = models.ForeignKey(
        JudgingBody, on_delete=models.PROTECT, null=True, blank=True, related_name="filings"
    )
    receipt = models.CharField("protocolo", max_length=40)
    filed_at = models.DateTimeField("protocolado em")
    channel = models.CharField("meio", max_length=20, choices=Channel.choices)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    text = models.TextField("razões")
    due_on = models.DateField("prazo", null=True, blank=True)
    due_explanation = models.TextField("explicação do prazo", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    missing_parameters = models.JSONField("parâmetros indefinidos", default=list, blank=True)
    late = models.BooleanField("fora do prazo", default=False)
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.PENDING)
    diligence = models.TextField("diligência pedida", blank=True)
    diligence_session = models.ForeignKey(
        Session, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "notice__holder_id"

    class Meta:
        verbose_name = "defesa ou recurso"
        verbose_name_plural = "defesas e recursos"
        ordering = ["filed_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "receipt"], name="enf_filing_receipt_unique")
        ]

    def __str__(self) -> str:
        return f"{self.instance_name} — protocolo {self.receipt}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:filing", kwargs={"pk": self.pk})


class FilingAttachment(TenantModel):
    filing = models.ForeignKey(Filing, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField("arquivo", upload_to="filings/%Y/%m/")
    name = models.CharField("nome", max_length=200)
    content_type = models.CharField(max_length=100, blank=True)
    size = models.PositiveIntegerField(default=0)
    sha256 = models.CharField(max_length=64, blank=True)

    holder_path: ClassVar[str | None] = "filing__notice__holder_id"

    class Meta:
        verbose_name = "anexo"
        verbose_name_plural = "anexos"

    def __str__(self) -> str:
        return self.name


class AgendaItem(TenantModel):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="agenda")
    filing = models.ForeignKey(Filing, on_delete=models.PROTECT, related_name="agenda_items")
    position = models.PositiveIntegerField("ordem")
    priority = models.BooleanField("prioridade (diligência)", default=False)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["session", "position"]
        constraints = [models.UniqueConstraint(fields=["session", "filing"], name="enf_agenda_unique")]


class Vote(TenantModel):
    class Choice(models.TextChoices):
        UPHOLD = "uphold", "Manter a penalidade"
        ANNUL = "annul", "Acolher (anular o auto)"
        CHANGE = "change", "Alterar a penalidade"

    item = models.ForeignKey(AgendaItem, on_delete=models.CASCADE, related_name="votes")
    member = models.ForeignKey(BodyMember, on_delete=models.PROTECT, related_name="+")
    choice = models.CharField("voto", max_length=20, choices=Choice.choices)
    tie_break = models.BooleanField("voto de desempate", default=False)

    holder_path: ClassVar[str | None] = None

    class Meta:
        constraints = [models.UniqueConstraint(fields=["item", "member"], name="enf_vote_unique")]


class Decision(TenantModel):
    """A decision on a notice at one instance (or the lapse of the deadline with no filing), with
    its reasons and citations, its notification and whether it is final."""

    class Outcome(models.TextChoices):
        UPHELD = "upheld", "Penalidade mantida"
        ANNULLED = "annulled", "Auto anulado (defesa acolhida)"
        CHANGED = "changed", "Penalidade alterada"
        NOT_KNOWN = "not_known", "Recurso não conhecido (intempestivo ou deserto)"
        LAPSED = "lapsed", "Sem defesa no prazo"

    notice = models.ForeignKey(InfractionNotice, on_delete=models.PROTECT, related_name="decisions")
    filing = models.OneToOneField(
        Filing, on_delete=models.PROTECT, null=True, blank=True, related_name="decision"
    )
    instance = models.CharField("instância", max_length=40)
    body = models.ForeignKey(JudgingBody, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    session = models.ForeignKey(Session, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    decided_on = models.DateField("decidido em")
    outcome = models.CharField("resultado", max_length=20, choices=Outcome.choices)
    reasons = models.TextField("fundamentação")
    penalty = models.JSONField("penalidade resultante", default=dict, blank=True)
    votes = models.JSONField("votação", default=dict, blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    notify_due = models.DateField("prazo para comunicar", null=True, blank=True)
    served_on = models.DateField("comunicada em", null=True, blank=True)
    final = models.BooleanField("definitiva", default=False)
    final_on = models.DateField("definitiva em", null=True, blank=True)
    effects = models.JSONField("efeitos aplicados", default=list, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "notice__holder_id"

    class Meta:
        verbose_name = "decisão"
        verbose_name_plural = "decisões"
        ordering = ["-decided_on", "-id"]

    def __str__(self) -> str:
        return f"{self.get_outcome_display()} — {self.notice}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:decision", kwargs={"pk": self.pk})


# --------------------------------------------------------------- what final decisions leave behind


class CourseRequirement(TenantModel):
    """A mandatory course a final decision imposed (Maricá art. 52; Cabo's 100 points)."""

    notice = models.ForeignKey(InfractionNotice, on_delete=models.PROTECT, related_name="+")
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

    notice = models.ForeignKey(InfractionNotice, on_delete=models.PROTECT, related_name="+")
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
        InfractionNotice, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
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
