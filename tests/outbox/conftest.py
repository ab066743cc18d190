"""A real SMTP server (aiosmtpd) on a free local port, and the settings that point Django at it."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller


@dataclass
class Inbox:
    """What the SMTP server accepted, parsed."""

    messages: list[EmailMessage] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        self.messages.append(parsed)  # type: ignore[arg-type]
        return "250 Mensagem aceita"


@dataclass
class SMTPServer:
    port: int
    inbox: Inbox
    controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def smtp_server(settings: Any, tmp_path: Any) -> Iterator[SMTPServer]:
    server = SMTPServer(port=_free_port(), inbox=Inbox())
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    settings.DEFAULT_FROM_EMAIL = "Lotação <nao-responda@lotacao.example.gov.br>"
    settings.LOTACAO_SMS_DIR = tmp_path / "sms"
    server.start()
    try:
        yield server
    finally:
        server.stop()
