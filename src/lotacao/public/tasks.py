"""The read model's rebuild as django-tasks tasks: helpers that work one build's ranges on another
`db_worker` (lotacao.public.build). Enqueued on the nightly queue by the nightly job."""

from __future__ import annotations

from typing import Any

from django_tasks import task

QUEUE = "nightly"  # lotacao.ops.tasks.QUEUE: the workers of the nightly run take these too


@task(queue_name=QUEUE)
def work_public_answers(build: str) -> dict[str, Any]:
    """Compute the free ranges of `build` until none is left."""
    from lotacao.public.build import work

    return {"build": build, "faixas": work(build)}
