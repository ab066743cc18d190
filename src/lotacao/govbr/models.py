"""The link between an account and the CPF gov.br signs in (one CPF, one account)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class GovbrLink(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="govbr_link", verbose_name="usuário"
    )
    cpf = models.CharField("CPF", max_length=11, unique=True)
    level = models.CharField("nível da conta gov.br", max_length=80, blank=True)
    acr = models.CharField("nível de autenticação informado (acr)", max_length=200, blank=True)
    amr = models.JSONField("formas de autenticação (amr)", default=list, blank=True)
    linked_at = models.DateTimeField("vinculada em", auto_now_add=True)
    last_login_at = models.DateTimeField("última entrada pelo gov.br", null=True, blank=True)

    class Meta:
        verbose_name = "vínculo com o gov.br"
        verbose_name_plural = "vínculos com o gov.br"

    @property
    def jurisdiction_id(self) -> str | None:
        """A holder's jurisdiction, so their agency reads the sign-ins in its audit log; a staff
        member's link belongs to no single agency."""
        account = getattr(self.user, "holder_account", None)
        return account.holder.jurisdiction_id if account is not None else None

    def __str__(self) -> str:
        return f"{self.user} — gov.br ({self.level or 'nível não informado'})"
