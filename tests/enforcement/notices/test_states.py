"""The infraction notice's state table (notices/states.py): every (status, action) pair, walked
through the one transition function; the notice page offers what the table and the role allow."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.accounts.access import access_for
from lotacao.audit.models import AuditEvent
from lotacao.enforcement.models import InfractionNotice
from lotacao.enforcement.notices import states

pytestmark = pytest.mark.django_db

SEQ = itertools.count(1)
PAIRS = [(status, action) for status in InfractionNotice.Status.values for action in states.ACTIONS]


def _notice(world: Any, status: str) -> InfractionNotice:
    objects = world.objects["recife"]
    return InfractionNotice.objects.create(
        jurisdiction=world.a,
        number=f"AI-E-{next(SEQ):04d}",
        drawn_up_at=timezone.now(),
        infraction_code="G2-a",
        offender_kind="permit_holder",
        holder=objects["registry.holder"],
        plate=objects["registry.vehicle"].plate,
        status=status,
    )


def test_every_status_has_words_and_every_action_a_known_source_and_target() -> None:
    assert set(states.STATUS_WORDS) == set(InfractionNotice.Status.values)
    for action in states.ACTIONS:
        assert set(action.sources) <= set(InfractionNotice.Status.values), action.name
        assert action.target is None or action.target in InfractionNotice.Status.values, action.name
        assert action.target is None or action.audit.startswith("enforcement."), action.name
    assert states.INITIAL == InfractionNotice.Status.DRAWN_UP


@pytest.mark.parametrize(("status", "action"), PAIRS, ids=[f"{s}-{a.name}" for s, a in PAIRS])
def test_each_status_and_action(world: Any, status: str, action: states.Action) -> None:
    notice = _notice(world, status)
    audits = AuditEvent.objects.count()
    if status in action.sources:
        done = states.transition(notice, action, actor=None, reason="Teste da tabela de estados")
        stored = InfractionNotice.objects.get(pk=notice.pk)
        assert done.status == stored.status == (action.target or status)
        changed = action.target is not None and action.target != status
        assert AuditEvent.objects.count() == audits + (1 if changed else 0)
        if changed:
            assert AuditEvent.objects.order_by("-id").first().action == action.audit  # type: ignore[union-attr]
        return
    with pytest.raises(ValidationError) as refused:
        states.transition(notice, action, actor=None, reason="Teste", citation="art. 99")
    message = refused.value.messages[0]
    assert message == (
        f"O auto {notice.number} está {states.STATUS_WORDS[status]}: {action.refusal} (art. 99)."
    )
    assert status not in message  # the status in words, never its code
    assert InfractionNotice.objects.get(pk=notice.pk).status == status
    assert AuditEvent.objects.count() == audits


def test_a_notice_is_served_once(world: Any) -> None:
    notice = _notice(world, InfractionNotice.Status.NOTIFIED)
    notice.served_on = timezone.localdate()
    with pytest.raises(ValidationError, match="já foi notificado em"):
        states.transition(notice, states.NOTIFY, actor=None, reason="Teste")


@pytest.mark.parametrize(
    ("user", "status", "offered"),
    [
        ("atendente.recife", "drawn_up", {"notify", "apply_measure"}),
        ("gestor.recife", "drawn_up", {"notify", "archive", "apply_measure"}),
        ("gestor.recife", "notified", {"archive", "apply_measure"}),
        ("gestor.recife", "decided_final", {"apply_measure"}),
        ("gestor.recife", "archived", set()),
        ("fiscal.recife", "drawn_up", {"apply_measure"}),
        ("comissao.recife", "drawn_up", set()),
        ("holder0.recife", "drawn_up", set()),
        ("gestor.esteio", "drawn_up", set()),
    ],
)
def test_the_notice_page_offers_what_the_table_and_the_role_allow(
    world: Any, client: Any, user: str, status: str, offered: set[str]
) -> None:
    notice = _notice(world, status)
    if status == "notified":
        InfractionNotice.objects.filter(pk=notice.pk).update(served_on=timezone.localdate())
        notice.refresh_from_db()
    client.force_login(world.users[user])
    access = access_for(world.users[user])  # the same access the page computes
    assert {a.name for a in states.offered(notice, access)} == offered
    page = client.get(f"/fiscalizacao/autos/{notice.pk}/")
    if page.status_code == 404:  # another agency, or not the holder's own notice
        assert not offered
        return
    html = page.content.decode()
    assert ("Registrar notificação" in html) == ("notify" in offered)
    assert ("arquivar o auto" in html) == ("archive" in offered)
