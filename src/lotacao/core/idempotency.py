"""Idempotent API POSTs: the same key and payload give the same response and do the work once.

Any POST can use it: `run_once(user=…, key=request's Idempotency-Key, endpoint=a name of the
endpoint, payload=the request's data, jurisdiction_id=…, work=a function returning (status, body
as JSON text))`.

The first request inserts its key (status in progress) under a unique constraint (user, endpoint,
key), in its own committed transaction: that insert decides who runs. The others read the row: a
different payload hash → 422; done → the stored status and body, replayed byte for byte; still in
progress → 409, unless the key was claimed more than `LOTACAO_IDEMPOTENCY_TAKEOVER_SECONDS` ago
(default 60): the worker that claimed it died mid-request (nothing of its work committed), and the
retry takes the key over and runs. The work and the stored response commit together, and only if
the worker still holds the key (a slow worker overtaken by a retry rolls its work back): exactly
one response is ever stored. If the work raises, the key is released.

`prune_idempotency_keys(now)` deletes keys older than 24 h (for the nightly jobs).

The keys live in the model named by the setting `LOTACAO_IDEMPOTENCY_MODEL` (`app_label.Model`,
with the fields key, user, jurisdiction, endpoint, payload_hash, status, response_status,
response_text, created_at): `enforcement.IdempotencyKey`, whose table the notice API created,
stays where it is (no migration); core names no app above it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from typing import Any

import orjson
from django.apps import apps
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from lotacao.core.problems import problem_body

Response = tuple[int, str]  # status and the JSON body as text

IN_PROGRESS = "in_progress"
DONE = "done"
DEFAULT_TAKEOVER_SECONDS = 60
KEEP = dt.timedelta(hours=24)

MISMATCH = "Esta chave de idempotência já foi usada com outro conteúdo: gere uma nova chave para outro auto."
RUNNING = "Uma requisição com esta chave ainda está em andamento: tente de novo em instantes."


class _Overtaken(Exception):
    """Another worker took the key over while this one worked: roll this work back."""


def key_model() -> Any:
    """The model class of the keys (`LOTACAO_IDEMPOTENCY_MODEL`)."""
    return apps.get_model(settings.LOTACAO_IDEMPOTENCY_MODEL)


def takeover_after() -> dt.timedelta:
    seconds = getattr(settings, "LOTACAO_IDEMPOTENCY_TAKEOVER_SECONDS", DEFAULT_TAKEOVER_SECONDS)
    return dt.timedelta(seconds=int(seconds))


def _detail(message: str, status: int) -> str:
    """A problem-details body (lotacao.core.problems) for a refusal of the key itself."""
    return orjson.dumps(problem_body(status, message, errors=[message])).decode()


def payload_hash(payload: Any) -> str:
    try:
        text = orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # an integer beyond 64 bits (orjson's limit): the standard library takes any
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str).encode()
    return hashlib.sha256(text).hexdigest()


def _take_over(row: Any) -> Any | None:
    """Claim a key left in progress: one conditional update, so of two retries only one wins."""
    now = timezone.now()
    taken = (
        type(row)
        .objects.filter(pk=row.pk, status=IN_PROGRESS, created_at=row.created_at)
        .update(created_at=now)
    )
    if taken != 1:
        return None
    row.created_at = now
    return row


def _claim(*, user: Any, key: str, endpoint: str, digest: str, jurisdiction_id: str | None) -> Any | Response:
    """The key row this request now holds, or the answer for a key held by another."""
    model = key_model()
    try:
        with transaction.atomic():
            return model.objects.create(
                key=key, user=user, endpoint=endpoint, payload_hash=digest, jurisdiction_id=jurisdiction_id
            )
    except IntegrityError:
        pass
    existing = model.objects.filter(user=user, endpoint=endpoint, key=key).first()
    if existing is None:  # the first attempt crashed and released the key meanwhile
        return 409, _detail(RUNNING, 409)
    if existing.payload_hash != digest:
        return 422, _detail(MISMATCH, 422)
    if existing.status == DONE:
        return int(existing.response_status or 200), existing.response_text
    if existing.created_at > timezone.now() - takeover_after():
        return 409, _detail(RUNNING, 409)
    return _take_over(existing) or (409, _detail(RUNNING, 409))


def _run(row: Any, work: Callable[[], Response]) -> Response:
    """Do the work and store its response in one transaction, while still holding the key."""
    mine = type(row).objects.filter(pk=row.pk, status=IN_PROGRESS, created_at=row.created_at)
    try:
        with transaction.atomic():
            status, body = work()
            if mine.update(status=DONE, response_status=status, response_text=body) != 1:
                raise _Overtaken
    except _Overtaken:
        return 409, _detail(RUNNING, 409)
    except BaseException:
        mine.delete()  # release the key for a retry (unless another worker holds it now)
        raise
    return status, body


def run_once(
    *,
    user: Any,
    key: str,
    endpoint: str,
    payload: Any,
    jurisdiction_id: str | None,
    work: Callable[[], Response],
) -> Response:
    claim = _claim(
        user=user, key=key, endpoint=endpoint, digest=payload_hash(payload), jurisdiction_id=jurisdiction_id
    )
    if isinstance(claim, tuple):
        return claim
    return _run(claim, work)


def prune_idempotency_keys(now: dt.datetime) -> int:
    """Delete the keys claimed more than 24 h before `now` (a retry after that is a new request);
    returns how many. For the nightly jobs."""
    deleted, _ = key_model().objects.filter(created_at__lt=now - KEEP).delete()
    return int(deleted)
