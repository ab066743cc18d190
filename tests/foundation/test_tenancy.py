"""Every URL that takes an object id answers 404 to users outside the object's scope."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from lotacao.core.tenancy import NOTHING, Scope, scoped
from lotacao.registry.models import Person, Vehicle

ID_CONVERTERS = ("int", "uuid", "slug", "str", "path")


def _id_patterns(patterns: list[Any] | None = None, namespace: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for p in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(p, URLResolver):
            if p.app_name in ("admin", "public", "password", "opendata") or p.namespace == "api":
                continue  # admin: superusers only (tested below); public pages and open data (its
                # CSVs scanned for personal data before they are stored): no personal data;
                # the API has its own tenancy test; password reset: a signed token, not an object id
            ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
            found += _id_patterns(p.url_patterns, ns)
        elif p.callback.__module__.startswith("lotacao.public."):
            continue  # the public plate check served outside the API's dispatch: no personal data
        elif p.callback.__module__ == "lotacao.portal.documents":
            continue  # the holder's own documents: no staff page at all; tests/portal/test_documents.py
            # shows another holder, staff and an anonymous visitor get nothing
        elif isinstance(p, URLPattern) and getattr(p.pattern, "converters", None):
            found.append((f"{namespace}{p.name}", p))
    return found


def _model_label(pattern: URLPattern) -> str:
    view_class = getattr(pattern.callback, "view_class", None)
    model = getattr(view_class, "model", None)
    assert model is not None, f"{pattern}: uma URL com identificador deve declarar o modelo que expõe"
    return str(model._meta.label_lower)


def test_there_are_id_patterns_to_check() -> None:
    assert len(_id_patterns()) >= 4


@pytest.mark.parametrize("name", [n for n, _ in _id_patterns()])
def test_object_pages_are_404_outside_the_scope(world: Any, client: Any, name: str) -> None:
    pattern = dict(_id_patterns())[name]
    label = _model_label(pattern)
    obj = world.objects["recife"][label]
    url = reverse(name, kwargs={"pk": obj.pk})

    client.force_login(world.users["atendente.recife"])
    assert client.get(url).status_code == 200

    for outsider in (
        "gestor.esteio",
        "atendente.esteio",
        "fiscal.esteio",
        "comissao.esteio",
        "holder1.recife",
        "holder0.esteio",
    ):
        client.force_login(world.users[outsider])
        assert client.get(url).status_code == 404, f"{outsider} viu {url}"

    client.logout()
    assert client.get(url).status_code == 302  # anonymous: to the login page


def test_a_holder_sees_their_own_records(world: Any, client: Any) -> None:
    client.force_login(world.users["holder0.recife"])
    for label in ("registry.person", "registry.holder", "registry.vehicle"):
        obj = world.objects["recife"][label]
        name = {
            "registry.person": "people:person",
            "registry.holder": "registry:holder",
            "registry.vehicle": "registry:vehicle",
        }[label]
        assert client.get(reverse(name, kwargs={"pk": obj.pk})).status_code == 200


@pytest.mark.parametrize(
    "name", ["registry:persons", "registry:holders", "registry:vehicles"]
)
def test_list_pages_never_show_another_jurisdiction(world: Any, client: Any, name: str) -> None:
    client.force_login(world.users["atendente.esteio"])
    body = client.get(reverse(name)).content.decode()
    assert "de Recife" not in body and "ABA1C23" not in body
    assert client.get(reverse(name), {"q": "Recife"}).content.decode().count("Nenhum registro") == 1


def test_the_registers_old_line_addresses_lead_to_the_lines_wing(world: Any, client: Any) -> None:
    line = world.objects["recife"]["registry.line"]
    client.force_login(world.users["atendente.recife"])
    response = client.get("/cadastro/linhas/")
    assert response.status_code == 301 and response["Location"] == reverse("lines:list")
    response = client.get(f"/cadastro/linhas/{line.pk}/")
    assert response.status_code == 301
    assert response["Location"] == reverse("lines:line", kwargs={"pk": line.pk})
    client.force_login(world.users["atendente.esteio"])
    assert client.get(f"/cadastro/linhas/{line.pk}/", follow=True).status_code == 404  # still scoped
    assert line.name not in client.get("/cadastro/linhas/", follow=True).content.decode()


def test_scope_filters_querysets_outside_requests(world: Any) -> None:
    assert Person.objects.count() == 4  # no scope: system work sees everything
    with scoped(Scope(jurisdictions=frozenset({"esteio"}))):
        assert set(Person.objects.values_list("jurisdiction_id", flat=True)) == {"esteio"}
    with scoped(NOTHING):
        assert not Vehicle.objects.exists()
    holder = world.objects["recife"]["registry.holder"]
    with scoped(Scope(jurisdictions=frozenset({"recife"}), holder_id=holder.pk)):
        assert list(Vehicle.objects.all()) == [world.objects["recife"]["registry.vehicle"]]
        assert list(Person.objects.all()) == [holder.person]


def test_admin_is_for_superusers_only(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
