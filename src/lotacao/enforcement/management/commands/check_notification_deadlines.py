"""Daily job: infraction notices not served by the agency's deadline to notify get the pack's
effect — archived where the law archives them, flagged for a manager elsewhere."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from lotacao.enforcement.notices.deadlines import apply_missed_deadlines


class Command(BaseCommand):
    help = (
        "Verifica os autos de infração não notificados no prazo do órgão "
        "(arquiva ou sinaliza, conforme a lei)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--data", "--date", dest="data", help="data de referência (AAAA-MM-DD); padrão: hoje"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        day = dt.date.fromisoformat(options["data"]) if options.get("data") else timezone.localdate()
        result = apply_missed_deadlines(today=day)
        self.stdout.write(
            f"{day:%d/%m/%Y}: autos arquivados: {result.archived}; sinalizados ao gestor: "
            f"{result.flagged} (já sinalizados antes: {result.already_flagged})."
        )
