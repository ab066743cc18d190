"""The preferences page: holders and staff choose e-mail and SMS per kind of message, and the phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from lotacao.outbox.models import Event, Preference
from lotacao.reminders.models import Contact

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("who", ["holder0.recife", "atendente.recife"])
def test_choose_channels_and_phone(world: Any, who: str) -> None:
    user = world.users[who]
    client = Client()
    client.force_login(user)
    home = client.get("/", follow=True).content.decode()  # a holder opens on the portal
    assert 'href="/lembretes/preferencias/"' in home  # from the account menu
    page = client.get("/lembretes/preferencias/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Preferências de aviso" in text and "Prazos a vencer" in text and "redefinição" not in text
    answer = client.post(
        "/lembretes/preferencias/",
        {
            "phone": "(81) 98765-4321",
            "deadline_email": "on",
            "deadline_sms": "on",
            "charge_sms": "on",
        },
    )
    assert answer.status_code == 302
    assert Contact.objects.get(user=user).phone == "+5581987654321"
    saved = {p.event: (p.email, p.sms) for p in Preference.objects.filter(user=user)}
    assert saved[Event.DEADLINE] == (True, True) and saved[Event.CHARGE] == (False, True)
    assert saved[Event.RENEWAL] == (False, False)
    assert (
        'checked aria-label="Prazos a vencer por SMS"'
        in client.get("/lembretes/preferencias/").content.decode()
    )


def test_bad_phone_or_sms_without_phone_is_a_portuguese_error_and_changes_nothing(world: Any) -> None:
    client = Client()
    user = world.users["holder0.recife"]
    client.force_login(user)
    bad = client.post("/lembretes/preferencias/", {"phone": "1234", "deadline_sms": "on"})
    assert bad.status_code == 400 and "Informe o celular com DDD" in bad.content.decode()
    missing = client.post("/lembretes/preferencias/", {"phone": "", "deadline_sms": "on"})
    assert missing.status_code == 400 and "Para receber SMS, informe o celular." in missing.content.decode()
    assert (
        not Preference.objects.filter(user=user).exists() and not Contact.objects.filter(user=user).exists()
    )


def test_signed_out_goes_to_the_sign_in() -> None:
    answer = Client().get("/lembretes/preferencias/")
    assert answer.status_code == 302 and answer["Location"].startswith("/conta/entrar/")
