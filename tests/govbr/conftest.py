"""A real OpenID Connect provider (npm's oidc-provider, `provider.mjs`) on a free local port.

Its packages come from the committed package-lock.json (`npm ci`, run by .ci/run and, if missing,
here once under a file lock); the settings point lotacao.govbr at it.
"""

from __future__ import annotations

import fcntl
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
CLIENT_ID, CLIENT_SECRET = "lotacao-teste", "segredo-do-cliente-de-teste"
REDIRECT_URI = "http://testserver/conta/govbr/retorno/"


def _install() -> None:
    with open(HERE / ".npm-install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (HERE / "node_modules" / "oidc-provider").is_dir():
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True, timeout=600)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def provider_issuer() -> Iterator[str]:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node e npm são necessários para o provedor OpenID local")
    _install()
    port = _free_port()
    process = subprocess.Popen(
        ["node", "provider.mjs", str(port), CLIENT_ID, CLIENT_SECRET, REDIRECT_URI],
        cwd=HERE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.strip() == "pronto", f"o provedor OpenID não iniciou: {line!r}"
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def govbr_settings(settings: Any, provider_issuer: str) -> Any:
    settings.LOTACAO_GOVBR_ISSUER = provider_issuer
    settings.LOTACAO_GOVBR_DISCOVERY_URL = ""
    settings.LOTACAO_GOVBR_CLIENT_ID = CLIENT_ID
    settings.LOTACAO_GOVBR_CLIENT_SECRET = CLIENT_SECRET
    settings.LOTACAO_GOVBR_SCOPES = "openid email profile"
    return settings
