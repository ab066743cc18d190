"""Daily job: decisions become final when no instance is left — notices whose defense deadline
passed with nothing filed, decisions whose appeal deadline passed unused."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from lotacao.enforcement.due_process.settle import settle_due_process


class Command(BaseCommand):
    help = "Torna definitivas as decisões sem recurso possível (prazos de defesa e recurso vencidos)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--data", "--date", dest="data", help="data de referência (AAAA-MM-DD); padrão: hoje"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        day = dt.date.fromisoformat(options["data"]) if options.get("data") else timezone.localdate()
        result = settle_due_process(today=day)
        self.stdout.write(
            f"{day:%d/%m/%Y}: autos definitivos sem defesa no prazo: {len(result.lapsed)}; "
            f"decisões definitivas sem recurso no prazo: {len(result.final)}; "
            f"multas vencidas com defesa ou recurso pendente revistas: {len(result.fines)}."
        )
