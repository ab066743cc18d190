"""Models of delegation: each record belongs to one jurisdiction (core.tenancy).

- `Contract`: the permit or concession contract (Esteio art. 42) of one permit, its essential
  clauses (each recorded, checked present) and its term (art. 41);
- `Inquiry`: the administrative inquiry before the caducidade (art. 37), with its due process;
- `Interruption`: an interruption of the service and the immediate suspension (art. 27);
- `Extinction`: the end of the delegation by one of the causes of art. 46 (encampação, art. 47,
  with its authorizing law and prior indemnity), the CMTT's recommendation and the decree
  (art. 46, § 3º), and the indemnity with its 180-day deadline (art. 46, § 2º);
- `ReversibleAsset`: the assets bound to the service that return to the municipality (art. 46,
  § 1º; art. 22);
- `FormerEmployee`: an employee of the operator whose delegation was extinguished, and what the
  company that replaced it after the tender did (hired, or the offer refused): art. 49.

Holders never see these rows (staff's procedures): `holder_path` is None.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from lotacao.core.formats import lower_first
from lotacao.core.tenancy import TenantModel


class Contract(TenantModel):
    class Status(models.TextChoices):
        SIGNED = "signed", "Assinado, aguardando o início da operação"
        IN_FORCE = "in_force", "Em vigor"
        EXTINCT = "extinct", "Extinto"

    permit = models.ForeignKey(
        "permits.Permit", on_delete=models.PROTECT, related_name="delegation_contracts"
    )
    number = models.CharField("número do contrato", max_length=40)
    signed_on = models.DateField("assinado em")
    starts_on = models.DateField("início da vigência")
    ends_on = models.DateField("fim do prazo")
    term_citation = models.CharField("fundamento do prazo", max_length=200, blank=True)
    clauses = models.JSONField("cláusulas essenciais", default=dict)  # letter → the contract's wording
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.IN_FORCE)
    # The extinct delegation this one replaces after the tender (art. 49: the staff take-over).
    predecessor = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="successor",
        verbose_name="contrato extinto que este substitui",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "contrato de delegação"
        verbose_name_plural = "contratos de delegação"
        ordering = ["-signed_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="unique_delegation_contract_number"
            ),
            models.CheckConstraint(
                condition=models.Q(ends_on__gt=models.F("starts_on")), name="delegation_contract_term_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"Contrato {self.number}"


class Inquiry(TenantModel):
    class Status(models.TextChoices):
        OPENED = "opened", "Instaurado"
        NOTIFIED = "notified", "Notificado"
        DEFENDED = "defended", "Defesa apresentada"
        DECLARED = "declared", "Caducidade declarada"
        ARCHIVED = "archived", "Arquivado"

    contract = models.ForeignKey(Contract, on_delete=models.PROTECT, related_name="inquiries")
    number = models.CharField("número do inquérito", max_length=40)
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.OPENED)
    opened_on = models.DateField("instaurado em")
    opening_act = models.CharField("ato de instauração", max_length=200)
    facts = models.TextField("fatos (faltas graves reiteradas)")
    notified_on = models.DateField("notificado em", null=True, blank=True)
    notification_means = models.CharField("meio da notificação", max_length=200, blank=True)
    defense_due = models.DateField("prazo da defesa", null=True, blank=True)
    defense_deadline_act = models.CharField("ato que fixou o prazo da defesa", max_length=300, blank=True)
    defense_on = models.DateField("defesa apresentada em", null=True, blank=True)
    defense_text = models.TextField("defesa", blank=True)
    decided_on = models.DateField("decidido em", null=True, blank=True)
    decision_reasons = models.TextField("razões da decisão", blank=True)
    recommendation = models.ForeignKey(
        "councils.Resolution",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="recomendação do CMTT",
    )
    decree_number = models.CharField("decreto do Prefeito (número)", max_length=60, blank=True)
    decree_on = models.DateField("decreto do Prefeito (data)", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "inquérito de caducidade"
        verbose_name_plural = "inquéritos de caducidade"
        ordering = ["-opened_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="unique_delegation_inquiry_number"
            ),
        ]

    def __str__(self) -> str:
        return f"Inquérito {self.number}"


class Interruption(TenantModel):
    contract = models.ForeignKey(Contract, on_delete=models.PROTECT, related_name="interruptions")
    interrupted_on = models.DateField("interrompido em")
    facts = models.TextField("fatos")
    suspended_until = models.DateField("suspensão até")
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "interrupção do serviço"
        verbose_name_plural = "interrupções do serviço"
        ordering = ["-interrupted_on", "-pk"]

    def __str__(self) -> str:
        return f"Interrupção de {self.interrupted_on:%d/%m/%Y} ({self.contract})"


class Extinction(TenantModel):
    class Cause(models.TextChoices):
        TERM = "term", "Advento do termo"
        BREACH = "breach", "Descumprimento contratual"
        CADUCIDADE = "caducidade", "Caducidade"
        ENCAMPACAO = "encampacao", "Encampação"
        RESCISAO = "rescisao", "Rescisão"
        BANKRUPTCY = "bankruptcy", "Falência ou extinção da empresa"
        DEATH = "death", "Falecimento ou incapacidade do titular"

    contract = models.OneToOneField(Contract, on_delete=models.PROTECT, related_name="extinction")
    cause = models.CharField("causa", max_length=20, choices=Cause.choices)
    extinct_on = models.DateField("extinto em")
    act = models.CharField("ato da extinção", max_length=200)
    reasons = models.TextField("fundamentação")
    inquiry = models.OneToOneField(
        Inquiry, on_delete=models.PROTECT, null=True, blank=True, related_name="extinction"
    )
    recommendation = models.ForeignKey(
        "councils.Resolution",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="recomendação do CMTT",
    )
    authorizing_law = models.CharField("lei autorizativa (encampação)", max_length=200, blank=True)
    indemnity_amount = models.DecimalField(
        "indenização (R$)", max_digits=14, decimal_places=2, null=True, blank=True
    )
    indemnity_due = models.DateField("prazo da indenização", null=True, blank=True)
    indemnity_paid_on = models.DateField("indenização paga em", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "extinção da delegação"
        verbose_name_plural = "extinções da delegação"
        ordering = ["-extinct_on", "-pk"]

    def __str__(self) -> str:
        return f"Extinção do {self.contract} ({lower_first(self.get_cause_display())})"


class ReversibleAsset(TenantModel):
    class Kind(models.TextChoices):
        VEHICLE = "vehicle", "Veículo"
        FACILITY = "facility", "Instalação"
        GARAGE = "garage", "Garagem"
        WORKSHOP = "workshop", "Oficina"
        RIGHT = "right", "Direito ou privilégio"

    contract = models.ForeignKey(Contract, on_delete=models.PROTECT, related_name="assets")
    kind = models.CharField("tipo", max_length=20, choices=Kind.choices)
    description = models.CharField("descrição", max_length=300)
    appraised_value = models.DecimalField(
        "valor apurado (R$)", max_digits=14, decimal_places=2, null=True, blank=True
    )
    returned_on = models.DateField("revertido em", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "bem reversível"
        verbose_name_plural = "bens reversíveis"
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.description}"


class Consortium(TenantModel):
    """An operating consortium of concessionaires or permit holders, under rules they agree on,
    approved beforehand by the granting authority (Esteio art. 19, § 5º; art. 13, parágrafo único)."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Aguardando aprovação"
        APPROVED = "approved", "Aprovado"
        REFUSED = "refused", "Não aprovado"

    name = models.CharField("nome", max_length=200)
    rules_text = models.TextField("regras de comum acordo")
    contracts = models.ManyToManyField(
        Contract, related_name="consortia", verbose_name="contratos consorciados"
    )
    proposed_on = models.DateField("apresentado em")
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.PROPOSED)
    decided_on = models.DateField("decidido em", null=True, blank=True)
    decision_act = models.CharField("ato da decisão", max_length=200, blank=True)
    decision_reasons = models.TextField("razões da decisão", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "consórcio operacional"
        verbose_name_plural = "consórcios operacionais"
        ordering = ["-proposed_on", "-pk"]

    def __str__(self) -> str:
        return f"Consórcio {self.name}"


class FormerEmployee(TenantModel):
    """An employee of the operator whose delegation was extinguished (Esteio art. 49): the company
    that replaces it after the tender hires those with more than one year of service, up to two per
    vehicle. The CPF identifies the person to staff only: it is never shown to the public."""

    class Outcome(models.TextChoices):
        PENDING = "pending", "Sem registro da sucessora"
        HIRED = "hired", "Contratado pela sucessora"
        DECLINED = "declined", "Recusou a oferta de emprego"

    extinction = models.ForeignKey(Extinction, on_delete=models.PROTECT, related_name="employees")
    name = models.CharField("nome", max_length=200)
    cpf = models.CharField("CPF", max_length=11)
    hired_on = models.DateField("admitido em")
    outcome = models.CharField("situação", max_length=20, choices=Outcome.choices, default=Outcome.PENDING)
    successor = models.ForeignKey(
        Contract,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="taken_over",
        verbose_name="contrato da sucessora",
    )
    outcome_on = models.DateField("contratado ou recusado em", null=True, blank=True)
    outcome_note = models.TextField("registro da recusa", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "empregado da operadora anterior"
        verbose_name_plural = "empregados da operadora anterior"
        ordering = ["hired_on", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["extinction", "cpf"], name="unique_former_employee_cpf"),
        ]

    def __str__(self) -> str:
        return str(self.name)
