"""The outbox: every e-mail and SMS the system sends, queued in the caller's transaction.

A row is written where the event happens (`services.enqueue`, in the same transaction) and
delivered later by `send_outbox` or the outbox task: nothing is lost when the mail server is down
(the row stays queued with its next attempt and its error), and nothing is sent twice after a
crash (rows are claimed before sending; the SMTP Message-ID is derived from the row).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from lotacao.core.tenancy import TenantModel


class Channel(models.TextChoices):
    EMAIL = "email", "e-mail"
    SMS = "sms", "SMS"


class Event(models.TextChoices):
    """What a message is about: the user's preferences are per event (the account's always go)."""

    ACCOUNT = "account", "Acesso à conta (redefinição de senha)"
    DEADLINE = "deadline", "Prazos a vencer"
    NOTICE = "notice", "Autos de infração e decisões"
    CHARGE = "charge", "Guias emitidas e vencidas"
    DOCUMENT = "document", "Documentos a vencer"
    RENEWAL = "renewal", "Renovação da permissão"
    REQUEST = "request", "Requerimentos decididos"
    COMPLAINT = "complaint", "Reclamações respondidas"


MANDATORY_EVENTS = {Event.ACCOUNT}


class Message(TenantModel):
    class Status(models.TextChoices):
        QUEUED = "queued", "na fila"
        SENDING = "sending", "em envio"
        SENT = "sent", "enviada"
        FAILED = "failed", "falhou"

    # Empty for the installation's own messages (an account's password reset is not an agency's).
    jurisdiction = models.ForeignKey(  # type: ignore[assignment]
        "core.Jurisdiction",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name="jurisdição",
        null=True,
        blank=True,
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="destinatário",
    )
    address = models.CharField("endereço ou telefone", max_length=254)
    channel = models.CharField("canal", max_length=8, choices=Channel.choices)
    event = models.CharField("assunto", max_length=16, choices=Event.choices)
    subject = models.CharField("título", max_length=200)
    body = models.TextField("texto")
    html = models.TextField("texto em HTML", blank=True)
    dedup_key = models.CharField("chave de evento", max_length=200, unique=True)
    status = models.CharField("situação", max_length=8, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField("tentativas", default=0)
    next_attempt_at = models.DateTimeField("próxima tentativa")
    claimed_at = models.DateTimeField("envio iniciado em", null=True, blank=True)
    last_error = models.TextField("último erro", blank=True)
    via = models.CharField("enviada por", max_length=80, blank=True)
    created_at = models.DateTimeField("criada em", auto_now_add=True)
    sent_at = models.DateTimeField("enviada em", null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "mensagem"
        verbose_name_plural = "mensagens"
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due_idx")]

    def __str__(self) -> str:
        return f"{self.get_channel_display()} — {self.subject}"

    @property
    def message_id(self) -> str:
        """The SMTP Message-ID: the same on every attempt, so a resend is recognisable."""
        domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip("> ") or "localhost"
        return f"<lotacao-mensagem-{self.pk}@{domain}>"


class Preference(models.Model):
    """A user's choice of channels for one kind of message (absent: e-mail yes, SMS no)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="message_preferences",
        verbose_name="usuário",
    )
    event = models.CharField("assunto", max_length=16, choices=Event.choices)
    email = models.BooleanField("por e-mail", default=True)
    sms = models.BooleanField("por SMS", default=False)

    class Meta:
        verbose_name = "preferência de aviso"
        verbose_name_plural = "preferências de aviso"
        constraints = [models.UniqueConstraint(fields=["user", "event"], name="one_preference_per_event")]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_event_display()}"
