"""The nightly run: every job in order, each on its own, each recorded (one cron line or timer)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from lotacao.core import jobs
from lotacao.core.models import JobRun
from lotacao.ops.nightly import BY_NAME, JOBS

# The counts stay as the jobs name them (ids in JobRun.counts); people read them in Portuguese.
COUNT_LABELS = {
    "archived": "arquivados",
    "flagged": "sinalizados ao gestor",
    "already_flagged": "já sinalizados",
    "reinstated": "reativadas",
    "awaiting_proof": "aguardando comprovação",
    "processes": "processos de cassação abertos",
    "ended": "encerradas",
    "voided": "intervenções invalidadas",
    "opened": "novos",
    "kept": "mantidos",
    "closed": "encerrados",
    "sem_defesa": "sem defesa no prazo",
    "cancelamentos_propostos": "cancelamentos propostos",
    "cobrancas": "cobranças",
}


def _label(key: str) -> str:
    return COUNT_LABELS.get(key, key.replace("_", " "))


class Command(BaseCommand):
    help = (
        "Executa as tarefas noturnas, cada uma por si, sem execuções sobrepostas, "
        "e registra cada execução."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--data", "--date", dest="data", help="data de referência (AAAA-MM-DD); padrão: hoje"
        )
        parser.add_argument(
            "--somente", "--only", dest="only", action="append", choices=sorted(BY_NAME),
            help="executa só esta tarefa (pode repetir)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = dt.date.fromisoformat(options["data"]) if options.get("data") else timezone.localdate()
        except ValueError as error:
            raise CommandError("Data inválida: use AAAA-MM-DD.") from error
        selected = [BY_NAME[name] for name in options["only"]] if options.get("only") else JOBS
        runs = jobs.run_all(selected, day)
        for job, record in zip(selected, runs, strict=True):
            counts = ", ".join(f"{_label(k)}: {v}" for k, v in record.counts.items())
            self.stdout.write(f"{job.label}: {record.get_status_display()}{' — ' + counts if counts else ''}")
        failed = [r.job for r in runs if r.status == JobRun.Status.FAILED]
        if failed:
            raise CommandError("Tarefas com falha: " + ", ".join(failed) + " (veja o registro de execuções).")
