"""The nightly jobs on django-tasks: enqueued per day, in order, once per job and day, any worker."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from lotacao.core import jobs
from lotacao.core.models import JobRun
from lotacao.ops import nightly
from lotacao.ops import tasks as nightly_tasks
from lotacao.ops.management.commands import run_nightly as command

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2026, 11, 30)
DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "nightly"]}}


@pytest.fixture
def three_jobs(monkeypatch: Any) -> list[str]:
    """Three stand-in jobs that write down each call, in place of the real list."""
    calls: list[str] = []
    lock = threading.Lock()

    def make(name: str) -> jobs.Job:
        def work(day: dt.date) -> dict[str, int]:
            with lock:
                calls.append(name)
            return {"itens": 1}

        return jobs.Job(name, f"Tarefa {name[-1]}", work)

    stand_ins = [make(n) for n in ("um_a", "um_b", "um_c")]
    for job in stand_ins:
        monkeypatch.setitem(nightly.BY_NAME, job.name, job)
    monkeypatch.setattr(command, "JOBS", stand_ins)
    return calls


def _work(worker_id: str = "teste") -> None:
    Worker(
        queue_names=["nightly"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    ).run()


@override_settings(TASKS=DATABASE_TASKS)
def test_run_nightly_enqueues_the_day_and_works_it_in_order(three_jobs: list[str]) -> None:
    out = StringIO()
    call_command("run_nightly", "--data", DAY.isoformat(), stdout=out)
    assert three_jobs == ["um_a", "um_b", "um_c"]
    assert "Tarefa a: concluída — itens: 1" in out.getvalue()
    rows = DBTaskResult.objects.filter(queue_name="nightly")
    assert rows.count() == 3 and {r.status for r in rows} == {"SUCCESSFUL"}
    assert [r.args_kwargs["args"][0] for r in rows.order_by("enqueued_at")] == ["um_a", "um_b", "um_c"]


@override_settings(TASKS=DATABASE_TASKS)
def test_enqueued_twice_each_job_runs_once_and_a_second_run_nightly_repeats_nothing(
    three_jobs: list[str],
) -> None:
    for _ in range(2):
        call_command("run_nightly", "--data", DAY.isoformat(), "--enfileirar", stdout=StringIO())
    _work()
    assert three_jobs == ["um_a", "um_b", "um_c"]
    assert JobRun.objects.filter(day=DAY, status=JobRun.Status.SUCCEEDED).count() == 3
    out = StringIO()
    call_command("run_nightly", "--data", DAY.isoformat(), stdout=out)
    assert three_jobs == ["um_a", "um_b", "um_c"]
    assert "Tarefa b: concluída antes, não repetida" in out.getvalue()
    call_command(
        "run_nightly", "--data", DAY.isoformat(), "--somente", "um_b", "--repetir", stdout=StringIO()
    )
    assert three_jobs == ["um_a", "um_b", "um_c", "um_b"]


@contextmanager
def _advisory_lock_held_elsewhere(job: str) -> Iterator[None]:
    import psycopg

    from lotacao.core.jobs import _lock_key

    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", [_lock_key(job)])
        yield
        other.execute("SELECT pg_advisory_unlock(%s)", [_lock_key(job)])


@override_settings(TASKS=DATABASE_TASKS)
def test_a_job_held_by_another_run_waits_instead_of_letting_the_next_one_pass(three_jobs: list[str]) -> None:
    held = JobRun.objects.create(job="um_b", day=DAY)  # another process is running it
    with ExitStack() as stack:
        if connections["default"].vendor == "postgresql":
            # There the other process also holds the job's advisory lock (a free lock would mark
            # the row abandoned): a connection of its own takes it for the test's duration.
            stack.enter_context(_advisory_lock_held_elsewhere("um_b"))
        with pytest.raises(CommandError, match="um_b, um_c"):
            call_command("run_nightly", "--data", DAY.isoformat(), "--espera", "0", stdout=StringIO())
    assert three_jobs == ["um_a"]  # um_c did not run ahead of um_b
    waiting = DBTaskResult.objects.get(status="READY")
    assert waiting.args_kwargs["args"][0] == "um_b" and waiting.run_after > timezone.now()
    held.status = JobRun.Status.SUCCEEDED
    held.save()
    DBTaskResult.objects.filter(pk=waiting.pk).update(run_after=timezone.now())
    _work()
    assert three_jobs == ["um_a", "um_c"]


def test_on_the_immediate_backend_a_failure_does_not_stop_the_list(
    three_jobs: list[str], monkeypatch: Any
) -> None:
    def broken(day: dt.date) -> None:
        raise RuntimeError("falha simulada")

    monkeypatch.setitem(nightly.BY_NAME, "um_a", jobs.Job("um_a", "Tarefa a", broken))
    with pytest.raises(CommandError, match="um_a"):
        call_command("run_nightly", "--data", DAY.isoformat(), stdout=StringIO())
    assert three_jobs == ["um_b", "um_c"]


@pytest.mark.postgres
@override_settings(TASKS=DATABASE_TASKS)
def test_two_workers_in_threads_run_each_job_once(three_jobs: list[str]) -> None:
    for _ in range(2):
        nightly_tasks.enqueue_day(["um_a", "um_b", "um_c"], DAY)
    errors: list[BaseException] = []

    def worker(name: str) -> None:
        try:
            for _ in range(50):  # held tasks come back later: work until both lists are done
                _work(name)
                if not DBTaskResult.objects.filter(status__in=["READY", "RUNNING"]).exists():
                    return
                DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(f"w{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors
    assert sorted(three_jobs) == ["um_a", "um_b", "um_c"]
    assert JobRun.objects.filter(day=DAY, status=JobRun.Status.SUCCEEDED).count() == 3
