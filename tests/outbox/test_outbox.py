"""The outbox against a real SMTP server: once, in Portuguese, nothing lost, nothing sent twice."""

from __future__ import annotations

import datetime as dt
import re
import threading
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connections, transaction
from django.utils import timezone

from lotacao.accounts.models import User
from lotacao.outbox import services
from lotacao.outbox.models import Channel, Event, Message, Preference

from .conftest import SMTPServer

pytestmark = pytest.mark.django_db(transaction=True)

CONTEXT = {
    "name": "Maria da Silva",
    "agency": "órgão gestor de Recife",
    "what": "a renovação da permissão",
    "due": dt.date(2026, 12, 15),
    "citation": "Lei 1.234, art. 10",
    "link": "https://lotacao.example.gov.br/",
}


def _queue(key: str = "prazo:1:2026-12-01", **kwargs: Any) -> list[Message]:
    user = kwargs.pop("user", None) or User.objects.create(username=f"u{key}", email="maria@example.com")
    with transaction.atomic():
        return services.enqueue(
            event=Event.DEADLINE,
            template="outbox/deadline",
            context=CONTEXT,
            dedup_key=key,
            user=user,
            **kwargs,
        )


def _send() -> str:
    out = StringIO()
    call_command("send_outbox", stdout=out)
    return out.getvalue()


def test_a_message_arrives_once_in_portuguese(smtp_server: SMTPServer) -> None:
    [message] = _queue()  # the on_commit wake (immediate backend) already delivered it
    assert "Enviadas: 0" in _send()  # nothing left to send: no second copy
    [received] = smtp_server.inbox.messages
    assert received["Subject"].strip() == "Prazo até 15/12/2026: a renovação da permissão"
    assert received["To"] == "maria@example.com"
    assert received["Message-ID"] == message.message_id
    text = received.get_body(("plain",)).get_content()
    assert "Olá, Maria da Silva." in text and "Lei 1.234, art. 10" in text
    assert "prazo:1" not in text and "mensagem-" not in text and not re.search(r"\b[a-z]+_[a-z_]+\b", text)
    assert "<strong>a renovação da permissão</strong>" in received.get_body(("html",)).get_content()
    message.refresh_from_db()
    assert message.status == Message.Status.SENT and message.sent_at is not None and message.attempts == 1


def test_with_the_server_down_nothing_is_lost_and_it_arrives_once_when_it_is_back(
    smtp_server: SMTPServer,
) -> None:
    smtp_server.stop()
    [message] = _queue()
    assert "a tentar de novo: 0" in _send()  # not due yet: the first attempt set the next one
    message.refresh_from_db()
    assert message.status == Message.Status.QUEUED and message.attempts == 1
    assert message.last_error.startswith("Não foi possível conectar ao servidor de e-mail")
    assert message.next_attempt_at > timezone.now()
    Message.unscoped.filter(pk=message.pk).update(next_attempt_at=timezone.now())
    assert "a tentar de novo: 1" in _send()
    message.refresh_from_db()
    assert message.attempts == 2 and message.next_attempt_at - timezone.now() > dt.timedelta(seconds=90)
    smtp_server.start()
    Message.unscoped.filter(pk=message.pk).update(next_attempt_at=timezone.now())
    assert "Enviadas: 1" in _send()
    assert "Enviadas: 0" in _send()
    assert len(smtp_server.inbox.messages) == 1
    message.refresh_from_db()
    assert message.status == Message.Status.SENT and message.last_error == ""


def test_after_the_last_attempt_the_failure_is_visible(
    smtp_server: SMTPServer, settings: Any, client: Any
) -> None:
    settings.LOTACAO_OUTBOX_MAX_ATTEMPTS = 2
    smtp_server.stop()
    [message] = _queue()
    Message.unscoped.filter(pk=message.pk).update(next_attempt_at=timezone.now())
    assert "falharam de vez: 1" in _send()
    message.refresh_from_db()
    assert message.status == Message.Status.FAILED
    assert message.last_error.startswith("Desistimos após 2 tentativas. Não foi possível conectar")
    body = client.get("/saude/pronto/").json()
    assert body["verificacoes"]["mensagens"]["falharam"] == 1
    assert body["verificacoes"]["mensagens"]["detalhe"].startswith("Uma mensagem não pôde ser enviada")
    operator = User.objects.create_superuser("operador-teste", "op@example.com", "senha-longa-123")
    client.force_login(operator)
    page = client.get("/admin/outbox/message/?status__exact=failed").content.decode()
    assert "Desistimos após 2 tentativas" in page


def test_a_crash_between_claim_and_send_is_recovered_without_a_double_send(
    smtp_server: SMTPServer, settings: Any
) -> None:
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["default", "nightly"]}
    }
    [message] = _queue()
    [claimed] = services.claim(timezone.now())  # the process that claimed it dies here
    assert claimed.pk == message.pk
    assert "Enviadas: 0" in _send()  # a claim in progress is nobody else's to send
    Message.unscoped.filter(pk=message.pk).update(claimed_at=timezone.now() - services.CLAIM_EXPIRES * 2)
    assert "Enviadas: 1" in _send()
    assert "Enviadas: 0" in _send()
    assert len(smtp_server.inbox.messages) == 1


def test_the_same_event_never_makes_two_messages(smtp_server: SMTPServer) -> None:
    user = User.objects.create(username="maria", email="maria@example.com")
    first = _queue("aviso:7", user=user)
    second = _queue("aviso:7", user=user)
    assert [m.pk for m in first] == [m.pk for m in second]
    _send()
    assert Message.unscoped.count() == 1 and len(smtp_server.inbox.messages) == 1


def test_a_rolled_back_event_leaves_no_message(smtp_server: SMTPServer) -> None:
    user = User.objects.create(username="maria", email="maria@example.com")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.enqueue(
            event=Event.DEADLINE, template="outbox/deadline", context=CONTEXT, dedup_key="x", user=user
        )
        raise RuntimeError("o evento falhou")
    assert Message.unscoped.count() == 0 and smtp_server.inbox.messages == []


def test_preferences_choose_the_channels(smtp_server: SMTPServer, settings: Any) -> None:
    user = User.objects.create(username="maria", email="maria@example.com")
    Preference.objects.create(user=user, event=Event.DEADLINE, email=False, sms=True)
    [sms] = _queue("p:1", user=user, phone="+5581999990000")
    assert sms.channel == Channel.SMS and smtp_server.inbox.messages == []
    sms.refresh_from_db()
    assert sms.status == Message.Status.SENT and sms.via.startswith("arquivo local")
    written = (settings.LOTACAO_SMS_DIR / f"sms-{sms.pk}.txt").read_text("utf-8")
    assert "a renovação da permissão tem prazo até 15/12/2026" in written
    Preference.objects.filter(user=user).update(email=False, sms=False)
    assert _queue("p:2", user=user, phone="+5581999990000") == []
    # The account's own messages (password reset) go by e-mail whatever the preferences say.
    assert services.wants(user, Event.ACCOUNT, Channel.EMAIL)
    assert not services.wants(user, Event.ACCOUNT, Channel.SMS)


def test_an_unknown_event_is_refused(smtp_server: SMTPServer) -> None:
    with pytest.raises(ValueError, match="unknown outbox event"):
        services.enqueue(event="x", template="outbox/deadline", context=CONTEXT, dedup_key="k", email="a@b.c")


@pytest.mark.postgres
def test_two_senders_at_once_send_each_message_once(smtp_server: SMTPServer, settings: Any) -> None:
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["default", "nightly"]}
    }
    user = User.objects.create(username="maria", email="maria@example.com")
    for number in range(20):
        _queue(f"lote:{number}", user=user)
    errors: list[BaseException] = []

    def sender() -> None:
        try:
            services.deliver_due()
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    ids = sorted(m["Message-ID"] for m in smtp_server.inbox.messages)
    assert len(ids) == 20 and len(set(ids)) == 20
    assert Message.unscoped.filter(status=Message.Status.SENT).count() == 20


def test_the_operator_puts_a_failed_message_back_in_the_queue(
    smtp_server: SMTPServer, settings: Any, client: Any
) -> None:
    from lotacao.audit.models import AuditEvent

    settings.LOTACAO_OUTBOX_MAX_ATTEMPTS = 1
    smtp_server.stop()
    [message] = _queue()
    assert Message.unscoped.get(pk=message.pk).status == Message.Status.FAILED
    smtp_server.start()
    operator = User.objects.create_superuser("operador-teste", "op@example.com", "senha-longa-123")
    client.force_login(operator)
    answer = client.post(
        "/admin/outbox/message/", {"action": "send_again", "_selected_action": [message.pk]}, follow=True
    )
    assert "Uma mensagem voltou para a fila." in answer.content.decode()
    assert len(smtp_server.inbox.messages) == 1  # woken on commit (immediate backend)
    assert AuditEvent.objects.filter(action="message.requeued").count() == 1


def test_on_the_database_queue_one_waiting_task_wakes_delivery_and_retries_are_scheduled(
    smtp_server: SMTPServer, settings: Any
) -> None:
    from django_tasks_db.management.commands.db_worker import Worker
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "nightly"]}
    }
    smtp_server.stop()
    user = User.objects.create(username="maria", email="maria@example.com")
    _queue("fila:1", user=user)
    _queue("fila:2", user=user)
    assert DBTaskResult.objects.filter(status="READY").count() == 1  # one wake, not one per message
    Worker(
        queue_names=["default"], interval=0, batch=True, backend_name="default", startup_delay=False,
        max_tasks=1, worker_id="teste", excluded_queue_names=[],
    ).run()
    retry = DBTaskResult.objects.get(status="READY")  # the worker scheduled the retry
    first_retry = Message.unscoped.order_by("next_attempt_at").first()
    assert first_retry is not None and retry.run_after == first_retry.next_attempt_at
