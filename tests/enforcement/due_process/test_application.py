"""The body's own decision on a notice where the law gives it without a filing (Cabo, Lei
2019/2002, art. 29: the Council applies the penalty): the screen, who may use it, and its checks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.accounts.models import StaffMembership, User
from lotacao.enforcement.due_process import application, judging
from lotacao.enforcement.models import Decision
from tests.clock import today
from tests.enforcement.conftest import make_jurisdiction
from tests.enforcement.due_process.process_helpers import _members, _notice

pytestmark = pytest.mark.django_db


def _staff(j: Any, role: str) -> User:
    user = User.objects.create_user(f"{role}.{j.code}", password="senha-de-teste-123")
    StaffMembership.objects.create(user=user, jurisdiction=j, role=role)
    return user


def _open_council(j: Any) -> Any:
    council = judging.body_for(j.code, "council", today())
    members = _members(council, ["Presidente", "Membro 1", "Membro 2"], today() - dt.timedelta(days=30))
    session = judging.schedule_session(actor=None, body=council, held_on=today(), reason="Convocação")
    judging.open_session(actor=None, session=session, present=members, reason="Abertura")
    return session


def test_the_council_applies_the_penalty_on_its_screen(world: Any, client: Any) -> None:
    j = make_jurisdiction("cabo")
    notice = _notice(
        j, served=today() - dt.timedelta(days=3), day=(today() - dt.timedelta(days=5)).isoformat()
    )
    session = _open_council(j)
    url = f"/fiscalizacao/autos/{notice.pk}/aplicacao/"
    client.force_login(_staff(j, "atendente"))
    page = client.get(url).content.decode()
    assert "Aplicação da penalidade pelo Conselho ainda não registrada" in page
    assert "application-form" not in page
    assert client.post(url, {}).status_code == 403  # the body decides, not the counter
    client.force_login(_staff(j, "comissao"))
    notice_page = client.get(f"/fiscalizacao/autos/{notice.pk}/").content.decode()
    assert "Registrar a decisão do órgão" in notice_page
    body = {
        "outcome": "upheld",
        "session": session.pk,
        "reasons": "Infração comprovada.",
        "decided_on": today().isoformat(),
    }
    response = client.post(url, body)
    assert response.status_code == 302, response.content.decode()[:2000]
    decision = Decision.unscoped.get(notice=notice)
    assert decision.instance == "application" and decision.body is not None and decision.body.key == "council"
    assert not decision.final and decision.reasons.startswith("Penalidade aplicada como calculada")
    assert "Não há aplicação de penalidade pelo órgão pendente" in client.get(url).content.decode()
    shown = client.get(decision.get_absolute_url()).content.decode()
    assert "Penalidade aplicada como calculada" in shown and "Penalidade mantida" not in shown


def test_the_application_needs_the_notice_served_and_a_session(world: Any) -> None:
    j = make_jurisdiction("cabo")
    unserved = _notice(j, served=None, day=(today() - dt.timedelta(days=5)).isoformat())
    with pytest.raises(ValidationError, match="ainda não foi notificado"):
        application.apply_penalty(
            actor=None, notice=unserved, outcome="upheld", reasons="x", decided_on=today()
        )
    served = _notice(
        j, served=today() - dt.timedelta(days=1), day=(today() - dt.timedelta(days=5)).isoformat()
    )
    with pytest.raises(ValidationError, match="decide em sessão"):
        application.apply_penalty(
            actor=None, notice=served, outcome="upheld", reasons="x", decided_on=today()
        )


def test_no_application_where_the_law_gives_none(world: Any) -> None:
    notice = _notice(
        world.a, served=today() - dt.timedelta(days=1), day=(today() - dt.timedelta(days=5)).isoformat()
    )
    assert application.awaiting(notice, today()) is None  # Recife: a defense to the CDTC
    with pytest.raises(ValidationError, match="Não há aplicação de penalidade pendente"):
        application.apply_penalty(
            actor=None, notice=notice, outcome="upheld", reasons="x", decided_on=today()
        )
