"""Maricá (Lei 2.627/2015, art. 58, III, V–VII; art. 55, § 1º): grounds of revocation the agency
establishes — the fact and its proof recorded, the revocation process opened on that ground."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.accounts.models import StaffMembership, User
from lotacao.enforcement.models import RevocationProcess
from lotacao.enforcement.sanctions import grounds
from tests.enforcement.sanctions.effect_helpers import _place

pytestmark = pytest.mark.django_db
DAY = dt.date(2025, 6, 16)


def _staff(j: Any, role: str) -> User:
    user = User.objects.create_user(f"{role}.{j.code}", password="senha-de-teste-123")
    StaffMembership.objects.create(user=user, jurisdiction=j, role=role)
    return user


def test_the_agency_opens_the_process_on_a_criminal_conviction_citing_art_58_iii(world: Any) -> None:
    permit = _place(world, "marica")["permit"]
    ids = [g["id"] for g in grounds.agency_grounds("marica", DAY)]
    assert "criminal_conviction" in ids and "points" not in ids  # points are the engine's
    process = grounds.open_on_ground(
        actor=None, permit=permit, ground_id="criminal_conviction", facts="Sentença da 2ª Vara", on=DAY
    )
    assert process.status == RevocationProcess.Status.OPEN and process.opened_on == DAY
    assert "art. 58, III" in process.citations and "Sentença da 2ª Vara" in process.cause
    with pytest.raises(ValidationError, match="Já há processo de cassação aberto"):
        grounds.open_on_ground(actor=None, permit=permit, ground_id="irregular_transfer", facts="x", on=DAY)


@pytest.mark.parametrize(
    ("ground", "facts", "message"),
    [
        ("points", "18 pontos", "apurada pelo sistema"),
        ("no_such_ground", "x", "Escolha uma das hipóteses"),
        ("suspension_breached", "  ", "Descreva o fato"),
    ],
)
def test_refusals_change_nothing(world: Any, ground: str, facts: str, message: str) -> None:
    permit = _place(world, "marica")["permit"]
    with pytest.raises(ValidationError, match=message):
        grounds.open_on_ground(actor=None, permit=permit, ground_id=ground, facts=facts, on=DAY)
    assert not RevocationProcess.objects.filter(permit=permit).exists()


def test_a_law_without_the_list_has_no_agency_grounds(world: Any) -> None:
    permit = world.objects["recife"]["permits.permit"]
    assert grounds.agency_grounds("recife", DAY) == []
    with pytest.raises(ValidationError, match="não lista hipóteses"):
        grounds.open_on_ground(actor=None, permit=permit, ground_id="criminal_conviction", facts="x", on=DAY)


def test_the_manager_opens_it_on_the_screen_and_a_clerk_may_not(world: Any, client: Any) -> None:
    place = _place(world, "marica")
    permit, j = place["permit"], place["j"]
    url = f"/fiscalizacao/permissoes/{permit.pk}/cassacao/"
    client.force_login(_staff(j, "atendente"))
    page = client.get(url).content.decode()
    assert "Condenação do permissionário" in page and "art. 58, III" in page and "Abrir processo" not in page
    form = {"ground": "criminal_conviction", "facts": "x", "on": "2025-06-16"}
    assert client.post(url, form).status_code == 403
    client.force_login(_staff(j, "gestor"))
    bad = client.post(url, {"ground": "", "facts": "Sentença", "on": "2025-06-16"})
    assert bad.status_code == 422 and "Escolha uma das hipóteses" in bad.content.decode()
    ok = client.post(url, {**form, "ground": "other_public_service", "facts": "Outorga em Niterói"})
    process = RevocationProcess.objects.get(permit=permit)
    assert ok.status_code == 302 and ok["Location"].endswith(f"/{process.pk}/")
    assert "art. 58, VII" in process.citations
