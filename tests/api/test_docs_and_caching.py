"""The API's docs load from our own static files (the CSP allows only 'self'), and pages with
personal data are never stored by a cache (issue 15, item 6)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_the_api_docs_reference_only_same_origin_assets(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.get("/api/docs")
    assert response.status_code == 200
    body = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', body)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    assert any(a.endswith("swagger-ui.css") for a in assets)
    for asset in assets:
        assert asset.startswith("/") and not asset.startswith("//"), asset
        if asset.startswith("/static/"):
            assert finders.find(asset.removeprefix("/static/")), f"{asset} is not among our static files"
    assert "cdn" not in body.lower()
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_signed_in_pages_are_not_stored(world: Any, client: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    client.force_login(world.users["atendente.recife"])
    for url in ("/", f"/cadastro/pessoas/{person.pk}/", "/cadastro/pessoas/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url


def test_the_private_api_is_not_stored_even_without_a_session(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    assert "no-store" in client.get("/api/registry/persons")["Cache-Control"]
    client.logout()
    refused = client.get("/api/registry/persons")
    assert refused.status_code == 401 and "no-store" in refused["Cache-Control"]


def test_public_pages_for_anonymous_visitors_keep_their_own_caching(world: Any, client: Any) -> None:
    response = client.get("/publico/veiculos/ABA1C23/")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")
