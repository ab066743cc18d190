"""Idempotent writes: the same key and payload give the same response and do the work once.

The first request inserts its key (status in_progress) under a unique constraint, in its own
committed transaction: that insert decides who runs. The others read the row: a different
payload hash → 422, still in progress → 409, done → the stored status and body, replayed.
The work and the stored response commit together; if the work crashes, the key is released.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import orjson
from django.db import IntegrityError, transaction

from lotacao.enforcement.models import IdempotencyKey

Response = tuple[int, str]  # status and the JSON body as text

MISMATCH = "Esta chave de idempotência já foi usada com outro conteúdo: gere uma nova chave para outro auto."
RUNNING = "Uma requisição com esta chave ainda está em andamento: tente de novo em instantes."


def _detail(message: str) -> str:
    return orjson.dumps({"detail": [message]}).decode()


def payload_hash(payload: Any) -> str:
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


def run_once(
    *,
    user: Any,
    key: str,
    endpoint: str,
    payload: Any,
    jurisdiction_id: str | None,
    work: Callable[[], Response],
) -> Response:
    digest = payload_hash(payload)
    try:
        with transaction.atomic():
            row = IdempotencyKey.objects.create(
                key=key, user=user, endpoint=endpoint, payload_hash=digest, jurisdiction_id=jurisdiction_id
            )
    except IntegrityError:
        existing = IdempotencyKey.objects.filter(user=user, endpoint=endpoint, key=key).first()
        if existing is None:  # the first attempt crashed and released the key meanwhile
            return 409, _detail(RUNNING)
        if existing.payload_hash != digest:
            return 422, _detail(MISMATCH)
        if existing.status != IdempotencyKey.Status.DONE:
            return 409, _detail(RUNNING)
        return int(existing.response_status or 200), existing.response_text
    try:
        with transaction.atomic():
            status, body = work()
            row.status = IdempotencyKey.Status.DONE
            row.response_status = status
            row.response_text = body
            row.save(update_fields=["status", "response_status", "response_text"])
    except BaseException:
        IdempotencyKey.objects.filter(pk=row.pk).delete()
        raise
    return status, body
