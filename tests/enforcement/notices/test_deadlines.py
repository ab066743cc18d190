"""The agency's deadline to notify (notices/deadlines.py): archived in Recife, only flagged in
Esteio and Pernambuco, the sending that meets it, a notification recorded late, and the
manager's decision."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from lotacao.audit.models import AuditEvent
from lotacao.enforcement.models import InfractionNotice, NoticeService
from lotacao.enforcement.notices.deadlines import OVERDUE_KIND
from lotacao.enforcement.notices.notification import record_notification
from lotacao.workqueue.models import WorkItem
from lotacao.workqueue.services import refresh
from tests.enforcement.conftest import make_jurisdiction
from tests.enforcement.notices.notification_helpers import (
    TODAY,
    _holder,
    _notice,
)

pytestmark = pytest.mark.django_db


def test_the_job_archives_in_recife_and_only_flags_in_esteio(world: Any) -> None:
    # Infraction on 05/05/2025: 30 days → due 04/06/2025 in both laws.
    late_recife = _notice(world.a, holder=_holder(world, "recife"))
    late_esteio = _notice(world.b, holder=_holder(world, "esteio"))
    in_time = _notice(world.a, holder=world.objects["recife"]["registry.holder"])
    record_notification(
        actor=None, notice=in_time, method="hand", received_on=dt.date(2025, 6, 3), today=TODAY
    )

    call_command("check_notification_deadlines", "--data", "2025-06-04")  # the last day: nothing yet
    late_recife.refresh_from_db()
    assert late_recife.status == InfractionNotice.Status.DRAWN_UP
    assert not WorkItem.unscoped.filter(kind=OVERDUE_KIND).exists()

    call_command("check_notification_deadlines", "--data", "2025-06-05")
    for notice in (late_recife, late_esteio, in_time):
        notice.refresh_from_db()
    assert late_recife.status == InfractionNotice.Status.ARCHIVED
    assert late_recife.archived_on == dt.date(2025, 6, 5)
    assert "art. 29, § 1º" in late_recife.archive_reason and "04/06/2025" in late_recife.archive_reason
    assert AuditEvent.objects.filter(action="enforcement.notice_archived").count() == 1
    assert late_esteio.status == InfractionNotice.Status.DRAWN_UP
    assert in_time.status == InfractionNotice.Status.NOTIFIED
    flagged = WorkItem.unscoped.get(kind=OVERDUE_KIND)
    assert flagged.jurisdiction_id == "esteio" and flagged.key == f"notice:{late_esteio.pk}"
    assert flagged.due_on == dt.date(2025, 6, 4) and "art. 18, § 2º" in flagged.title

    audits, items = AuditEvent.objects.count(), WorkItem.unscoped.count()
    call_command("check_notification_deadlines", "--data", "2025-06-06")  # idempotent
    assert (AuditEvent.objects.count(), WorkItem.unscoped.count()) == (audits, items)

    refresh(dt.date(2025, 6, 6))  # the nightly queue keeps the flag open (provider)
    assert WorkItem.unscoped.get(kind=OVERDUE_KIND).status == WorkItem.Status.OPEN


def test_pernambuco_flags_after_sixty_days(world: Any) -> None:
    j = make_jurisdiction("pernambuco")
    notice = _notice(j, day="2025-03-03", offender_kind="unlicensed", offender_name="Empresa X")
    call_command("check_notification_deadlines", "--data", "2025-05-02")
    assert not WorkItem.unscoped.filter(kind=OVERDUE_KIND).exists()
    call_command("check_notification_deadlines", "--data", "2025-05-06")
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.DRAWN_UP
    assert WorkItem.unscoped.filter(kind=OVERDUE_KIND, key=f"notice:{notice.pk}").exists()


def test_a_notification_recorded_after_recifes_deadline_archives_the_notice(world: Any) -> None:
    notice = _notice(world.a, day="2025-05-05", holder=_holder(world, "recife"))
    record_notification(
        actor=None, notice=notice, method="hand", received_on=dt.date(2025, 6, 20), today=TODAY
    )
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.ARCHIVED and notice.served_on == dt.date(2025, 6, 20)
    assert "art. 29, § 1º" in notice.archive_reason


def test_a_late_notification_in_esteio_is_only_explained(world: Any) -> None:
    notice = _notice(world.b, day="2025-05-05", holder=_holder(world, "esteio"))
    service = record_notification(
        actor=None, notice=notice, method="hand", received_on=dt.date(2025, 6, 20), today=TODAY
    )
    notice.refresh_from_db()
    service.refresh_from_db()
    assert notice.status == InfractionNotice.Status.NOTIFIED
    assert "depois do prazo do órgão" in service.explanation and "decida" in service.explanation


def test_a_letter_sent_in_time_keeps_pernambuco_within_its_sixty_days(world: Any) -> None:
    j = make_jurisdiction("pernambuco")
    notice = _notice(j, day="2025-03-03", offender_kind="unlicensed", offender_name="Empresa X")
    sending = record_notification(
        actor=None,
        notice=notice,
        method="post_ar",
        sent_on=dt.date(2025, 4, 20),
        address="Av. Principal, 1, Recife/PE",
        today=TODAY,
    )
    notice.refresh_from_db()
    assert sending.served_on is None and notice.served_on is None  # the AR has not come back
    with pytest.raises(ValidationError, match="aguardando o AR"):
        record_notification(
            actor=None, notice=notice, method="post_ar", sent_on=dt.date(2025, 4, 21), today=TODAY
        )
    call_command("check_notification_deadlines", "--data", "2025-05-06")
    assert not WorkItem.unscoped.filter(kind=OVERDUE_KIND).exists()  # art. 25 § 2º: remitted in time
    served = record_notification(
        actor=None, notice=notice, method="post_ar", received_on=dt.date(2025, 5, 10), today=TODAY
    )
    notice.refresh_from_db()
    assert served.pk == sending.pk and served.served_on == dt.date(2025, 5, 10) == notice.served_on
    assert served.sent_on == dt.date(2025, 4, 20) and "depois do prazo" not in served.explanation
    assert NoticeService.unscoped.filter(notice=notice).count() == 1


def test_a_letter_sent_in_time_does_not_save_a_recife_notice_served_late(world: Any) -> None:
    notice = _notice(world.a, day="2025-05-05", holder=_holder(world, "recife"))
    record_notification(
        actor=None,
        notice=notice,
        method="post_ar",
        sent_on=dt.date(2025, 5, 10),
        address="Rua A, 1",
        today=TODAY,
    )
    call_command("check_notification_deadlines", "--data", "2025-06-10")
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.ARCHIVED  # art. 29 § 1º: notified, not just sent


def test_a_manager_decides_on_a_notice_notified_late_where_the_law_only_flags(
    world: Any, client: Any
) -> None:
    from lotacao.enforcement.notices.deadlines import LATE_KIND, late_items

    notice = _notice(world.b, day="2025-05-05", holder=_holder(world, "esteio"))
    record_notification(
        actor=None, notice=notice, method="hand", received_on=dt.date(2025, 6, 20), today=TODAY
    )
    items = list(late_items(TODAY))
    assert [i.key for i in items] == [f"notice:{notice.pk}"] and items[0].kind == LATE_KIND
    url = f"/fiscalizacao/autos/{notice.pk}/prosseguir/"
    client.force_login(world.users["atendente.esteio"])
    assert "Só o gestor" in client.get(url).content.decode()
    assert client.post(url, {"reason": "x"}).status_code == 403
    client.force_login(world.users["gestor.esteio"])
    assert client.post(url, {"reason": " "}).status_code == 422
    assert client.post(url, {"reason": "Atraso de um dia, sem prejuízo à defesa"}).status_code == 302
    assert list(late_items(TODAY)) == []
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.NOTIFIED
    assert client.post(url, {"reason": "de novo"}).status_code == 422  # nothing left to decide


def test_a_manager_archives_a_notice_with_a_reason(world: Any, client: Any) -> None:
    notice = _notice(world.b, day="2025-05-05", holder=_holder(world, "esteio"))
    url = f"/fiscalizacao/autos/{notice.pk}/arquivar/"
    client.force_login(world.users["gestor.esteio"])
    assert client.post(url, {"reason": "Não notificado no prazo do art. 18 § 2º"}).status_code == 302
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.ARCHIVED and "art. 18" in notice.archive_reason
    refused = client.post(url, {"reason": "outra vez"})
    assert refused.status_code == 422 and "não pode ser arquivado" in refused.content.decode()
    client.force_login(world.users["gestor.recife"])
    assert client.post(url, {"reason": "x"}).status_code == 404
