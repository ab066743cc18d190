"""Daily job: suspensions imposed by final decisions that reached their end (the permit returns,
or waits for the proof the law asks, opening the revocation process where the law says so), and
interventions whose procedure was not opened or concluded in time (void)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from lotacao.enforcement.sanctions.followups import end_suspensions


class Command(BaseCommand):
    help = (
        "Encerra as suspensões vencidas (reativa a permissão ou aguarda a comprovação exigida "
        "pela lei) e invalida as intervenções com prazo perdido."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--data", "--date", dest="data", help="data de referência (AAAA-MM-DD); padrão: hoje"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        day = dt.date.fromisoformat(options["data"]) if options.get("data") else timezone.localdate()
        result = end_suspensions(today=day)
        self.stdout.write(
            f"{day:%d/%m/%Y}: permissões reativadas: {result.reinstated}; aguardando comprovação: "
            f"{result.awaiting_proof}; processos de cassação abertos: {result.processes}; "
            f"intervenções inválidas: {result.voided}."
        )
