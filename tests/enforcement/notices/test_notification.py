"""Notification of infraction notices: the date each method counts as served, returned notices
where the law counts them, agents' notices to the holder, and the agency's deadline to notify
(archived in Recife, only flagged in Esteio)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from lotacao.audit.models import AuditEvent
from lotacao.core.sample_ids import sample_cpf
from lotacao.enforcement.models import InfractionNotice, NoticeService
from lotacao.enforcement.notices.deadlines import OVERDUE_KIND
from lotacao.enforcement.notices.notification import record_notification
from lotacao.registry.models import Person
from lotacao.workqueue.models import WorkItem
from lotacao.workqueue.services import refresh
from tests.enforcement.conftest import at, make_jurisdiction

pytestmark = pytest.mark.django_db
TODAY = dt.date(2025, 7, 1)


def _notice(j: Any, day: str = "2025-05-05", **over: Any) -> InfractionNotice:
    data: dict[str, Any] = {
        "jurisdiction": j,
        "number": f"AI-T-{j.code}-{InfractionNotice.unscoped.count() + 1}",
        "drawn_up_at": at(day),
        "infraction_code": "teste",
        "offender_kind": "permit_holder",
    }
    data.update(over)
    return InfractionNotice.objects.create(**data)


def _holder(world: Any, code: str) -> Any:
    holder = world.objects[code]["registry.holder"]
    Person.unscoped.filter(pk=holder.person_id).update(street="Rua do Titular", number="10", city="Cidade")
    holder.person.refresh_from_db()
    return holder


def _unchanged(notice: InfractionNotice, audits: int) -> None:
    notice.refresh_from_db()
    assert notice.status == InfractionNotice.Status.DRAWN_UP and notice.served_on is None
    assert not NoticeService.unscoped.filter(notice=notice).exists()
    assert AuditEvent.objects.count() == audits


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
