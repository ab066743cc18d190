"""Password reset end to end through the real SMTP server: ask, read the e-mail, follow, sign in."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from lotacao.accounts.models import User
from lotacao.outbox.models import Message

from .conftest import SMTPServer

pytestmark = pytest.mark.django_db(transaction=True)


def _link(smtp_server: SMTPServer) -> str:
    [received] = smtp_server.inbox.messages
    text = received.get_body(("plain",)).get_content()
    assert received["Subject"].strip() == "Nova senha do Lotação"
    assert "Olá, Maria da Silva." in text and "em até 2 horas" in text
    found = re.search(r"http://testserver(/conta/recuperar-senha/nova/\S+/)", text)
    assert found, text
    return found.group(1)


def test_forgot_password_by_e_mail_then_sign_in_with_the_new_one(smtp_server: SMTPServer) -> None:
    User.objects.create_user(
        "maria", "maria@example.com", "senha-antiga-2026", first_name="Maria", last_name="da Silva"
    )
    client = Client()
    login = client.get("/conta/entrar/").content.decode()
    assert 'href="/conta/recuperar-senha/"' in login and "Esqueci minha senha" in login
    answer = client.post("/conta/recuperar-senha/", {"email": "maria@example.com"})
    assert answer.status_code == 302 and answer["Location"] == "/conta/recuperar-senha/enviado/"
    call_command("send_outbox")
    link = _link(smtp_server)
    form = client.get(link, follow=True)
    assert "Nova senha" in form.content.decode()
    set_url = form.redirect_chain[-1][0]
    refused = client.post(set_url, {"new_password1": "Nova-senha-forte-9", "new_password2": "Outra-coisa-9"})
    assert "As duas senhas não são iguais." in refused.content.decode()
    done = client.post(
        set_url, {"new_password1": "Nova-senha-forte-9", "new_password2": "Nova-senha-forte-9"}
    )
    assert done.status_code == 302 and done["Location"] == "/conta/recuperar-senha/alterada/"
    signed = Client().post("/conta/entrar/", {"username": "maria", "password": "Nova-senha-forte-9"})
    assert signed.status_code == 302
    # The link works once: used, it says so in Portuguese.
    again = Client().get(link, follow=True).content.decode()
    assert "Endereço vencido" in again


def test_no_account_enumeration_and_no_e_mail_for_an_unknown_address(smtp_server: SMTPServer) -> None:
    User.objects.create_user("maria", "maria@example.com", "senha-antiga-2026")
    known = Client().post("/conta/recuperar-senha/", {"email": "maria@example.com"})
    unknown = Client().post("/conta/recuperar-senha/", {"email": "ninguem@example.com"})
    assert known.status_code == unknown.status_code == 302 and known["Location"] == unknown["Location"]
    call_command("send_outbox")
    assert [m["To"] for m in smtp_server.inbox.messages] == ["maria@example.com"]
    assert Message.unscoped.count() == 1


def test_a_bad_address_is_a_portuguese_error(smtp_server: SMTPServer) -> None:
    page = Client().post("/conta/recuperar-senha/", {"email": "não é e-mail"}).content.decode()
    assert "Informe um e-mail válido." in page and Message.unscoped.count() == 0


def test_the_link_expires(smtp_server: SMTPServer, settings: Any) -> None:
    User.objects.create_user(
        "maria", "maria@example.com", "senha-antiga-2026", first_name="Maria", last_name="da Silva"
    )
    Client().post("/conta/recuperar-senha/", {"email": "maria@example.com"})
    call_command("send_outbox")
    link = _link(smtp_server)
    settings.PASSWORD_RESET_TIMEOUT = -1  # the token's age is now past the limit
    page = Client().get(link, follow=True).content.decode()
    assert "Endereço vencido" in page
