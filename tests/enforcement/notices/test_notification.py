"""Notification of infraction notices (notices/notification.py): the date each method counts as
served, returned notices where the law counts them, agents' notices to the holder, refusals."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.core.sample_ids import sample_cpf
from lotacao.enforcement.models import InfractionNotice, NoticeService
from lotacao.enforcement.notices.notification import record_notification
from lotacao.registry.models import Person
from tests.enforcement.conftest import make_jurisdiction
from tests.enforcement.notices.notification_helpers import (
    TODAY,
    _holder,
    _notice,
    _unchanged,
)

pytestmark = pytest.mark.django_db


def test_by_hand_counts_from_the_day_of_receipt(world: Any) -> None:
    notice = _notice(world.a, holder=_holder(world, "recife"))
    service = record_notification(
        actor=world.users["atendente.recife"],
        notice=notice,
        method="hand",
        received_on=dt.date(2025, 5, 8),
        today=TODAY,
    )
    notice.refresh_from_db()
    assert service.served_on == dt.date(2025, 5, 8) == notice.served_on
    assert notice.status == InfractionNotice.Status.NOTIFIED
    assert service.recorded_by == world.users["atendente.recife"]
    assert AuditEvent.objects.filter(action="enforcement.notice_notification").count() == 1
    assert AuditEvent.objects.filter(action="enforcement.notice_served").count() == 1


def test_by_post_counts_from_the_date_on_the_ar_and_uses_the_holders_address(world: Any) -> None:
    notice = _notice(world.b, holder=_holder(world, "esteio"))
    service = record_notification(
        actor=None,
        notice=notice,
        method="post_ar",
        sent_on=dt.date(2025, 5, 6),
        received_on=dt.date(2025, 5, 12),
        today=TODAY,
    )
    assert service.served_on == dt.date(2025, 5, 12)
    assert "Rua do Titular" in service.address


def test_marica_edital_counts_twenty_days_after_publication(world: Any) -> None:
    j = make_jurisdiction("marica")
    notice = _notice(j, offender_kind="unlicensed", offender_name="Fulano", plate="ABC1D23")
    # an edital only when the other means came to nothing (art. 63, III)
    with pytest.raises(ValidationError, match="inócuos"):
        record_notification(
            actor=None, notice=notice, method="edital", published_on=dt.date(2025, 6, 2), today=TODAY
        )
    failed = record_notification(
        actor=None,
        notice=notice,
        method="post_ar",
        address="Rua A, 1",
        sent_on=dt.date(2025, 5, 12),
        received_on=dt.date(2025, 5, 20),
        returned=True,
        returned_reason="other",
        returned_note="Destinatário desconhecido",
        today=TODAY,
    )
    assert failed.served_on is None and failed.returned
    service = record_notification(
        actor=None, notice=notice, method="edital", published_on=dt.date(2025, 6, 2), today=TODAY
    )
    assert service.served_on == dt.date(2025, 6, 22)
    assert any("art. 63, § 2º, c" in c for c in service.citations)
    assert service.missing_parameters == []


def test_edital_where_the_law_is_silent_counts_from_publication_and_says_so(world: Any) -> None:
    notice = _notice(world.a, holder=_holder(world, "recife"))
    service = record_notification(
        actor=None, notice=notice, method="edital", published_on=dt.date(2025, 6, 2), today=TODAY
    )
    assert service.served_on == dt.date(2025, 6, 2)
    assert "omissa" in service.explanation and "art. 29" in service.explanation
    assert service.missing_parameters == ["notice.edital_service_deadline"]


@pytest.mark.parametrize(("code", "article"), [("recife", "art. 29, § 2º"), ("esteio", "art. 18, § 3º")])
def test_a_notice_returned_for_an_outdated_address_counts_where_the_law_says(
    world: Any, code: str, article: str
) -> None:
    j = world.a if code == "recife" else world.b
    notice = _notice(j, holder=_holder(world, code))
    service = record_notification(
        actor=None,
        notice=notice,
        method="post_ar",
        received_on=dt.date(2025, 5, 20),
        returned=True,
        returned_reason="outdated_address",
        today=TODAY,
    )
    assert service.served_on == dt.date(2025, 5, 20)
    assert any(article in c for c in service.citations)
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.NOTIFIED


def test_a_returned_notice_is_only_a_failed_attempt_where_the_law_is_silent(world: Any) -> None:
    j = make_jurisdiction("marica")
    notice = _notice(j, offender_kind="unlicensed", offender_name="Fulano", plate="ABC1D23")
    attempt = record_notification(
        actor=None,
        notice=notice,
        method="post_ar",
        address="Rua A, 1",
        received_on=dt.date(2025, 5, 20),
        returned=True,
        returned_reason="outdated_address",
        today=TODAY,
    )
    assert attempt.served_on is None
    assert "não pode ser considerada válida" in attempt.explanation and "art. 63" in attempt.explanation
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.DRAWN_UP and notice.served_on is None
    assert AuditEvent.objects.filter(action="enforcement.notice_attempt_failed").count() == 1


def test_a_notice_returned_for_another_reason_never_counts(world: Any) -> None:
    notice = _notice(world.a, holder=_holder(world, "recife"))
    sending = record_notification(
        actor=None, notice=notice, method="post_ar", sent_on=dt.date(2025, 5, 12), today=TODAY
    )
    attempt = record_notification(
        actor=None,
        notice=notice,
        method="post_ar",
        received_on=dt.date(2025, 5, 20),
        returned=True,
        returned_reason="other",
        today=TODAY,
    )
    assert attempt.pk == sending.pk and attempt.served_on is None and attempt.returned
    assert "não vale como notificação" in attempt.explanation
    notice.refresh_from_db()
    assert notice.served_on is None
    # a new attempt can be made
    again = record_notification(
        actor=None, notice=notice, method="hand", received_on=dt.date(2025, 5, 22), today=TODAY
    )
    notice.refresh_from_db()
    assert again.pk != sending.pk and notice.served_on == dt.date(2025, 5, 22)


def test_an_agents_notice_goes_to_the_holders_address_in_recife(world: Any) -> None:
    holder = _holder(world, "recife")
    agent = Person.objects.create(
        jurisdiction=world.a, cpf=sample_cpf(300_000_001), full_name="Preposto", street="Rua do Preposto"
    )
    notice = _notice(world.a, offender_kind="auxiliary_driver", agent=agent, holder=holder)
    service = record_notification(
        actor=None,
        notice=notice,
        method="post_ar",
        address="Rua do Preposto",
        received_on=dt.date(2025, 5, 12),
        today=TODAY,
    )
    assert "Rua do Titular" in service.address and service.addressed_to_holder
    assert any("art. 29, § 3º" in c for c in service.citations)


def test_an_agents_notice_elsewhere_goes_to_the_agent(world: Any) -> None:
    holder = _holder(world, "esteio")
    agent = Person.objects.create(
        jurisdiction=world.b, cpf=sample_cpf(300_000_002), full_name="Preposto", street="Rua do Preposto"
    )
    notice = _notice(world.b, offender_kind="auxiliary_driver", agent=agent, holder=holder)
    service = record_notification(
        actor=None, notice=notice, method="post_ar", received_on=dt.date(2025, 5, 12), today=TODAY
    )
    assert "Rua do Preposto" in service.address and not service.addressed_to_holder


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"method": "hand"}, "data da ciência"),
        ({"method": "post_ar"}, "aviso de recebimento"),
        ({"method": "edital"}, "publicação do edital"),
        ({"method": "pombo"}, "Meio de notificação desconhecido"),
        ({"method": "hand", "received_on": dt.date(2025, 5, 1)}, "anterior à infração"),
        ({"method": "hand", "received_on": dt.date(2025, 8, 1)}, "não pode ser futura"),
        ({"method": "hand", "received_on": dt.date(2025, 5, 9), "returned": True}, "via postal"),
    ],
)
def test_refusals_change_nothing(world: Any, fields: dict[str, Any], message: str) -> None:
    notice = _notice(world.a, holder=_holder(world, "recife"))
    audits = AuditEvent.objects.count()
    with pytest.raises(ValidationError) as error:
        record_notification(actor=None, notice=notice, today=TODAY, **fields)
    assert message in " ".join(error.value.messages)
    _unchanged(notice, audits)


def test_an_archived_or_served_notice_is_refused(world: Any) -> None:
    holder = _holder(world, "recife")
    archived = _notice(world.a, holder=holder, status=InfractionNotice.Status.ARCHIVED)
    with pytest.raises(ValidationError, match="arquivado"):
        record_notification(
            actor=None, notice=archived, method="hand", received_on=dt.date(2025, 5, 9), today=TODAY
        )
    served = _notice(world.a, holder=holder)
    record_notification(
        actor=None, notice=served, method="hand", received_on=dt.date(2025, 5, 9), today=TODAY
    )
    with pytest.raises(ValidationError, match="já foi notificado em 09/05/2025"):
        record_notification(
            actor=None, notice=served, method="hand", received_on=dt.date(2025, 5, 10), today=TODAY
        )
    assert NoticeService.unscoped.filter(notice=served).count() == 1
