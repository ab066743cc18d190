"""Nightly job: record the permits whose term ended (or whose withdrawal took effect), with audit."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from lotacao.permits.services import expire_due


class Command(BaseCommand):
    help = (
        "Registra o vencimento das permissões cujo prazo terminou (e as desistências que produziram efeito)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--date", help="data de referência (AAAA-MM-DD); padrão: hoje")

    def handle(self, *args: Any, **options: Any) -> None:
        day = dt.date.fromisoformat(options["date"]) if options.get("date") else timezone.localdate()
        count = expire_due(on=day)
        self.stdout.write(f"Permissões encerradas em {day:%d/%m/%Y}: {count}.")
