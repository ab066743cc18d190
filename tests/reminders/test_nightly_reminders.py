"""The nightly reminders against a real SMTP server (aiosmtpd): with the server down nothing is
lost (retries with backoff, then a visible failure); once it is up each message arrives once, in
Portuguese, without internal ids; a rerun of the night sends nothing twice."""

from __future__ import annotations

import datetime as dt
import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from lotacao.outbox import services as outbox
from lotacao.outbox.models import Event, Message, Preference
from lotacao.reminders import sources
from lotacao.reminders.models import Contact
from lotacao.reminders.services import run

from ..outbox.conftest import SMTPServer

pytestmark = pytest.mark.django_db(transaction=True)


def _prepare(world: Any) -> Any:
    user = world.users["holder0.recife"]
    user.email = "pessoa0@exemplo.com.br"
    user.first_name, user.last_name = "Pessoa", "Zero"
    user.save()
    permit = world.objects["recife"]["permits.permit"]
    permit.valid_until = timezone.localdate() + dt.timedelta(days=20)
    permit.save(update_fields=["valid_until"])
    return user


def _nightly(*extra: str) -> None:
    call_command("run_nightly", "--somente", "reminders", *extra, stdout=StringIO(), stderr=StringIO())


def _send() -> None:
    call_command("send_outbox", stdout=StringIO())


def _due_now() -> None:
    Message.unscoped.filter(status=Message.Status.QUEUED).update(next_attempt_at=timezone.now())


def test_server_down_loses_nothing_and_up_delivers_once_in_portuguese(
    world: Any, smtp_server: SMTPServer
) -> None:
    user = _prepare(world)
    smtp_server.stop()
    _nightly()
    mine = Message.unscoped.filter(user=user)
    subjects = sorted(mine.values_list("subject", flat=True))
    assert any(s.startswith("Permissão nº REC-0001/") and "vence em" in s for s in subjects), subjects
    assert any(s == "Guia emitida: Taxa de teste" for s in subjects), subjects
    assert mine.count() == len(set(mine.values_list("dedup_key", flat=True)))

    _send()  # the server is down: every message stays queued, with its error and a later attempt
    first = {m.pk: m for m in Message.unscoped.all()}
    assert first and all(m.status == Message.Status.QUEUED for m in first.values())
    assert all(
        m.attempts >= 1 and "Não foi possível conectar ao servidor de e-mail" in m.last_error
        for m in first.values()
    )
    assert all(m.next_attempt_at > timezone.now() for m in first.values())
    _due_now()
    _send()
    second = {m.pk: m for m in Message.unscoped.all()}
    for pk, message in second.items():  # the backoff grows: 1 minute, then 2
        assert message.attempts == first[pk].attempts + 1
        assert message.next_attempt_at - timezone.now() > dt.timedelta(seconds=90)

    _nightly("--repetir")  # the night again: the dedup keys make nothing new
    assert Message.unscoped.count() == len(second)

    smtp_server.start()
    _due_now()
    _send()
    _send()
    assert Message.unscoped.filter(status=Message.Status.SENT).count() == len(second)
    received = smtp_server.inbox.messages
    assert len(received) == len(second)  # once each
    assert len({m["Message-ID"] for m in received}) == len(received)
    renewal = next(m for m in received if "vence em" in m["Subject"] and m["To"] == user.email)
    text = renewal.get_body(("plain",)).get_content()
    assert text.startswith("Olá, Pessoa Zero.")
    assert "A permissão nº REC-0001/" in text and "procure o órgão gestor para a renovação" in text
    assert re.search(r"\d{2}/\d{2}/\d{4}", text) and not re.search(r"\d{4}-\d{2}-\d{2}", text)
    assert "/permissoes/" in text and "/lembretes/preferencias/" in text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no snake_case ids
    assert "Guia emitida: Taxa de teste" in {m["Subject"] for m in received}
    charge = next(
        m for m in received if m["Subject"] == "Guia emitida: Taxa de teste" and m["To"] == user.email
    )
    assert "R$\xa010,00" in charge.get_body(("plain",)).get_content()


def test_server_down_for_good_is_a_visible_failure(
    world: Any, smtp_server: SMTPServer, settings: Any
) -> None:
    settings.LOTACAO_OUTBOX_MAX_ATTEMPTS = 3
    _prepare(world)
    smtp_server.stop()
    _nightly()
    for _ in range(4):
        _due_now()
        _send()
    failed = Message.unscoped.filter(status=Message.Status.FAILED)
    assert failed.count() == Message.unscoped.count() > 0
    assert all(m.last_error.startswith("Desistimos após 3 tentativas.") for m in failed)
    assert outbox.counts()["falharam"] == failed.count()


def test_thresholds_remind_once_per_threshold(world: Any, settings: Any) -> None:
    settings.LOTACAO_REMINDER_DAYS = {**settings.LOTACAO_REMINDER_DAYS, "renewal": [30, 5]}
    user = _prepare(world)
    today = timezone.localdate()
    permit = world.objects["recife"]["permits.permit"]

    def renewal_keys() -> list[str]:
        return sorted(
            Message.unscoped.filter(user=user, event=Event.RENEWAL).values_list("dedup_key", flat=True)
        )

    run(today)
    run(today)
    assert len(renewal_keys()) == 1 and renewal_keys()[0].endswith(":30:email")
    run(today + dt.timedelta(days=3))  # still within 30 days: nothing new
    assert len(renewal_keys()) == 1
    run(permit.valid_until - dt.timedelta(days=2))  # within 5: the last reminder
    assert len(renewal_keys()) == 2 and renewal_keys()[1].endswith(":5:email")
    run(permit.valid_until + dt.timedelta(days=1))  # past the date: no "before" reminder
    assert len(renewal_keys()) == 2
    assert sources.threshold("renewal", today, today + dt.timedelta(days=31)) is None


def test_preferences_choose_the_channels_and_the_phone(world: Any, settings: Any, tmp_path: Any) -> None:
    settings.LOTACAO_SMS_DIR = tmp_path / "sms"
    user = _prepare(world)
    Preference.objects.create(user=user, event=Event.RENEWAL, email=False, sms=True)
    Preference.objects.create(user=user, event=Event.CHARGE, email=False, sms=False)
    Contact.objects.create(user=user, phone="+5581987654321")
    run(timezone.localdate())
    mine = Message.unscoped.filter(user=user)
    assert set(mine.filter(event=Event.RENEWAL).values_list("channel", "address")) == {
        ("sms", "+5581987654321")
    }
    assert not mine.filter(event=Event.CHARGE).exists()
    sms = mine.get(event=Event.RENEWAL).body
    assert "vence" not in sms or "REC-0001/" in sms
    assert len(sms) < 320 and "http" in sms


def test_staff_get_a_digest_of_the_new_work_items(world: Any) -> None:
    manager = world.users["gestor.recife"]
    manager.email = "gestor@recife.exemplo.gov.br"
    manager.save()
    today = timezone.localdate()
    call_command("run_nightly", "--somente", "build_work_queue", "--somente", "reminders", stdout=StringIO())
    digest = Message.unscoped.get(user=manager)
    assert digest.subject.startswith("Fila de trabalho:") and "com prazo" in digest.subject
    assert digest.dedup_key == f"lembrete:equipe:recife:{manager.pk}:{today.isoformat()}:email"
    assert "Fila de trabalho" in digest.body or "fila de trabalho" in digest.body
    assert not Message.unscoped.filter(user=world.users["fiscal.recife"]).exists()


def test_the_domains_notify_a_holder_through_the_seam_once(world: Any) -> None:
    from lotacao.core import providers

    user = _prepare(world)
    holder = world.objects["recife"]["registry.holder"]
    [(name, notify)] = providers.providers("notify_holder")
    assert name == "reminders"
    for _ in range(2):
        with transaction.atomic():
            notify(
                holder=holder,
                event=Event.REQUEST,
                dedup_key="requerimento:1:decidido",
                subject="Requerimento deferido",
                what="seu requerimento de vistoria foi deferido.",
                path="/",
                citation="Lei 1.234, art. 5º",
            )
    [message] = Message.unscoped.filter(user=user, event=Event.REQUEST)
    assert message.subject == "Requerimento deferido"
    assert "CTTU informa: Seu requerimento de vistoria foi deferido." in message.body
    user.is_active = False
    user.save()
    with transaction.atomic():
        assert (
            notify(holder=holder, event=Event.REQUEST, dedup_key="outro", subject="s", what="w", path="/")
            == 0
        )
