from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from lotacao.audit.models import AuditEvent, AuditLogIsAppendOnly
from lotacao.audit.services import history, update_audited


def test_creation_is_audited_with_who_what_and_why(world: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    [event] = history(vehicle)
    assert event.action == "vehicle.created"
    assert event.actor_label == "sistema" and event.reason == "teste"
    assert event.after["plate"] == "ABA1C23" and event.before is None
    assert event.jurisdiction_id == "recife"


def test_update_records_before_and_after(world: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    actor = world.users["atendente.recife"]
    update_audited(actor=actor, instance=vehicle, changes={"seats": 15}, reason="Correção do CRLV")
    event = history(vehicle).first()
    assert event is not None
    assert (event.before, event.after) == ({"seats": 16}, {"seats": 15})
    assert event.actor == actor and event.reason == "Correção do CRLV"


def test_an_update_saves_only_what_changed(world: Any) -> None:
    """A stale copy of the row does not overwrite a field another writer changed meanwhile."""
    from lotacao.registry.models import Vehicle

    vehicle = world.objects["recife"]["registry.vehicle"]
    stale = Vehicle.unscoped.get(pk=vehicle.pk)
    Vehicle.unscoped.filter(pk=vehicle.pk).update(doors=3)
    update_audited(actor=None, instance=stale, changes={"seats": 15}, reason="Correção do CRLV")
    fresh = Vehicle.unscoped.get(pk=vehicle.pk)
    assert (fresh.seats, fresh.doors) == (15, 3)


def test_an_update_needs_a_reason(world: Any) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    with pytest.raises(ValueError):
        update_audited(actor=None, instance=vehicle, changes={"seats": 15}, reason=" ")


def test_the_application_cannot_change_or_delete_the_log(world: Any) -> None:
    event = AuditEvent.objects.filter(reason="teste").first()  # one of the world's own events
    assert event is not None
    event.reason = "outra coisa"
    with pytest.raises(AuditLogIsAppendOnly):
        event.save()
    with pytest.raises(AuditLogIsAppendOnly):
        event.delete()
    with pytest.raises(AuditLogIsAppendOnly):
        AuditEvent.objects.filter(pk=event.pk).update(reason="x")
    with pytest.raises(AuditLogIsAppendOnly):
        AuditEvent.objects.all().delete()
    assert AuditEvent.objects.get(pk=event.pk).reason == "teste"


@pytest.mark.postgres  # the trigger exists only on PostgreSQL
def test_postgresql_refuses_update_and_delete_in_the_database(world: Any) -> None:
    event = AuditEvent.objects.filter(reason="teste").first()  # one of the world's own events
    assert event is not None
    for sql in (
        "UPDATE audit_auditevent SET reason = 'x' WHERE id = %s",
        "DELETE FROM audit_auditevent WHERE id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="auditoria"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [event.pk])
    assert AuditEvent.objects.get(pk=event.pk).reason == "teste"
