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
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "importação de extrato bancário"
        verbose_name_plural = "importações de extratos bancários"

    def __str__(self) -> str:
        when = f" ({timezone.localtime(self.created_at):%d/%m/%Y %H:%M})" if self.created_at else ""
        return f"Extrato {self.filename}{when}"

    def count(self, section: str) -> int:
        return len(self.report.get(section, []))
