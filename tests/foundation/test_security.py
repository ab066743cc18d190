from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


def test_argon2_is_the_hasher_in_every_real_environment() -> None:
    from lotacao.config.settings import base

    assert base.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"


@pytest.mark.parametrize("url", ["/conta/entrar/", "/nao-existe/"])
def test_every_response_has_a_content_security_policy(client: Any, db: Any, url: str) -> None:
    policy = client.get(url)["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy


def _login(client: Any, username: str, password: str, ip: str) -> Any:
    return client.post(
        reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_login_is_throttled_per_user_and_ip(world: Any, client: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = _login(client, "gestor.recife", "errada", "10.0.0.1")
        assert "Usuário ou senha incorretos" in response.content.decode()
    assert _login(client, "gestor.recife", "errada", "10.0.0.1").status_code == 429
    locked = _login(client, "gestor.recife", "senha-de-teste-123", "10.0.0.1")  # even the right password
    assert locked.status_code == 429 and "bloqueado" in locked.content.decode()
    # the same user from another address, and another user from the same address, may sign in
    assert _login(client, "gestor.recife", "senha-de-teste-123", "10.0.0.2").status_code == 302
    client.logout()
    assert _login(client, "atendente.recife", "senha-de-teste-123", "10.0.0.1").status_code == 302


def test_the_session_is_rotated_at_login(world: Any, client: Any) -> None:
    client.get(reverse("accounts:login"))
    session = client.session
    session["marker"] = 1
    session.save()
    before = session.session_key
    assert _login(client, "gestor.recife", "senha-de-teste-123", "10.0.0.3").status_code == 302
    assert client.session.session_key != before


@override_settings(STAFF_IDLE_TIMEOUT=60)
def test_staff_are_signed_out_after_the_idle_timeout(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    assert client.get("/").status_code == 200
    session = client.session
    session["_last_activity"] -= 61
    session.save()
    response = client.get("/")
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    assert client.get("/").status_code == 302


def _run_manage(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        capture_output=True,
        text=True,
        env={**base, **env},
        cwd=ROOT,
        timeout=120,
    )


PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "lotacao.config.settings.production",
    "DJANGO_SECRET_KEY": "k" * 20 + "Zq8#vP2!mW9@xR4$tL7%nB3^cF6&hJ1*dG5(sA0)" + "y" * 10,
    "DJANGO_ALLOWED_HOSTS": "lotacao.exemplo.gov.br",
    "DATABASE_URL": "sqlite:////tmp/lotacao-check.sqlite3",
}


def test_deploy_check_passes_under_production_settings() -> None:
    result = _run_manage(["check", "--deploy", "--fail-level", "WARNING"], PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL"])
def test_production_refuses_to_start_without_its_settings(missing: str) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    result = _run_manage(["check"], env)
    assert result.returncode != 0
    assert "Configuração de produção incompleta" in result.stderr and missing in result.stderr


def test_login_is_throttled_per_address_across_user_names(world: Any, client: Any) -> None:
    limit = settings.LOTACAO_LOGIN_ADDRESS_FAILURE_LIMIT
    assert limit < 25
    answers = [_login(client, f"inventado{n}", "errada", "10.9.9.9").status_code for n in range(25)]
    # each name failed once (never the per-name limit), yet the address is locked after `limit`
    assert answers[: limit - 1] == [200] * (limit - 1) and answers[-1] == 429
    locked = _login(client, "gestor.recife", "senha-de-teste-123", "10.9.9.9")  # a real user, right password
    assert locked.status_code == 429 and "a partir deste endereço" in locked.content.decode()
    # another address is not affected
    assert _login(client, "gestor.recife", "senha-de-teste-123", "10.9.9.10").status_code == 302
