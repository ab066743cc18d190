"""The work queue puts what is overdue first and says so in words (issue 24, defect 9): an overdue
item was not highlighted and, on SQLite (NULL first in ascending order), sorted after the items
with no deadline."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from lotacao.accounts.models import StaffMembership, User
from lotacao.core.models import Jurisdiction
from lotacao.workqueue.models import WorkItem
from tests.clock import days_from_today, today


@pytest.fixture
def clerk(db: Any) -> Client:
    place = Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU", state="PE")
    user = User.objects.create_user("atendente.recife", password="senha-de-teste-123")
    StaffMembership.objects.create(user=user, jurisdiction=place, role="atendente")
    for key, due in (("sem", None), ("futuro", 5), ("vencido", -3), ("hoje", 0), ("ontem", -1)):
        WorkItem.objects.create(
            jurisdiction=place,
            kind="document.review",
            key=key,
            title=f"Item {key}",
            due_on=None if due is None else days_from_today(due),
            first_seen=today(),
            last_seen=today(),
        )
    client = Client()
    client.force_login(user)
    return client


def _rows(html: str) -> list[str]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr.*?</tr>", body, re.S)


def test_overdue_first_then_by_deadline_and_no_deadline_last(clerk: Client) -> None:
    rows = _rows(clerk.get("/fila/").content.decode())
    order = [re.search(r"Item (\w+)", row).group(1) for row in rows]  # type: ignore[union-attr]
    assert order == ["vencido", "ontem", "hoje", "futuro", "sem"]


def test_an_overdue_item_is_highlighted_in_words_not_only_colour(clerk: Client) -> None:
    rows = {re.search(r"Item (\w+)", r).group(1): r for r in _rows(clerk.get("/fila/").content.decode())}  # type: ignore[union-attr]
    assert 'class="overdue"' in rows["vencido"]
    assert "(vencido há 3 dias)" in rows["vencido"]
    assert "(vencido há 1 dia)" in rows["ontem"]
    assert "(vence hoje)" in rows["hoje"]
    assert "vencido" not in rows["futuro"] and 'class="overdue"' not in rows["futuro"]
    assert "Sem prazo" in rows["sem"]
