"""The store of idempotency keys that `lotacao.core.idempotency` reads (through the setting
`LOTACAO_IDEMPOTENCY_MODEL`). It stays in enforcement, where the notice API first needed it, so its
table `enforcement_idempotencykey` and migrations do not move."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotencyKey(models.Model):
    """One request key of an API POST: the insert under the unique constraint decides who runs.

    `created_at` is when the current owner claimed the key (a worker that takes over a key left
    in progress by a dead one moves it)."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "Em andamento"
        DONE = "done", "Concluída"

    key = models.CharField(max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    jurisdiction = models.ForeignKey(
        "core.Jurisdiction", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    endpoint = models.CharField(max_length=100)
    payload_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    # The body exactly as first sent (text, not JSON: jsonb would reorder keys and a replay must
    # be byte-for-byte the same).
    response_text = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "endpoint", "key"], name="enforcement_idempotency_unique")
        ]

    def __str__(self) -> str:
        return f"{self.endpoint} {self.key}"
