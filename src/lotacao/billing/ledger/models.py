"""The ledger: every charge a holder or company owes (fees, monthly fees, fines), its payments, and
the billing register (one account per holder: when the holder started and stopped owing monthly
fees, and the modalities that may exempt it)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import ClassVar

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel

# A reference an app files a charge under to find it again: "<word>:<id>…", never typed by people.
INTERNAL_REFERENCE = re.compile(r"^[a-z][a-z0-9_-]*:\S*$")


class Charge(TenantModel):
    """A fine or fee a permit holder owes the agency (for the clearance — quitação).

    `key` makes a charge made by a job unique in its jurisdiction (the monthly run's
    `run:<period>:<fee>:<holder>:<line>`), so running a month twice creates nothing new."""

    class Kind(models.TextChoices):
        FINE = "fine", "Multa"
        FEE = "fee", "Taxa"

    holder = models.ForeignKey(
        "registry.Holder", on_delete=models.PROTECT, related_name="charges", verbose_name="permissionário"
    )
    kind = models.CharField("natureza", max_length=10, choices=Kind.choices)
    fee = models.CharField("taxa da lei", max_length=60, blank=True)
    description = models.CharField("descrição", max_length=300)
    competence = models.DateField("competência", null=True, blank=True)
    line = models.ForeignKey(
        "registry.Line",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="linha",
    )
    base = models.DecimalField("base de cálculo", max_digits=14, decimal_places=2, null=True, blank=True)
    base_label = models.CharField("origem da base", max_length=300, blank=True)
    rate = models.DecimalField("alíquota (%)", max_digits=7, decimal_places=4, null=True, blank=True)
    fiscal_unit = models.CharField("unidade fiscal", max_length=10, blank=True)
    units = models.DecimalField(
        "quantidade de unidades", max_digits=12, decimal_places=4, null=True, blank=True
    )
    unit_value = models.DecimalField(
        "valor da unidade no dia", max_digits=12, decimal_places=4, null=True, blank=True
    )
    amount = models.DecimalField(
        "valor", max_digits=12, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    due_on = models.DateField("vencimento")
    citation = models.CharField("fundamento", max_length=500, blank=True)
    fund = models.CharField("destinação", max_length=40, blank=True)
    paid_on = models.DateField("pago em", null=True, blank=True)
    payment_reference = models.CharField("comprovante", max_length=100, blank=True)
    cancelled = models.BooleanField("cancelada", default=False)
    contested = models.BooleanField(
        "em defesa ou recurso",
        default=False,
        help_text="Multa com defesa ou recurso pendente: não impede a quitação enquanto pendente.",
    )
    reference = models.CharField("referência (auto de infração, guia)", max_length=100, blank=True)
    key = models.CharField("chave de emissão", max_length=200, blank=True)
    run = models.ForeignKey(
        "billing.BillingRun", on_delete=models.PROTECT, null=True, blank=True, related_name="charges"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["due_on", "id"]
        verbose_name = "cobrança"
        verbose_name_plural = "cobranças"
        indexes = [
            models.Index(fields=["holder", "paid_on"], name="charge_holder_paid"),
            models.Index(fields=["jurisdiction", "competence"], name="charge_competence"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "key"], condition=~Q(key=""), name="unique_charge_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.description}"

    @property
    def reference_display(self) -> str:
        """The reference as people read it: a notice's number or a bank file's name; the keys
        other apps file a charge under to find it again ("recadastramento:2026:…", "fusp-lv:…",
        "autorizacao:5") are for the system and not shown (the description says what it is)."""
        return "" if INTERNAL_REFERENCE.match(self.reference or "") else self.reference

    def is_open(self, on: dt.date) -> bool:
        """Unpaid and not cancelled (whatever the due date)."""
        return not self.cancelled and (self.paid_on is None or self.paid_on > on)

    def is_overdue(self, on: dt.date) -> bool:
        return self.is_open(on) and self.due_on < on

    def status_label(self, on: dt.date) -> str:
        if self.cancelled:
            return "Cancelada"
        if self.paid_on is not None and self.paid_on <= on:
            return "Paga"
        if self.contested:
            return "Em defesa ou recurso"
        return "Vencida" if self.due_on < on else "Em aberto"

    @property
    def slip_code(self) -> str:
        """The charge's code on its slip and PIX (the bank statement brings it back)."""
        return f"{self.jurisdiction_id[:3].upper()}{self.pk:012d}"


class Payment(TenantModel):
    """A payment of a charge: at the counter, by the bank statement, never edited (a mistaken one
    is reversed by the agency's own act, outside this issue). A charge may have several: a partial
    payment leaves it open for the rest (`due_amount` is what was owed that day)."""

    class Method(models.TextChoices):
        COUNTER = "balcao", "Registrado pelo atendimento"
        BANK = "banco", "Extrato bancário"
        SYSTEM = "sistema", "Registrado por outro módulo"

    charge = models.ForeignKey(Charge, on_delete=models.PROTECT, related_name="payments")
    paid_on = models.DateField("pago em")
    amount = models.DecimalField("valor pago", max_digits=12, decimal_places=2)
    late_amount = models.DecimalField("juros e multa de mora", max_digits=12, decimal_places=2, default=0)
    due_amount = models.DecimalField(
        "devido na data",
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="O saldo devido no dia do pagamento: um valor pago diferente fica visível ao lado.",
    )
    method = models.CharField("forma", max_length=10, choices=Method.choices)
    reference = models.CharField("comprovante", max_length=100, blank=True)
    bank_transaction = models.CharField("identificador no banco", max_length=100, blank=True)
    bank_import = models.ForeignKey(
        "billing.BankImport", on_delete=models.PROTECT, null=True, blank=True, related_name="payments"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "charge__holder_id"

    class Meta:
        ordering = ["-paid_on", "-id"]
        verbose_name = "pagamento"
        verbose_name_plural = "pagamentos"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "bank_transaction"],
                condition=~Q(bank_transaction=""),
                name="unique_bank_transaction",
            ),
        ]

    def __str__(self) -> str:
        return f"Pagamento da cobrança {self.charge_id} em {self.paid_on:%d/%m/%Y}"

    @property
    def difference(self) -> Decimal:
        """Paid minus owed that day (negative: partial; positive: paid in excess)."""
        return self.amount - self.due_amount if self.due_amount is not None else Decimal("0.00")

    @property
    def difference_size(self) -> Decimal:
        return abs(self.difference)


class Account(TenantModel):
    """The billing register of a holder (inscrição): monthly fees are owed from `opened_on` until
    `closed_on`. Opened when a permit or registration certificate starts (the higher apps call
    `ledger.accounts.open_account`), or by a clerk."""

    holder = models.OneToOneField(
        "registry.Holder",
        on_delete=models.PROTECT,
        related_name="billing_account",
        verbose_name="permissionário",
    )
    opened_on = models.DateField("inscrito desde")
    closed_on = models.DateField("inscrição encerrada em", null=True, blank=True)
    modalities = models.JSONField("modalidades", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["id"]
        verbose_name = "inscrição de cobrança"
        verbose_name_plural = "inscrições de cobrança"
        constraints = [
            models.CheckConstraint(
                condition=Q(closed_on__isnull=True) | Q(closed_on__gte=models.F("opened_on")),
                name="account_dates_ordered",
            )
        ]

    def __str__(self) -> str:
        return f"Inscrição de {self.holder}"

    def is_open(self, start: dt.date, end: dt.date) -> bool:
        """Open at some day between `start` and `end`."""
        return self.opened_on <= end and (self.closed_on is None or self.closed_on >= start)
