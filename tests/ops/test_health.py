"""Liveness and readiness (issue 15, item 6): status codes and Portuguese JSON bodies."""

from __future__ import annotations

import datetime as dt
from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError
from django.utils import timezone

from lotacao.core.models import JobRun
from lotacao.ops import health
from lotacao.ops.nightly import JOBS


def _ran_all(finished: dt.datetime) -> None:
    for job in JOBS:
        JobRun.objects.create(
            job=job.name, day=finished.date(), status=JobRun.Status.SUCCEEDED, finished_at=finished
        )


def test_liveness_needs_no_database(client: Any) -> None:
    # No django_db mark: any query would fail the test.
    for url in ("/saude/", "/saude/vivo/"):
        response = client.get(url)
        assert response.status_code == 200 and response.json()["status"] == "ok"
    assert client.get("/saude/vivo/").json()["detalhe"] == "O processo está no ar."


@pytest.mark.django_db
def test_ready_when_the_database_answers_migrations_applied_and_the_jobs_ran(client: Any) -> None:
    _ran_all(timezone.now() - dt.timedelta(hours=3))
    response = client.get("/saude/pronto/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok" and body["detalhe"] == "Pronto para atender."
    assert {k: v["ok"] for k, v in body["verificacoes"].items()} == {
        "banco_de_dados": True,
        "migracoes": True,
        "tarefas_noturnas": True,
        "mensagens": True,
    }
    assert body["verificacoes"]["mensagens"]["detalhe"] == "Nenhuma mensagem com falha ou atrasada."
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


@pytest.mark.django_db
def test_not_ready_when_a_nightly_job_did_not_finish_within_the_day(client: Any) -> None:
    _ran_all(timezone.now() - dt.timedelta(hours=2))
    late = JOBS[0]
    JobRun.objects.filter(job=late.name).update(finished_at=timezone.now() - dt.timedelta(hours=30))
    JobRun.objects.create(job=JOBS[1].name, day=timezone.localdate(), status=JobRun.Status.FAILED,
                          finished_at=timezone.now())
    response = client.get("/saude/pronto/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "indisponivel"
    nightly = body["verificacoes"]["tarefas_noturnas"]
    assert nightly["ok"] is False and nightly["atrasadas"] == [late.label]
    assert "Sem execução concluída nas últimas 26 horas: " + late.label in nightly["detalhe"]


@pytest.mark.django_db
def test_not_ready_before_the_first_nightly_run(client: Any) -> None:
    response = client.get("/saude/pronto/")
    assert response.status_code == 503
    assert len(response.json()["verificacoes"]["tarefas_noturnas"]["atrasadas"]) == len(JOBS)


@pytest.mark.django_db
def test_not_ready_with_a_migration_to_apply(client: Any, monkeypatch: Any) -> None:
    _ran_all(timezone.now())
    monkeypatch.setattr(health, "_migrations_seen_applied", False)
    pending = [(mock.Mock(app_label="core", name="0099_nova"), False)]
    pending[0][0].name = "0099_nova"
    with mock.patch(
        "django.db.migrations.executor.MigrationExecutor.migration_plan", return_value=pending
    ):
        response = client.get("/saude/pronto/")
    assert response.status_code == 503
    check = response.json()["verificacoes"]["migracoes"]
    assert check == {"ok": False, "pendentes": 1, "detalhe": "Há uma migração por aplicar: core.0099_nova."}


@pytest.mark.django_db
def test_not_ready_when_the_database_does_not_answer(client: Any) -> None:
    with mock.patch.object(health, "_database", return_value={"ok": False, "detalhe": "x"}):
        assert client.get("/saude/pronto/").status_code == 503
    with mock.patch("django.db.backends.utils.CursorWrapper.execute", side_effect=OperationalError("down")):
        body = health._database()
    assert body == {"ok": False, "detalhe": "O banco de dados não respondeu (OperationalError)."}
