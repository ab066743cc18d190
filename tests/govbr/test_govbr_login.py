"""gov.br Login Único over OpenID Connect against a real provider running locally (oidc-provider):
the journey from the button to the linked account, and every refusal."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlparse

import pytest
import requests
from django.test import Client

from lotacao.core.sample_ids import sample_cpf
from lotacao.govbr.models import GovbrLink

pytestmark = pytest.mark.django_db


def _to_provider(client: Client, start: str = "/conta/govbr/entrar/") -> str:
    response = client.get(start)
    assert response.status_code == 302, response.content
    url = response["Location"]
    query = parse_qs(urlparse(url).query)
    assert query["code_challenge_method"] == ["S256"] and query["code_challenge"][0]
    assert query["state"][0] and query["nonce"][0] and query["response_type"] == ["code"]
    return str(url)


def _sign_in_at_provider(url: str, cpf: str, level: str = "prata") -> str:
    """The person at gov.br: the login page, their CPF (an account of that trust level); returns
    the address back to us."""
    browser = requests.Session()
    response = browser.get(url, allow_redirects=False, timeout=10)
    for _ in range(10):
        location = urljoin(url, response.headers["location"])
        if location.startswith("http://testserver/"):
            return location
        url = location
        response = browser.get(url, allow_redirects=False, timeout=10)
        if response.status_code == 200:
            action = re.search(r'action="([^"]+)"', response.text)
            assert action, response.text
            response = browser.post(
                urljoin(url, action.group(1)),
                data={"cpf": cpf, "nivel": level},
                allow_redirects=False,
                timeout=10,
            )
    raise AssertionError("o provedor não devolveu para o sistema")


def _back(client: Client, location: str) -> Any:
    parsed = urlparse(location)
    return client.get(f"{parsed.path}?{parsed.query}")


def test_the_button_leads_through_gov_br_into_the_holders_account(world: Any, govbr_settings: Any) -> None:
    client = Client()
    page = client.get("/conta/entrar/")
    assert "Entrar com gov.br" in page.content.decode()
    person = world.objects["recife"]["registry.person"]
    response = _back(client, _sign_in_at_provider(_to_provider(client), person.cpf))
    assert response.status_code == 302 and response["Location"] == "/"
    holder_user = world.users["holder0.recife"]
    assert int(client.session["_auth_user_id"]) == holder_user.pk
    link = GovbrLink.objects.get(user=holder_user)
    assert link.cpf == person.cpf and link.level == "Prata" and link.amr == ["passwd"]
    assert link.acr.endswith("/prata") and link.last_login_at is not None
    home = client.get("/", follow=True)  # a holder opens on their portal
    assert home.status_code == 200 and home.redirect_chain[-1][0] == "/portal/"


def test_an_unknown_cpf_is_refused_and_signs_no_one_in(world: Any, govbr_settings: Any) -> None:
    client = Client()
    response = _back(client, _sign_in_at_provider(_to_provider(client), sample_cpf(987_654_321)))
    assert response.status_code == 403
    assert "Não há conta no sistema para este CPF" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert not GovbrLink.objects.exists()


def test_a_wrong_state_is_refused(world: Any, govbr_settings: Any) -> None:
    client = Client()
    person = world.objects["recife"]["registry.person"]
    location = _sign_in_at_provider(_to_provider(client), person.cpf)
    parsed = urlparse(location)
    query = {k: v[0] for k, v in parse_qs(parsed.query).items()}
    query["state"] = "estado-forjado"
    response = client.get(f"{parsed.path}?{urlencode(query)}")
    assert response.status_code == 400
    assert "não corresponde a uma entrada iniciada neste navegador" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_pkce_verifier_that_does_not_match_is_refused_by_the_provider(
    world: Any, govbr_settings: Any
) -> None:
    client = Client()
    person = world.objects["recife"]["registry.person"]
    url = _to_provider(client)
    session = client.session
    [key] = [k for k in session.keys() if k.startswith("_state_govbr_")]  # noqa: SIM118 (not iterable)
    data = session[key]
    data["data"]["code_verifier"] = "v" * 64  # not the verifier of the challenge sent
    session[key] = data
    session.save()
    response = _back(client, _sign_in_at_provider(url, person.cpf))
    assert response.status_code == 400
    assert "O gov.br não confirmou a entrada" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_staff_link_their_account_signed_in_and_are_never_found_by_cpf_alone(
    world: Any, govbr_settings: Any
) -> None:
    staff = world.users["atendente.recife"]
    cpf = sample_cpf(123_456_789)
    stranger = Client()
    refused = _back(stranger, _sign_in_at_provider(_to_provider(stranger), cpf))
    assert refused.status_code == 403  # a staff member's CPF alone finds no account
    client = Client()
    client.force_login(staff)
    response = _back(client, _sign_in_at_provider(_to_provider(client, "/conta/govbr/vincular/"), cpf))
    assert response.status_code == 302 and response["Location"] == "/lembretes/preferencias/"
    assert GovbrLink.objects.get(cpf=cpf).user == staff
    again = Client()
    response = _back(again, _sign_in_at_provider(_to_provider(again), cpf))
    assert response.status_code == 302
    assert int(again.session["_auth_user_id"]) == staff.pk


def test_off_by_default_no_button_and_every_route_refuses(world: Any, settings: Any) -> None:
    settings.LOTACAO_GOVBR_ISSUER = settings.LOTACAO_GOVBR_DISCOVERY_URL = ""
    settings.LOTACAO_GOVBR_CLIENT_ID = settings.LOTACAO_GOVBR_CLIENT_SECRET = ""
    client = Client()
    assert (
        "gov.br"
        not in client.get("/conta/entrar/").content.decode().split("<main", 1)[-1].split("</main>")[0]
    )
    for path in ("/conta/govbr/entrar/", "/conta/govbr/retorno/?code=x&state=y"):
        assert client.get(path).status_code == 404
    client.force_login(world.users["atendente.recife"])
    assert client.get("/conta/govbr/vincular/").status_code == 404


def test_a_sign_in_and_a_link_are_audited_with_the_trust_level(world: Any, govbr_settings: Any) -> None:
    from lotacao.audit.models import AuditEvent

    client = Client()
    person = world.objects["recife"]["registry.person"]
    _back(client, _sign_in_at_provider(_to_provider(client), person.cpf, "ouro"))
    link = GovbrLink.objects.get(cpf=person.cpf)
    assert link.level == "Ouro" and link.acr == "https://acesso.gov.br/confiabilidades/ouro"
    events = AuditEvent.unscoped.filter(object_type="govbr.govbrlink", object_id=str(link.pk)).order_by("pk")
    assert [e.action for e in events] == ["govbr.linked", "govbr.signed_in"]
    signed_in = events.last()
    assert signed_in is not None and signed_in.actor_id == link.user_id
    assert signed_in.jurisdiction_id == "recife"  # the holder's agency reads it in its log
    assert signed_in.after == {"level": "Ouro", "acr": link.acr, "amr": ["passwd"]}
    again = Client()
    _back(again, _sign_in_at_provider(_to_provider(again), person.cpf, "prata"))
    last = AuditEvent.unscoped.filter(action="govbr.signed_in", object_id=str(link.pk)).order_by("pk").last()
    assert last is not None and last.before == {"level": "Ouro", "acr": link.acr}
    assert last.after is not None and last.after["level"] == "Prata"


def test_below_the_minimum_trust_level_the_sign_in_is_refused_in_portuguese(
    world: Any, govbr_settings: Any
) -> None:
    from lotacao.audit.models import AuditEvent

    govbr_settings.LOTACAO_GOVBR_MIN_LEVEL = "prata"
    person = world.objects["recife"]["registry.person"]
    client = Client()
    response = _back(client, _sign_in_at_provider(_to_provider(client), person.cpf, "bronze"))
    assert response.status_code == 403
    page = response.content.decode()
    assert "Sua conta gov.br é de nível Bronze" in page and "nível Prata ou Ouro" in page
    assert "_auth_user_id" not in client.session
    assert not GovbrLink.objects.exists() and not AuditEvent.unscoped.filter(action__startswith="govbr.")
    staff = Client()  # linking a signed-in account is held to the same minimum
    staff.force_login(world.users["atendente.recife"])
    refused = _back(
        staff, _sign_in_at_provider(_to_provider(staff, "/conta/govbr/vincular/"), sample_cpf(5), "bronze")
    )
    assert refused.status_code == 403 and "nível Prata ou Ouro" in refused.content.decode()
    assert not GovbrLink.objects.exists()
    ok = Client()
    response = _back(ok, _sign_in_at_provider(_to_provider(ok), person.cpf, "prata"))
    assert response.status_code == 302 and "_auth_user_id" in ok.session
    assert GovbrLink.objects.get(cpf=person.cpf).level == "Prata"


def test_the_minimum_level_setting_must_name_a_level(settings: Any) -> None:
    from lotacao.govbr import services

    settings.LOTACAO_GOVBR_MIN_LEVEL = "Ouro "
    assert services.minimum_level() == "Ouro"
    settings.LOTACAO_GOVBR_MIN_LEVEL = "platina"
    with pytest.raises(ValueError, match="LOTACAO_GOVBR_MIN_LEVEL"):
        services.minimum_level()
