from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from lotacao.workqueue.services import refresh


class Command(BaseCommand):
    help = (
        "Atualiza a fila de trabalho (documentos, seguros, vistorias, prazos e limites de idade em 30 dias)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--data", help="Data de referência (AAAA-MM-DD); padrão: hoje.")
        parser.add_argument("--dias", type=int, default=30, help="Antecedência em dias (padrão: 30).")

    def handle(self, *args: Any, **options: Any) -> None:
        today = dt.date.fromisoformat(options["data"]) if options["data"] else timezone.localdate()
        started = time.perf_counter()
        result = refresh(today, options["dias"])
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"Fila de trabalho em {today:%d/%m/%Y}: {result.opened} novos, {result.kept} mantidos, "
            f"{result.closed} encerrados ({elapsed:.1f} s)."
        )
