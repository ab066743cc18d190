"""The phone number a person wants SMS reminders on (their preferences page sets it)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Contact(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reminder_contact",
        verbose_name="usuário",
    )
    phone = models.CharField("celular para SMS", max_length=20, blank=True)
    updated_at = models.DateTimeField("alterado em", auto_now=True)

    class Meta:
        verbose_name = "contato para avisos"
        verbose_name_plural = "contatos para avisos"

    def __str__(self) -> str:
        return f"{self.user} — {self.phone or 'sem celular'}"
