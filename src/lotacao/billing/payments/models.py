"""Bank statement imports (the reconciliation report is kept with the import)."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.utils import timezone

from lotacao.core.tenancy import TenantModel


class BankImport(TenantModel):
    filename = models.CharField("arquivo", max_length=200)
    sha256 = models.CharField("resumo do arquivo", max_length=64)
    report = models.JSONField("conciliação", default=dict, blank=True)
    created_by = models.ForeignKey(
        "accounts.User", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    format = models.CharField("formato", max_length=10, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "importação de extrato bancário"
        verbose_name_plural = "importações de extratos bancários"
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "sha256"], name="unique_bank_file")]

    def __str__(self) -> str:
        when = f" ({timezone.localtime(self.created_at):%d/%m/%Y %H:%M})" if self.created_at else ""
        return f"Extrato {self.filename}{when}"

    def count(self, section: str) -> int:
        return len(self.report.get(section, []))


class ReconciliationItem(TenantModel):
    """A bank credit that paid no charge by itself (no code, unknown code, a charge already paid
    or cancelled, a refusal of the debt's module), or the excess of an over-payment: it waits in
    the reconciliation queue until a clerk assigns it to a charge or dismisses it with a reason."""

    class Status(models.TextChoices):
        PENDING = "pendente", "Aguardando conciliação"
        ASSIGNED = "atribuido", "Atribuído a uma cobrança"
        DISMISSED = "descartado", "Descartado"

    class Kind(models.TextChoices):
        UNMATCHED = "sem_guia", "Crédito sem cobrança correspondente"
        EXCESS = "excedente", "Valor pago a maior"

    class Source(models.TextChoices):
        CSV = "csv", "Planilha CSV"
        OFX = "ofx", "Extrato OFX"
        CNAB240 = "cnab240", "Retorno CNAB 240"
        CNAB400 = "cnab400", "Retorno CNAB 400"
        PIX = "pix", "Notificação Pix"

    kind = models.CharField("natureza", max_length=10, choices=Kind.choices, default=Kind.UNMATCHED)
    source = models.CharField("origem", max_length=10, choices=Source.choices)
    bank_id = models.CharField("identificador no banco", max_length=120)
    bank_import = models.ForeignKey(
        BankImport, on_delete=models.PROTECT, null=True, blank=True, related_name="queued"
    )
    paid_on = models.DateField("data do crédito")
    amount = models.DecimalField("valor", max_digits=12, decimal_places=2)
    code = models.CharField("código informado", max_length=60, blank=True)
    payer = models.CharField("pagador", max_length=140, blank=True)
    bank_text = models.CharField("descrição do banco", max_length=300, blank=True)
    reason = models.CharField("motivo", max_length=300)
    status = models.CharField("situação", max_length=10, choices=Status.choices, default=Status.PENDING)
    charge = models.ForeignKey(
        "billing.Charge",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="cobrança",
    )
    resolution = models.CharField("resolução", max_length=300, blank=True)
    resolved_by = models.ForeignKey(
        "accounts.User", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField("resolvido em", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "crédito a conciliar"
        verbose_name_plural = "créditos a conciliar"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "bank_id"], name="unique_queued_credit")
        ]

    def __str__(self) -> str:
        return f"Crédito de {self.paid_on:%d/%m/%Y}: R$ {self.amount}".replace(".", ",")
