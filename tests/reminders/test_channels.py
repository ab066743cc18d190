"""The SMS backend behind the outbox's interface (a real local HTTP server as the provider) and a
django-anymail provider as the e-mail backend (anymail's own test backend)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from lotacao.accounts.models import User
from lotacao.outbox import services
from lotacao.outbox.models import Event, Message, Preference

pytestmark = pytest.mark.django_db(transaction=True)


class Provider(BaseHTTPRequestHandler):
    received: list[dict[str, Any]] = []
    status = 202

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        Provider.received.append(
            {"auth": self.headers.get("Authorization"), **json.loads(self.rfile.read(length))}
        )
        self.send_response(Provider.status)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def sms_provider(settings: Any) -> Iterator[type[Provider]]:
    server = HTTPServer(("127.0.0.1", 0), Provider)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Provider.received, Provider.status = [], 202
    settings.LOTACAO_SMS_BACKEND = "lotacao.outbox.backends.HttpSMSBackend"
    settings.LOTACAO_SMS_URL = f"http://127.0.0.1:{server.server_port}/sms"
    settings.LOTACAO_SMS_TOKEN = "chave-de-teste"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    try:
        yield Provider
    finally:
        server.shutdown()
        server.server_close()


def _queue(key: str) -> list[Message]:
    user = User.objects.create(username=f"u-{key}", email="maria@example.com")
    Preference.objects.create(user=user, event=Event.RENEWAL, email=False, sms=True)
    with transaction.atomic():
        return services.enqueue(
            event=Event.RENEWAL,
            template="reminders/aviso",
            dedup_key=key,
            user=user,
            phone="+5581987654321",
            context={
                "name": "Maria",
                "agency": "CTTU",
                "agency_short": "CTTU",
                "subject": "Renovação",
                "what": "A permissão nº 1 vence em 31/12/2026.",
                "link": "http://x/",
                "lines": [],
            },
        )


def test_sms_reaches_the_provider_once(sms_provider: type[Provider]) -> None:
    [message] = _queue("sms-1")
    services.deliver_due()
    [got] = sms_provider.received
    assert got["to"] == "+5581987654321" and got["auth"] == "Bearer chave-de-teste"
    assert got["text"].startswith("CTTU: A permissão nº 1 vence em 31/12/2026.")
    message.refresh_from_db()
    assert message.status == Message.Status.SENT and message.via == "serviço de SMS"
    services.deliver_due()
    assert len(sms_provider.received) == 1


def test_sms_provider_refusing_is_retried_with_its_error(sms_provider: type[Provider]) -> None:
    sms_provider.status = 503
    [message] = _queue("sms-2")
    message.refresh_from_db()
    assert message.status == Message.Status.QUEUED and message.next_attempt_at > timezone.now()
    assert "O serviço de SMS recusou a mensagem" in message.last_error and "503" in message.last_error


def test_an_anymail_provider_is_the_email_backend(settings: Any) -> None:
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    settings.ANYMAIL = {}
    user = User.objects.create(username="ana", email="ana@example.com")
    with transaction.atomic():
        [message] = services.enqueue(
            event=Event.DEADLINE,
            template="reminders/aviso",
            dedup_key="anymail-1",
            user=user,
            context={
                "name": "Ana",
                "agency": "CTTU",
                "subject": "Prazo",
                "what": "O prazo termina.",
                "link": "http://x/",
                "lines": [],
            },
        )
    message.refresh_from_db()
    assert message.status == Message.Status.SENT
    [sent] = mail.outbox
    assert sent.to == ["ana@example.com"] and sent.subject == "Prazo"
    assert sent.anymail_status.status == {"sent"}  # type: ignore[attr-defined]
