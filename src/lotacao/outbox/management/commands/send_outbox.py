"""Deliver the messages that are due, once, and exit (cron, tests)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from lotacao.outbox import services


class Command(BaseCommand):
    help = "Envia as mensagens (e-mail e SMS) cuja vez chegou, uma vez, e termina."

    def handle(self, *args: Any, **options: Any) -> None:
        result = services.deliver_due()
        self.stdout.write(
            f"Enviadas: {len(result.sent)}; a tentar de novo: {len(result.retrying)}; "
            f"falharam de vez: {len(result.failed)}."
        )
