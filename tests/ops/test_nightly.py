"""Nightly jobs: each on its own, never twice at once, each run recorded; logs as JSON lines."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from lotacao.core import jobs
from lotacao.core.logging import JsonLinesFormatter
from lotacao.core.models import JobRun
from lotacao.ops import nightly

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2026, 11, 30)


def test_a_failing_job_is_recorded_and_the_next_one_still_runs() -> None:
    ran: list[str] = []

    def broken(day: dt.date) -> None:
        raise RuntimeError("banco indisponível")

    def counted(day: dt.date) -> dict[str, Any]:
        ran.append("counted")
        return {"abertos": 3, "itens": [1, 2]}

    pair = [jobs.Job("broken", "Quebrada", broken), jobs.Job("counted", "Contada", counted)]
    runs = jobs.run_all(pair, DAY)
    assert [r.status for r in runs] == [JobRun.Status.FAILED, JobRun.Status.SUCCEEDED]
    assert "banco indisponível" in runs[0].error and runs[0].finished_at is not None
    assert runs[1].counts == {"abertos": 3, "itens": 2} and ran == ["counted"]


def test_a_run_in_progress_blocks_a_second_one() -> None:
    calls: list[dt.date] = []
    job = jobs.Job("solo", "Sozinha", calls.append)
    if connection.vendor == "postgresql":
        import psycopg

        settings = connection.settings_dict
        other = psycopg.connect(
            host=settings["HOST"], port=settings["PORT"] or 5432, user=settings["USER"],
            dbname=settings["NAME"], password=settings["PASSWORD"] or None, autocommit=True,
        )
        other.execute("SELECT pg_advisory_lock(%s)", [jobs._lock_key("solo")])
        try:
            assert jobs.run(job, DAY).status == JobRun.Status.SKIPPED
        finally:
            other.close()
    else:
        JobRun.objects.create(job="solo", day=DAY)  # a run that is still going on
        assert jobs.run(job, DAY).status == JobRun.Status.SKIPPED
    assert calls == []


def test_a_run_whose_process_died_does_not_block_the_next_night() -> None:
    calls: list[dt.date] = []
    dead = JobRun.objects.create(job="solo", day=DAY - dt.timedelta(days=1))
    JobRun.objects.filter(pk=dead.pk).update(started_at=timezone.now() - dt.timedelta(hours=7))
    run = jobs.run(jobs.Job("solo", "Sozinha", calls.append), DAY)
    assert run.status == JobRun.Status.SUCCEEDED and calls == [DAY]
    dead.refresh_from_db()
    assert dead.status == JobRun.Status.ABANDONED


def test_run_nightly_runs_every_job_and_records_each(monkeypatch: Any) -> None:
    out = StringIO()
    call_command("run_nightly", "--data", DAY.isoformat(), stdout=out)
    runs = JobRun.objects.filter(day=DAY)
    assert sorted(r.job for r in runs) == sorted(j.name for j in nightly.JOBS)
    assert all(r.status == JobRun.Status.SUCCEEDED for r in runs)
    text = out.getvalue()
    assert "Fila de trabalho: concluída — novos: " in text and "mantidos: " in text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|opened|kept|flagged", text), text


def test_run_nightly_fails_loudly_but_runs_the_rest(monkeypatch: Any) -> None:
    def broken(day: dt.date) -> None:
        raise RuntimeError("falha simulada")

    first = nightly.JOBS[0]
    monkeypatch.setitem(nightly.BY_NAME, first.name, jobs.Job(first.name, first.label, broken))
    monkeypatch.setattr(nightly, "JOBS", [nightly.BY_NAME[j.name] for j in nightly.JOBS])
    import lotacao.ops.management.commands.run_nightly as command

    monkeypatch.setattr(command, "JOBS", nightly.JOBS)
    with pytest.raises(CommandError, match=first.name):
        call_command("run_nightly", "--data", DAY.isoformat(), stdout=StringIO())
    statuses = dict(JobRun.objects.filter(day=DAY).values_list("job", "status"))
    assert statuses[first.name] == JobRun.Status.FAILED
    assert statuses["build_work_queue"] == JobRun.Status.SUCCEEDED


def test_bad_date_is_a_portuguese_error() -> None:
    with pytest.raises(CommandError, match="Data inválida"):
        call_command("run_nightly", "--data", "30/11/2026", stdout=StringIO())


def test_json_lines_formatter_keeps_extra_fields() -> None:
    record = logging.makeLogRecord(
        {"name": "lotacao.jobs", "levelname": "INFO", "msg": "job %s ok", "args": ("x",), "job": "x"}
    )
    line = json.loads(JsonLinesFormatter().format(record))
    assert line["message"] == "job x ok" and line["job"] == "x" and line["level"] == "INFO"
    assert os.linesep not in JsonLinesFormatter().format(record)
