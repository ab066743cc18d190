from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A person who signs in: agency staff, a permit holder (or company), or the operator."""

    # Set with a one-time password (`setup_agency`): every page but the password change and
    # signing out sends the user to change it first (accounts.middleware.PasswordChangeMiddleware).
    must_change_password = models.BooleanField("deve trocar a senha no próximo acesso", default=False)

    class Meta:
        verbose_name = "usuário"
        verbose_name_plural = "usuários"

    @property
    def is_operator(self) -> bool:
        return self.is_superuser

    def __str__(self) -> str:
        """The person's name as screens and PDFs show it (the login only where there is none)."""
        return self.get_full_name().strip() or self.username


class Role(models.TextChoices):
    MANAGER = "gestor", "Gestor"
    CLERK = "atendente", "Atendente"
    INSPECTOR = "fiscal", "Fiscal"
    COMMISSION = "comissao", "Membro de comissão"
    # Lei federal 13.460/2017, art. 10, § 7º: only the ombudsman sees who filed a manifestation.
    OMBUDSMAN = "ouvidor", "Ouvidor"


class StaffMembership(models.Model):
    """A staff member's role in one jurisdiction's agency (a person may hold several)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="memberships")
    jurisdiction = models.ForeignKey("core.Jurisdiction", on_delete=models.PROTECT, related_name="+")
    role = models.CharField("papel", max_length=20, choices=Role.choices)
    active = models.BooleanField("ativo", default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "papel na agência"
        verbose_name_plural = "papéis na agência"
        constraints = [
            models.UniqueConstraint(fields=["user", "jurisdiction", "role"], name="unique_membership"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.jurisdiction_id})"


class HolderAccount(models.Model):
    """The portal account of a permit holder (person or company) in one jurisdiction."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="holder_account")
    holder = models.OneToOneField("registry.Holder", on_delete=models.PROTECT, related_name="account")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "conta de permissionário"
        verbose_name_plural = "contas de permissionários"

    def __str__(self) -> str:
        return f"{self.user} → {self.holder}"


class ApiToken(models.Model):
    """A bearer token for the REST API; only its SHA-256 is stored (shown once at creation)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    label = models.CharField("descrição", max_length=100)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # A scoped token opens only its door (the bank's Pix notifications), for one jurisdiction,
    # and never the rest of the API.
    scope = models.CharField(
        "uso", max_length=20, blank=True, choices=[("pix_webhook", "Notificações Pix do banco")]
    )
    jurisdiction = models.ForeignKey(
        "core.Jurisdiction", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = "token de API"
        verbose_name_plural = "tokens de API"

    def __str__(self) -> str:
        return f"{self.label} ({self.user})"
