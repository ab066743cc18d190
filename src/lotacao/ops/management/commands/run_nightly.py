"""The nightly run: every job in order, each on its own, each recorded (one cron line or timer).

The jobs run as tasks of the queue (`lotacao.ops.tasks`). By default the command enqueues the
day's list and works the nightly queue itself until every job of the list has an outcome for the
day — done here or by a `db_worker` elsewhere — then prints each and exits non-zero naming the
failed ones: the one cron line keeps working with or without workers. `--enfileirar` only
enqueues (installations whose `db_worker` services do the work).
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from lotacao.core import jobs
from lotacao.core.models import JobRun
from lotacao.ops import tasks
from lotacao.ops.nightly import BY_NAME, JOBS

DEFAULT_WAIT_SECONDS = 6 * 3600
POLL_SECONDS = 1.0

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


def _ordered(counts: dict[str, Any]) -> list[tuple[str, Any]]:
    """The labelled counts in COUNT_LABELS' order, then the others: PostgreSQL's jsonb read back
    from the JobRun does not keep the order the job returned them in."""
    order = {key: index for index, key in enumerate(COUNT_LABELS)}
    return sorted(counts.items(), key=lambda item: order.get(item[0], len(order)))


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
        parser.add_argument(
            "--repetir", "--again", dest="again", action="store_true",
            help="executa de novo as tarefas já concluídas para a data",
        )
        parser.add_argument(
            "--enfileirar", "--enqueue-only", dest="enqueue_only", action="store_true",
            help="só põe as tarefas na fila (os processos db_worker as executam)",
        )
        parser.add_argument(
            "--espera", "--wait", dest="wait", type=int, default=DEFAULT_WAIT_SECONDS,
            help="segundos de espera pelas tarefas executadas em outros processos (padrão: 6 horas)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = dt.date.fromisoformat(options["data"]) if options.get("data") else timezone.localdate()
        except ValueError as error:
            raise CommandError("Data inválida: use AAAA-MM-DD.") from error
        selected = [BY_NAME[name] for name in options["only"]] if options.get("only") else JOBS
        names = [job.name for job in selected]
        since = timezone.now()
        tasks.enqueue_day(names, day, again=options["again"])
        if options["enqueue_only"]:
            self.stdout.write(f"{len(names)} tarefas noturnas na fila para {day:%d/%m/%Y}.")
            return
        deadline = time.monotonic() + max(0, options["wait"])
        while True:
            _work_queue_here()
            outcomes = {name: _outcome(name, day, since, options["again"]) for name in names}
            if all(record is not None for record in outcomes.values()) or time.monotonic() >= deadline:
                break
            time.sleep(POLL_SECONDS)
        failed: list[str] = []
        for job in selected:
            record = outcomes[job.name]
            if record is None:
                failed.append(job.name)
                self.stdout.write(
                    f"{job.label}: ainda não concluída (na fila ou em execução em outro processo)"
                )
                continue
            counts = ", ".join(f"{_label(k)}: {v}" for k, v in _ordered(record.counts))
            before = " antes, não repetida" if record.started_at < since else ""
            self.stdout.write(
                f"{job.label}: {record.get_status_display()}{before}{' — ' + counts if counts else ''}"
            )
            if record.status == JobRun.Status.FAILED:
                failed.append(job.name)
        if failed:
            raise CommandError("Tarefas com falha: " + ", ".join(failed) + " (veja o registro de execuções).")


def _outcome(name: str, day: dt.date, since: dt.datetime, again: bool) -> JobRun | None:
    """The run that settles this job for the day in this command: done now, failed now, or done before."""
    settled = JobRun.objects.filter(
        job=name, day=day, status__in=[JobRun.Status.SUCCEEDED, JobRun.Status.FAILED], started_at__gte=since
    ).order_by("-started_at").first()
    if settled is None and not again:
        settled = jobs.succeeded_for(name, day)
    return settled


def _work_queue_here() -> None:
    """Run what is ready on the nightly queue in this process (nothing to do on ImmediateBackend)."""
    from django_tasks_db.backend import DatabaseBackend

    backend = tasks.run_nightly_job.get_backend()
    if not isinstance(backend, DatabaseBackend):
        return
    from django_tasks_db.management.commands.db_worker import Worker

    Worker(
        queue_names=[tasks.QUEUE], interval=0, batch=True, backend_name=backend.alias, startup_delay=False,
        max_tasks=None, worker_id=f"run_nightly:{socket.gethostname()}:{os.getpid()}"[:64],
        excluded_queue_names=[],
    ).run()
