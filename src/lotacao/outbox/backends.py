"""One backend per channel. E-mail goes through Django's mail framework (`EMAIL_BACKEND`: SMTP, or
a django-anymail provider); SMS through `LOTACAO_SMS_BACKEND`. A backend's `send` returns when the
server or provider accepted the message and raises otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from lotacao.outbox.models import Message


class Backend(Protocol):
    label: str  # Portuguese, recorded on the message as who delivered it

    def send(self, message: Message) -> None: ...


class EmailBackend:
    label = "e-mail"

    def send(self, message: Message) -> None:
        mail = EmailMultiAlternatives(
            subject=message.subject,
            body=message.body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[message.address],
            headers={"Message-ID": message.message_id},
            connection=get_connection(fail_silently=False),
        )
        if message.html:
            mail.attach_alternative(message.html, "text/html")
        if mail.send() != 1:
            raise RuntimeError("o servidor não aceitou a mensagem")


class FileSMSBackend:
    """The default: writes each SMS to a file under LOTACAO_SMS_DIR. Nothing reaches a phone."""

    label = "arquivo local (nenhum SMS enviado ao telefone)"

    def send(self, message: Message) -> None:
        folder = Path(settings.LOTACAO_SMS_DIR)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"sms-{message.pk}.txt").write_text(f"Para: {message.address}\n\n{message.body}\n", "utf-8")


def for_channel(channel: str) -> Backend:
    from lotacao.outbox.models import Channel

    if channel == Channel.EMAIL:
        return EmailBackend()
    backend: Backend = import_string(settings.LOTACAO_SMS_BACKEND)()
    return backend


class HttpSMSBackend:
    """An SMS provider's HTTP API: POST {"to", "text", "from"} as JSON to LOTACAO_SMS_URL with the
    key as a Bearer token; any 2xx answer is acceptance, anything else raises (the outbox retries).
    Most Brazilian SMS gateways take this shape directly or through a small relay."""

    label = "serviço de SMS"

    def send(self, message: Message) -> None:
        import requests

        if not settings.LOTACAO_SMS_URL:
            raise RuntimeError("LOTACAO_SMS_URL não configurado")
        token = settings.LOTACAO_SMS_TOKEN
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = requests.post(
            settings.LOTACAO_SMS_URL,
            json={"to": message.address, "text": message.body, "from": settings.LOTACAO_SMS_SENDER,
                  "id": message.message_id},
            headers=headers,
            timeout=settings.EMAIL_TIMEOUT,
        )
        if not 200 <= answer.status_code < 300:
            raise RuntimeError(f"o serviço de SMS respondeu {answer.status_code}")
