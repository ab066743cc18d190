from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize("query", ["", "formatted", "prefix"])
def test_staff_find_a_person_by_cpf_in_any_format(world: Any, client: Any, query: str) -> None:
    person = world.objects["recife"]["registry.person"]
    q = {"": person.cpf, "formatted": person.cpf_display, "prefix": person.cpf_display[:7]}[query]
    client.force_login(world.users["atendente.recife"])
    body = client.get("/cadastro/pessoas/", {"q": q}).content.decode()
    assert person.full_name in body


def test_a_name_search_does_not_match_cpf_digits_and_vice_versa(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    body = client.get("/cadastro/pessoas/", {"q": "Pessoa 1"}).content.decode()
    assert "Pessoa 1 de Recife" in body and "Pessoa 0 de Recife" not in body
    assert "Nenhum registro" in client.get("/cadastro/pessoas/", {"q": "999.999"}).content.decode()


def test_holders_are_found_by_cpf(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    client.force_login(world.users["atendente.recife"])
    body = client.get("/cadastro/permissionarios/", {"q": holder.person.cpf_display}).content.decode()
    assert holder.person.full_name in body and "1 registro" in body
