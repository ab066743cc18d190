"""Models of the billing app: charges (fines and fees) owed by permit holders."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import ClassVar

from django.core.validators import MinValueValidator
from django.db import models

from lotacao.core.tenancy import TenantModel


class Charge(TenantModel):
    """A fine or fee a permit holder owes the agency (for the clearance — quitação)."""

    class Kind(models.TextChoices):
        FINE = "fine", "Multa"
        FEE = "fee", "Taxa"

    holder = models.ForeignKey(
        "registry.Holder", on_delete=models.PROTECT, related_name="charges", verbose_name="permissionário"
    )
    kind = models.CharField("natureza", max_length=10, choices=Kind.choices)
    description = models.CharField("descrição", max_length=300)
    amount = models.DecimalField(
        "valor", max_digits=12, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    due_on = models.DateField("vencimento")
    paid_on = models.DateField("pago em", null=True, blank=True)
    payment_reference = models.CharField("comprovante", max_length=100, blank=True)
    cancelled = models.BooleanField("cancelada", default=False)
    contested = models.BooleanField(
        "em defesa ou recurso",
        default=False,
        help_text="Multa com defesa ou recurso pendente: não impede a quitação enquanto pendente.",
    )
    reference = models.CharField("referência (auto de infração, guia)", max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["due_on", "id"]
        verbose_name = "cobrança"
        verbose_name_plural = "cobranças"
        indexes = [models.Index(fields=["holder", "paid_on"], name="charge_holder_paid")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.description}"

    def is_open(self, on: dt.date) -> bool:
        """Unpaid and not cancelled (whatever the due date)."""
        return not self.cancelled and (self.paid_on is None or self.paid_on > on)

    def is_overdue(self, on: dt.date) -> bool:
        return self.is_open(on) and self.due_on < on
