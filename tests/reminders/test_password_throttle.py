"""The password reset is throttled per address typed and per account, in Portuguese, and never
tells whether an address has an account."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from lotacao.accounts.models import User
from lotacao.outbox.models import Message
from lotacao.web.password import ResetRequestForm

pytestmark = pytest.mark.django_db

LIMIT_TEXT = "Já recebemos vários pedidos para este e-mail"


@pytest.fixture(autouse=True)
def fresh_counters(settings: Any) -> Any:
    settings.LOTACAO_PASSWORD_RESET_LIMIT = 2
    settings.LOTACAO_PASSWORD_RESET_WINDOW_MINUTES = 30
    cache.clear()
    yield
    cache.clear()


def _ask(address: str) -> Any:
    return Client().post("/conta/recuperar-senha/", {"email": address})


@pytest.fixture
def sent(monkeypatch: Any) -> list[str]:
    """The reset e-mails the form hands to the outbox (two within a second share one token, so the
    outbox's dedup would hide the second: count what the form sends)."""
    calls: list[str] = []
    original = ResetRequestForm.send_mail

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        calls.append(args[4] if len(args) > 4 else kwargs["to_email"])
        original(self, *args, **kwargs)

    monkeypatch.setattr(ResetRequestForm, "send_mail", counting)
    return calls


def test_per_address_the_same_answer_with_or_without_an_account(sent: list[str]) -> None:
    User.objects.create_user("maria", "maria@example.com", "senha-antiga-2026")
    for address in ("maria@example.com", "ninguem@example.com"):
        for _ in range(2):
            answer = _ask(address)
            assert answer.status_code == 302 and answer["Location"] == "/conta/recuperar-senha/enviado/"
        refused = _ask(address)
        assert refused.status_code == 200
        page = refused.content.decode()
        assert LIMIT_TEXT in page and "espere 30 minutos" in page
    assert sent == ["maria@example.com", "maria@example.com"]
    assert Message.unscoped.filter(address="maria@example.com").exists()


def test_per_account_silently_across_spellings_of_the_address(sent: list[str]) -> None:
    User.objects.create_user("joao", "Joao@Example.com", "senha-antiga-2026")
    answers = [_ask(spelling) for spelling in ("joao@example.com", "JOAO@example.com", "Joao@Example.com")]
    assert all(a.status_code == 302 for a in answers)  # each spelling is under its own limit
    assert len(sent) == 2  # the account's limit held, and the third answer looked the same
