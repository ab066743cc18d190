"""Compute the public plate check's answers for today (the nightly job, run by hand: after a
bulk load, or to warm a new installation)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from lotacao.public.readmodel import refresh


class Command(BaseCommand):
    help = "Calcula as respostas da consulta pública de placas do dia."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        counts = refresh(timezone.localdate())
        self.stdout.write(
            f"{counts['recalculadas']} respostas calculadas ({counts['novas']} veículos novos) "
            f"em {time.perf_counter() - started:.1f} s."
        )
