"""The outbox's delivery as a django-tasks task (woken when a message is queued; db_worker runs it)."""

from __future__ import annotations

from typing import Any

from django_tasks import task

from lotacao.outbox import services


@task()
def deliver_outbox() -> dict[str, Any]:
    result = services.deliver_due()
    services.wake_for_retries()
    return {"enviadas": len(result.sent), "a_repetir": len(result.retrying), "falharam": len(result.failed)}
