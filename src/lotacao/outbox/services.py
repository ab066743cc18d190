"""Queue a message in the caller's transaction; deliver what is due (send_outbox, the task).

At-least-once, narrowly: a message is claimed (status `sending`) before it is sent and marked
`sent` right after the server accepts it. A process that dies between the claim and the send
leaves a `sending` row that returns to the queue after `CLAIM_EXPIRES` and is sent once. Only a
death between the server's acceptance and the next statement (a few milliseconds) can send it
again, and then with the same Message-ID, so the recipient's mail system and the operator can
recognise the copy.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.template.loader import TemplateDoesNotExist, render_to_string
from django.utils import timezone

from lotacao.outbox import backends
from lotacao.outbox.models import MANDATORY_EVENTS, Channel, Event, Message, Preference

log = logging.getLogger("lotacao.outbox")

BACKOFF_BASE = dt.timedelta(minutes=1)
BACKOFF_CAP = dt.timedelta(hours=6)
CLAIM_EXPIRES = dt.timedelta(minutes=15)
BATCH = 100


def max_attempts() -> int:
    return int(getattr(settings, "LOTACAO_OUTBOX_MAX_ATTEMPTS", 8))


def wants(user: Any, event: str, channel: str) -> bool:
    """Does the user accept this kind of message on this channel? (absent: e-mail yes, SMS no)."""
    if event in MANDATORY_EVENTS:
        return channel == Channel.EMAIL
    if user is None:
        return channel == Channel.EMAIL
    choice = Preference.objects.filter(user=user, event=event).first()
    if choice is None:
        return channel == Channel.EMAIL
    return choice.email if channel == Channel.EMAIL else choice.sms


def _render(template: str, context: dict[str, Any], channel: str) -> tuple[str, str, str]:
    subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
    if channel == Channel.SMS:
        try:
            return subject, render_to_string(f"{template}_sms.txt", context).strip(), ""
        except TemplateDoesNotExist:
            pass
    body = render_to_string(f"{template}.txt", context)
    try:
        html = render_to_string(f"{template}.html", context) if channel == Channel.EMAIL else ""
    except TemplateDoesNotExist:
        html = ""
    return subject, body, html


def enqueue(
    *,
    event: Event | str,
    template: str,
    context: dict[str, Any],
    dedup_key: str,
    user: Any = None,
    email: str = "",
    phone: str = "",
    jurisdiction: Any = None,
) -> list[Message]:
    """Queue the message for each channel the recipient accepts; the same `dedup_key` never twice.

    Runs in the caller's transaction (a rolled-back event leaves no message); the delivery task is
    woken when it commits. Returns the messages for this key (new or already queued).
    """
    if event not in Event.values:
        raise ValueError(f"unknown outbox event {event!r}")
    addresses = {Channel.EMAIL: email or (getattr(user, "email", "") or ""), Channel.SMS: phone}
    messages: list[Message] = []
    for channel, address in addresses.items():
        if not address or not wants(user, event, channel):
            continue
        key = f"{dedup_key}:{channel}"
        existing = Message.unscoped.filter(dedup_key=key).first()
        if existing is not None:
            messages.append(existing)
            continue
        subject, body, html = _render(template, context, channel)
        try:
            with transaction.atomic():
                messages.append(
                    Message.unscoped.create(
                        jurisdiction=jurisdiction,
                        user=user,
                        address=address,
                        channel=channel,
                        event=event,
                        subject=subject,
                        body=body,
                        html=html,
                        dedup_key=key,
                        next_attempt_at=timezone.now(),
                    )
                )
        except IntegrityError:  # the same event queued at the same moment elsewhere
            messages.append(Message.unscoped.get(dedup_key=key))
    if messages:
        transaction.on_commit(_wake)
    return messages


def _wake(at: dt.datetime | None = None) -> None:
    """Enqueue the delivery task (at `at`, for a retry), unless one is already waiting for then.

    Without workers (cron and send_outbox only) at most one waiting task row piles up.
    """
    from django_tasks_db.backend import DatabaseBackend
    from django_tasks_db.models import DBTaskResult, get_date_max

    from lotacao.outbox.tasks import deliver_outbox

    try:
        backend = deliver_outbox.get_backend()
        if isinstance(backend, DatabaseBackend):
            # django-tasks-db stores "as soon as possible" as the largest date.
            soon = Q(run_after=get_date_max()) | Q(run_after__lte=at or timezone.now())
            waiting = DBTaskResult.objects.filter(soon, status="READY", task_path=deliver_outbox.module_path)
            if waiting.exists():
                return
        elif at is not None:
            return  # the immediate backend cannot wait: send_outbox takes the retries
        (deliver_outbox.using(run_after=at) if at else deliver_outbox).enqueue()
    except Exception:  # the message is safe in the table; send_outbox or the next wake sends it
        log.exception("could not wake the outbox task")


def wake_for_retries() -> None:
    """After a delivery run: wake the task again when the earliest retry is due."""
    first = (
        Message.unscoped.filter(status=Message.Status.QUEUED)
        .order_by("next_attempt_at")
        .values_list("next_attempt_at", flat=True)
        .first()
    )
    if first is not None:
        _wake(max(first, timezone.now()))


@dataclass
class Delivery:
    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    recovered: int = 0


def _recover_abandoned(now: dt.datetime) -> int:
    """Claims whose process died before sending go back to the queue."""
    return Message.unscoped.filter(status=Message.Status.SENDING, claimed_at__lt=now - CLAIM_EXPIRES).update(
        status=Message.Status.QUEUED, next_attempt_at=now
    )


def claim(now: dt.datetime, limit: int = BATCH) -> list[Message]:
    """Take due messages for this process: no other worker gets the same one."""
    due = Message.unscoped.filter(status=Message.Status.QUEUED, next_attempt_at__lte=now).order_by(
        "next_attempt_at", "pk"
    )
    claimed: list[int] = []
    if connection.vendor == "postgresql":
        with transaction.atomic():
            ids = list(due.select_for_update(skip_locked=True).values_list("pk", flat=True)[:limit])
            Message.unscoped.filter(pk__in=ids).update(
                status=Message.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1
            )
            claimed = ids
    else:
        for pk in due.values_list("pk", flat=True)[:limit]:
            taken = Message.unscoped.filter(pk=pk, status=Message.Status.QUEUED).update(
                status=Message.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1
            )
            if taken:
                claimed.append(pk)
    return list(Message.unscoped.filter(pk__in=claimed).order_by("next_attempt_at", "pk"))


def _backoff(attempts: int) -> dt.timedelta:
    delay: dt.timedelta = BACKOFF_BASE * (2 ** max(0, attempts - 1))
    return min(BACKOFF_CAP, delay)


def _error_text(channel: str, error: Exception) -> str:
    where = "servidor de e-mail" if channel == Channel.EMAIL else "serviço de SMS"
    if isinstance(error, ConnectionError | TimeoutError | OSError):
        what = f"Não foi possível conectar ao {where}"
    else:
        what = f"O {where} recusou a mensagem"
    return f"{what} ({type(error).__name__}: {error})."[:2000]


def send_one(message: Message) -> bool:
    """Send one claimed message; mark it sent at once, or schedule the next attempt, or fail it."""
    backend = backends.for_channel(message.channel)
    try:
        backend.send(message)
    except Exception as error:
        now = timezone.now()
        text = _error_text(message.channel, error)
        if message.attempts >= max_attempts():
            Message.unscoped.filter(pk=message.pk).update(
                status=Message.Status.FAILED,
                last_error=f"Desistimos após {message.attempts} tentativas. {text}",
            )
            log.error("outbox message %s failed for good: %s", message.pk, error)
        else:
            Message.unscoped.filter(pk=message.pk).update(
                status=Message.Status.QUEUED,
                last_error=text,
                next_attempt_at=now + _backoff(message.attempts),
            )
            log.warning("outbox message %s will be retried: %s", message.pk, error)
        return False
    Message.unscoped.filter(pk=message.pk).update(
        status=Message.Status.SENT, sent_at=timezone.now(), via=backend.label, last_error=""
    )
    return True


def deliver_due(now: dt.datetime | None = None) -> Delivery:
    """Deliver every message due now, once (send_outbox and the task)."""
    now = now or timezone.now()
    result = Delivery(recovered=_recover_abandoned(now))
    while batch := claim(now):
        for message in batch:
            if send_one(message):
                result.sent.append(message.pk)
            elif Message.unscoped.filter(pk=message.pk, status=Message.Status.FAILED).exists():
                result.failed.append(message.pk)
            else:
                result.retrying.append(message.pk)
    return result


def counts() -> dict[str, int]:
    """What the operator watches: queued, failed for good, and queued past their attempt time."""
    overdue_since = timezone.now() - dt.timedelta(hours=1)
    return {
        "na_fila": Message.unscoped.filter(status=Message.Status.QUEUED).count(),
        "atrasadas": Message.unscoped.filter(
            status=Message.Status.QUEUED, next_attempt_at__lt=overdue_since
        ).count(),
        "falharam": Message.unscoped.filter(status=Message.Status.FAILED).count(),
    }


def requeue(*, actor: Any, messages: list[Message]) -> int:
    """The operator puts failed messages back in the queue (attempts from zero); audited."""
    from lotacao.audit.services import record

    count = 0
    for message in messages:
        with transaction.atomic():
            changed = Message.unscoped.filter(pk=message.pk, status=Message.Status.FAILED).update(
                status=Message.Status.QUEUED, attempts=0, next_attempt_at=timezone.now()
            )
            if changed:
                record(
                    actor=actor, action="message.requeued", instance=message,
                    reason="Mensagem posta de novo na fila pela administração do sistema",
                    before={"status": Message.Status.FAILED}, after={"status": Message.Status.QUEUED},
                )
                count += 1
    if count:
        transaction.on_commit(_wake)
    return count
