"""Health checks for the operator's monitoring and the load balancer (Portuguese JSON bodies).

- Liveness, `/saude/` and `/saude/vivo/`: the process answers. No database: a database outage
  must not make the orchestrator restart healthy processes.
- Readiness, `/saude/pronto/`: may this process take traffic? The database answers, every
  migration is applied, and every nightly job (`ops.nightly.JOBS`) finished a run within
  `LOTACAO_NIGHTLY_MAX_AGE_HOURS` (26 by default: a day plus the scheduler's drift). 200 when all
  hold, 503 naming what failed otherwise. It also counts the outbox's messages (queued, late,
  failed for good) for the operator's monitoring; those counts never make it 503 — a mail
  server's outage must not take the application out of rotation.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from lotacao.core.models import JobRun
from lotacao.ops.nightly import JOBS
from lotacao.outbox import services as outbox

DEFAULT_MAX_AGE_HOURS = 26
_migrations_seen_applied = False  # once all are applied they stay so for this process


def _json(body: dict[str, Any], status: int) -> JsonResponse:
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


@never_cache
def liveness(request: HttpRequest) -> JsonResponse:
    return _json({"status": "ok", "detalhe": "O processo está no ar."}, 200)


def _database() -> dict[str, Any]:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return {"ok": False, "detalhe": f"O banco de dados não respondeu ({type(error).__name__})."}
    return {"ok": True, "detalhe": "O banco de dados respondeu."}


def _migrations() -> dict[str, Any]:
    global _migrations_seen_applied
    if not _migrations_seen_applied:
        connection = connections[DEFAULT_DB_ALIAS]
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if plan:
            names = ", ".join(f"{m.app_label}.{m.name}" for m, _backwards in plan[:5])
            more = f" e mais {len(plan) - 5}" if len(plan) > 5 else ""
            return {
                "ok": False,
                "pendentes": len(plan),
                "detalhe": f"Há {len(plan)} migrações por aplicar: {names}{more}."
                if len(plan) > 1
                else f"Há uma migração por aplicar: {names}.",
            }
        _migrations_seen_applied = True
    return {"ok": True, "pendentes": 0, "detalhe": "Todas as migrações estão aplicadas."}


def max_age() -> dt.timedelta:
    return dt.timedelta(hours=int(getattr(settings, "LOTACAO_NIGHTLY_MAX_AGE_HOURS", DEFAULT_MAX_AGE_HOURS)))


def _nightly(now: dt.datetime) -> dict[str, Any]:
    since = now - max_age()
    late: list[str] = []
    last: dict[str, str | None] = {}
    for job in JOBS:
        run = (
            JobRun.objects.filter(job=job.name, status=JobRun.Status.SUCCEEDED, finished_at__isnull=False)
            .order_by("-finished_at")
            .only("finished_at")
            .first()
        )
        finished = run.finished_at if run is not None else None
        last[job.label] = (
            timezone.localtime(finished).strftime("%d/%m/%Y %H:%M") if finished is not None else None
        )
        if finished is None or finished < since:
            late.append(job.label)
    hours = int(max_age().total_seconds() // 3600)
    if late:
        detail = f"Sem execução concluída nas últimas {hours} horas: " + "; ".join(late) + "."
    else:
        detail = f"Todas as tarefas noturnas concluíram nas últimas {hours} horas."
    return {"ok": not late, "atrasadas": late, "ultima_conclusao": last, "detalhe": detail}


def _messages() -> dict[str, Any]:
    found = outbox.counts()
    failed, late = found["falharam"], found["atrasadas"]
    if failed:
        detail = (
            "Uma mensagem não pôde ser enviada"
            if failed == 1
            else f"{failed} mensagens não puderam ser enviadas"
        ) + ": veja Mensagens na administração."
    elif late:
        detail = (
            "Uma mensagem espera" if late == 1 else f"{late} mensagens esperam"
        ) + " há mais de uma hora pelo servidor de e-mail ou SMS."
    else:
        detail = "Nenhuma mensagem com falha ou atrasada."
    return {"ok": True, **found, "detalhe": detail}


@never_cache
def readiness(request: HttpRequest) -> JsonResponse:
    checks: dict[str, Any] = {"banco_de_dados": _database()}
    if checks["banco_de_dados"]["ok"]:
        try:
            checks["migracoes"] = _migrations()
            checks["tarefas_noturnas"] = _nightly(timezone.now())
            checks["mensagens"] = _messages()
        except DatabaseError as error:
            checks["banco_de_dados"] = {
                "ok": False,
                "detalhe": f"O banco de dados falhou durante a verificação ({type(error).__name__}).",
            }
    ready = all(check["ok"] for check in checks.values()) and len(checks) == 4
    body = {
        "status": "ok" if ready else "indisponivel",
        "detalhe": "Pronto para atender."
        if ready
        else "Não está pronto para atender: veja as verificações que falharam.",
        "verificacoes": checks,
    }
    return _json(body, 200 if ready else 503)
