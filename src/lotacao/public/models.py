"""The public plate check's read model: one row per registered vehicle with its public answer.

A row holds the answer computed for one day (`day`) as JSON text (`body`). It may be served as it
is only while it is not `dirty` and its day is today: every change to what the answer is made of
marks the row dirty and bumps its `version` in the writer's own transaction
(lotacao.public.readmodel), and a row is only rewritten if its version did not move meanwhile, so a
committed change is never followed by the older answer. The nightly job recomputes the rows for the
new day (what changes with the date alone: a seal or a permit expiring, a suspension ending).
"""

from __future__ import annotations

from django.db import models


class PublicAnswer(models.Model):
    vehicle = models.OneToOneField(
        "registry.Vehicle",
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name="veículo",
    )
    plate = models.CharField("placa", max_length=7, db_index=True)
    jurisdiction = models.CharField("jurisdição", max_length=32)
    day = models.DateField("calculada para", null=True, blank=True)
    body = models.TextField("resposta (JSON)", blank=True, default="")
    version = models.PositiveBigIntegerField("versão", default=0)
    dirty = models.BooleanField("a recalcular", default=True)
    # The first day the answer may differ by the date alone (a seal, a policy or a permit running
    # out, a measure or a law taking effect); empty: only a write changes it. Served from `day`
    # until the day before.
    changes_on = models.DateField("pode mudar em", null=True, blank=True)

    class Meta:
        verbose_name = "resposta pública de placa"
        verbose_name_plural = "respostas públicas de placa"

    def __str__(self) -> str:
        return f"{self.plate} ({self.jurisdiction})"


class AnswerChunk(models.Model):
    """One range of vehicles of one build of the read model (lotacao.public.build): taken by one
    worker at a time (SELECT … FOR UPDATE SKIP LOCKED, held while it is computed) and marked done in
    the same transaction as its answers, so each range is written once and none is left out."""

    build = models.CharField("reconstrução", max_length=64, db_index=True)
    day = models.DateField("dia")
    full = models.BooleanField("completa", default=False)
    first = models.BigIntegerField("primeiro veículo")
    last = models.BigIntegerField("último veículo")
    done_at = models.DateTimeField("concluída em", null=True, blank=True)
    worker = models.CharField("processo", max_length=128, blank=True)
    written = models.PositiveIntegerField("respostas gravadas", default=0)
    kept = models.PositiveIntegerField("alteradas durante o cálculo", default=0)

    class Meta:
        verbose_name = "faixa da reconstrução das respostas públicas"
        verbose_name_plural = "faixas da reconstrução das respostas públicas"

    def __str__(self) -> str:
        return f"{self.build}: {self.first}–{self.last}"


class ReplicaHeartbeat(models.Model):
    """One row the replica probe writes on the primary and reads on the replica: a replica that
    is not a streaming standby (a logical subscriber, a stand-in) shows its lag by how old its copy
    of the beat is (lotacao.public.routing)."""

    beat = models.DateTimeField("batida")

    class Meta:
        verbose_name = "batida da réplica"
        verbose_name_plural = "batidas da réplica"

    def __str__(self) -> str:
        return f"batida de {self.beat:%d/%m/%Y %H:%M:%S}"
