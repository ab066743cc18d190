"""Compute the public plate check's answers for today (the nightly job, run by hand: after a
bulk load, or to warm a new installation). `--completa` recomputes every answer, not only those
that changed; the ranges are shared with the `db_worker`s running (lotacao.public.build)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from lotacao.public import build


class Command(BaseCommand):
    help = "Calcula as respostas da consulta pública de placas do dia."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--completa", "--full", dest="full", action="store_true",
            help="recalcula todas as respostas, não só as que mudaram",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        counts = build.run(timezone.localdate(), full=options["full"])
        self.stdout.write(
            f"{counts['recalculadas']} respostas calculadas ({counts['novas']} veículos novos) em "
            f"{counts['faixas']} faixas por {counts['processos']} processo(s), "
            f"em {time.perf_counter() - started:.1f} s."
        )
