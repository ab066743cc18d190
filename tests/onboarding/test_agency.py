"""An agency comes in (issue 20, item 2): `manage.py setup_agency` and the operator's screen."""

from __future__ import annotations

import json
import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from lotacao.accounts.models import HolderAccount, StaffMembership, User
from lotacao.audit.models import AuditEvent
from lotacao.core.models import Jurisdiction
from tests.language.crawl import findings, parse_html

pytestmark = pytest.mark.django_db

RECIFE = [
    "--jurisdiction",
    "recife",
    "--manager",
    "ana.gestora",
    "--email",
    "ana@recife.example.org",
    "--manager-name",
    "Ana Maria Gestora",
    "--phone",
    "(81) 3355-0000",
    "--ombudsman-email",
    "ouvidoria@recife.example.org",
]


def _run(*args: str) -> dict[str, Any]:
    out = StringIO()
    call_command("setup_agency", *args, "--json", stdout=out)
    return dict(json.loads(out.getvalue()))


def _sign_in(client: Client, username: str, password: str) -> Any:
    return client.post("/conta/entrar/", {"username": username, "password": password})


def _state() -> tuple[Any, ...]:
    return (
        list(Jurisdiction.unscoped.values()),
        list(User.objects.values()),
        list(StaffMembership.objects.values("user_id", "jurisdiction_id", "role", "active")),
        AuditEvent.objects.count(),
    )


def test_the_command_creates_recife_with_its_pack_and_a_manager_who_must_change_the_password() -> None:
    created = _run(*RECIFE)
    assert created["alterou"] and created["jurisdicao"]["criada"] and created["gestor"]["criado"]
    recife = Jurisdiction.unscoped.get(pk="recife")
    # the pack's own values where none were given; the channels as given
    assert (recife.name, recife.state, recife.timezone, recife.official_name) == (
        "Recife",
        "PE",
        "America/Recife",
        "CTTU",
    )
    assert recife.phone == "(81) 3355-0000" and recife.ombudsman_email == "ouvidoria@recife.example.org"
    manager = User.objects.get(username="ana.gestora")
    assert (manager.email, manager.first_name, manager.last_name) == (
        "ana@recife.example.org",
        "Ana",
        "Maria Gestora",
    )
    assert manager.must_change_password and not manager.is_superuser
    assert StaffMembership.objects.filter(
        user=manager, jurisdiction=recife, role="gestor", active=True
    ).exists()
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"agency.created", "agency.manager_created", "agency.manager_granted"} <= actions
    assert not AuditEvent.objects.filter(action="agency.manager_created", after__has_key="password").exists()

    # the manager signs in with the one-time password and is sent to change it first
    password = created["gestor"]["senha_provisoria"]
    client = Client()
    response = _sign_in(client, "ana.gestora", password)
    assert response.status_code == 302
    assert client.get("/").url == "/conta/senha/"
    assert client.get("/cadastro/veiculos/").url == "/conta/senha/"
    page = client.get("/conta/senha/")
    assert "senha provisória" in page.content.decode()
    assert findings(parse_html(page.content.decode())[0]) == []
    refused = client.post(
        "/conta/senha/",
        {"old_password": password, "new_password1": "curta", "new_password2": "curta"},
    )
    assert refused.status_code == 200 and "muito curta" in refused.content.decode()
    changed = client.post(
        "/conta/senha/",
        {"old_password": password, "new_password1": "Trilho-azul-4821", "new_password2": "Trilho-azul-4821"},
    )
    assert changed.status_code == 302
    manager.refresh_from_db()
    assert not manager.must_change_password
    home = client.get("/")
    assert home.status_code == 200 and "Recife" in home.content.decode()
    assert AuditEvent.objects.filter(action="account.password_changed", object_id=str(manager.pk)).exists()


def test_the_text_output_prints_the_password_once_and_a_second_run_changes_nothing() -> None:
    out = StringIO()
    call_command("setup_agency", *RECIFE, stdout=out)
    text = out.getvalue()
    assert "Órgão gestor implantado: Recife (PE)" in text and "Senha provisória de “ana.gestora”" in text
    before = _state()
    again = StringIO()
    call_command("setup_agency", *RECIFE, stdout=again)
    assert "nada alterado" in again.getvalue() and "Senha provisória" not in again.getvalue()
    assert _state() == before
    assert _run(*RECIFE) == {**_run(*RECIFE), "alterou": False}


def test_a_new_value_is_changed_and_the_password_is_reset_only_when_asked() -> None:
    first = _run(*RECIFE)
    manager = User.objects.get(username="ana.gestora")
    changed = _run(*RECIFE, "--hours", "dias úteis, das 7h às 13h")
    assert changed["jurisdicao"]["alteracoes"] == ["horário de atendimento"]
    assert changed["gestor"]["senha_provisoria"] is None
    assert AuditEvent.objects.filter(action="agency.updated").count() == 1
    reset = _run(*RECIFE, "--reset-password")
    assert reset["gestor"]["senha_provisoria"] not in (None, first["gestor"]["senha_provisoria"])
    manager.refresh_from_db()
    assert manager.must_change_password and manager.check_password(reset["gestor"]["senha_provisoria"])


def test_an_unknown_pack_is_refused_with_the_available_ones_and_nothing_is_written() -> None:
    before = _state()
    with pytest.raises(CommandError) as info:
        _run("--jurisdiction", "sao_paulo", "--manager", "ana", "--email", "ana@example.org")
    message = str(info.value)
    assert "Não há lei (pacote) “sao_paulo” nesta instalação" in message
    for listed in (
        "cabo (Cabo de Santo Agostinho, PE)",
        "esteio (Esteio, RS)",
        "marica (Maricá, RJ)",
        "pernambuco (Pernambuco, PE)",
        "recife (Recife, PE)",
    ):
        assert listed in message
    assert _state() == before


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--email", "ana-arroba-recife"], "E-mail do gestor inválido: “ana-arroba-recife”."),
        (["--manager", "ana gestora"], "Nome de usuário inválido: “ana gestora”."),
        (["--state", "XX"], "UF inválida: “XX”."),
        (["--timezone", "Lua/Crateras"], "Fuso horário: Fuso horário desconhecido: Lua/Crateras."),
        (["--agency-email", "atendimento"], "E-mail de atendimento:"),
    ],
)
def test_bad_input_is_refused_in_portuguese_and_nothing_is_written(extra: list[str], message: str) -> None:
    before = _state()
    with pytest.raises(CommandError) as info:
        _run(*RECIFE, *extra)
    assert message in str(info.value)
    assert _state() == before


def test_a_username_of_another_agency_a_holder_or_the_operator_is_refused(world: Any) -> None:
    cases = {
        "gestor.esteio": "já trabalha em outro órgão gestor (Esteio)",
        world.users["holder0.esteio"].username: "é a conta de um permissionário",
    }
    User.objects.create_superuser("operador", password="senha-do-operador-1")
    cases["operador"] = "é um operador da instalação"
    for username, message in cases.items():
        before = _state()
        with pytest.raises(CommandError, match=re.escape(message)):
            _run("--jurisdiction", "cabo", "--manager", username, "--email", "x@cabo.example.org")
        assert _state() == before
    assert HolderAccount.objects.exists()


def test_a_clerk_of_the_same_agency_is_made_its_manager(world: Any) -> None:
    clerk = world.users["atendente.recife"]
    result = _run("--jurisdiction", "recife", "--manager", clerk.username, "--email", "c@recife.example.org")
    assert not result["gestor"]["criado"] and "papel de gestor" in result["gestor"]["alteracoes"]
    assert result["gestor"]["senha_provisoria"] is None
    assert StaffMembership.objects.filter(user=clerk, jurisdiction_id="recife", role="gestor").exists()


def _operator() -> Client:
    operator = User.objects.create_superuser("operador", password="senha-do-operador-1")
    client = Client()
    client.force_login(operator)
    return client


def test_the_operator_sets_up_an_agency_on_the_screen_found_in_the_menu() -> None:
    client = _operator()
    home = client.get("/").content.decode()
    assert 'href="/implantacao/orgao/"' in home and "Implantar órgão gestor" in home
    page = client.get("/implantacao/orgao/").content.decode()
    assert "Recife (PE) — Lei Municipal 16.856/2003" in page and "Nenhum órgão implantado ainda." in page
    form = {
        "jurisdiction": "marica",
        "manager": "gestor.marica2",
        "email": "g@marica.example.org",
        "manager_name": "Beatriz Lima",
        "phone": "(21) 2637-0000",
    }
    done = client.post("/implantacao/orgao/", form)
    text = done.content.decode()
    assert done.status_code == 200 and "Órgão gestor implantado" in text and "mostrada só agora" in text
    marica = Jurisdiction.unscoped.get(pk="marica")
    assert (marica.state, marica.phone) == ("RJ", "(21) 2637-0000")
    manager = User.objects.get(username="gestor.marica2")
    assert manager.must_change_password
    event = AuditEvent.objects.get(action="agency.created")
    assert event.actor_label == "operador"
    again = client.post("/implantacao/orgao/", form).content.decode()
    assert "Nada a alterar" in again and "mostrada só agora" not in again
    listed = client.get("/implantacao/orgao/").content.decode()
    assert "Beatriz Lima" in listed and "Maricá (RJ)" in listed, listed[listed.find("implantados") :][:1500]
    # what the operator reads passes the language crawl's checker
    for html in (page, text, again, listed):
        assert findings(parse_html(html)[0]) == []


def test_the_screen_refuses_bad_input_with_the_message_and_writes_nothing() -> None:
    client = _operator()
    before = _state()
    response = client.post(
        "/implantacao/orgao/",
        {"jurisdiction": "recife", "manager": "ana", "email": "sem-arroba", "manager_name": "Ana Souza"},
    )
    assert response.status_code == 422
    assert "E-mail do gestor inválido: “sem-arroba”." in response.content.decode()
    unknown = client.post(
        "/implantacao/orgao/",
        {"jurisdiction": "sao_paulo", "manager": "a", "email": "a@b.org", "manager_name": "A B"},
    )
    assert unknown.status_code == 422 and "Escolha uma das leis da lista." in unknown.content.decode()
    assert _state() == before


def test_staff_and_the_public_cannot_open_the_operator_screen(world: Any) -> None:
    client = Client()
    assert client.get("/implantacao/orgao/").status_code == 302  # to the login
    client.force_login(world.users["gestor.recife"])
    assert client.get("/implantacao/orgao/").status_code == 403
    assert client.post("/implantacao/orgao/", {"jurisdiction": "cabo"}).status_code == 403
    assert 'href="/implantacao/orgao/"' not in client.get("/").content.decode()
    assert not Jurisdiction.unscoped.filter(pk="cabo").exists()
