"""The nightly jobs, in the order they run (`manage.py run_nightly`).

Each is supervised by `lotacao.core.jobs`: run on its own (one failing does not skip the next),
never twice at once, and recorded as a `JobRun` the operator reads in the admin. The order
matters: permits expire and due process settles before the work queue is rebuilt from the result;
chartering's CRC clocks archive requests and propose cancellations, and the passenger lists whose
retention ran out are purged (Lei 16.205/2017, Pernambuco; LGPD), before it too.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.billing.runs.services import resume_interrupted
from lotacao.chartering.crc import run_clocks
from lotacao.chartering.privacy import purge
from lotacao.core.idempotency import prune_idempotency_keys
from lotacao.core.jobs import Job
from lotacao.enforcement.due_process.settle import settle_due_process
from lotacao.enforcement.notices.deadlines import apply_missed_deadlines
from lotacao.enforcement.sanctions.followups import end_suspensions
from lotacao.inspections.services.provisional import expire_provisionals
from lotacao.lines.life import deactivate_due
from lotacao.opendata.publish import publish_all as publish_open_data
from lotacao.permits.services import expire_due
from lotacao.public.readmodel import refresh as refresh_public_answers
from lotacao.reminders.services import run as run_reminders
from lotacao.workqueue.services import refresh


def _expire_permits(day: dt.date) -> Any:
    return {"encerradas": expire_due(on=day)}


def _settle(day: dt.date) -> Any:
    result = settle_due_process(today=day)
    return {"sem_defesa": len(result.lapsed), "definitivas": len(result.final), "multas": len(result.fines)}


JOBS = [
    Job("expire_permits", "Vencimento das permissões", _expire_permits),
    Job(
        "check_notification_deadlines",
        "Prazos de notificação dos autos",
        lambda d: apply_missed_deadlines(today=d),
    ),
    Job("settle_due_process", "Decisões definitivas por prazo vencido", _settle),
    Job(
        "end_suspensions",
        "Fim das suspensões e prazos das intervenções",
        lambda d: end_suspensions(today=d),
    ),
    Job("resume_billing_runs", "Faturamentos mensais interrompidos", resume_interrupted),
    Job(
        "expire_provisional_authorizations",
        "Vencimento das autorizações provisórias de veículos",
        lambda d: {"vencidas": expire_provisionals(today=d)},
    ),
    Job("chartering_clocks", "Prazos do CRC do fretamento", lambda d: run_clocks(today=d)),
    Job("purge_passenger_lists", "Eliminação das listas de passageiros vencidas", lambda d: purge(today=d)),
    Job("build_work_queue", "Fila de trabalho", lambda d: refresh(d)),
    # After the jobs that change deadlines, notices and the work queue: the day's e-mails and SMS
    # go into the outbox (dedup keys: a rerun of the night sends nothing twice).
    Job("reminders", "Lembretes do dia por e-mail e SMS", run_reminders),
    Job(
        "prune_idempotency_keys",
        "Limpeza das chaves de idempotência com mais de 24 horas",
        lambda d: {"removidas": prune_idempotency_keys(timezone.now())},
    ),
    Job("end_lines", "Linhas extintas na data", lambda d: {"linhas": deactivate_due(on=d)}),
    Job("open_data", "Arquivos CSV dos dados abertos", lambda d: publish_open_data(d)),
    # Last: the jobs above change what the public sees (their writes mark the answers); this
    # recomputes what changes with the date alone, so tomorrow's answers are ready when asked.
    Job("public_answers", "Respostas da consulta pública de placas do dia", refresh_public_answers),
]
BY_NAME = {job.name: job for job in JOBS}
