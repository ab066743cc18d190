"""The header's one search (web/search.py, /busca/): plate, CPF/CNPJ, name with or without
accents, notice and permit numbers, within the user's scope; bad input is a Portuguese refusal."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from lotacao.core.text import fold
from lotacao.registry import services
from lotacao.registry.models import Company, Person

pytestmark = pytest.mark.django_db


@pytest.fixture
def jose(world: Any) -> Person:
    person = world.objects["recife"]["registry.person"]
    return services.update_person(
        actor=None, person=person, changes={"full_name": "José Conceição da Silva"}, reason="teste"
    )


def _search(client: Any, q: str) -> tuple[int, str]:
    response = client.get("/busca/", {"q": q})
    return response.status_code, response.content.decode()


def test_fold_drops_accents_and_case() -> None:
    assert fold("  JOSÉ   Conceição ") == "jose conceicao"


def test_the_folded_name_follows_every_change(jose: Person) -> None:
    jose.refresh_from_db()
    assert jose.name_search == "jose conceicao da silva"
    company = Company.objects.create(
        jurisdiction_id="recife", cnpj="11222333000181", legal_name="Cooperativa Ônibus Ágil"
    )
    assert company.name_search == "cooperativa onibus agil"


@pytest.mark.parametrize("q", ["jose", "JOSÉ", "conceicao silva", "Conceição", "jose da"])
def test_a_name_is_found_with_or_without_accents(world: Any, client: Any, jose: Person, q: str) -> None:
    client.force_login(world.users["atendente.recife"])
    status, body = _search(client, q)
    assert status == 200 and "Pessoas" in body and "José Conceição da Silva" in body
    assert f"/cadastro/pessoas/{jose.pk}/" in body


def test_the_person_list_is_accent_insensitive_too(world: Any, client: Any, jose: Person) -> None:
    client.force_login(world.users["atendente.recife"])
    body = client.get("/cadastro/pessoas/", {"q": "jose conceicao"}).content.decode()
    assert "José Conceição da Silva" in body and "1 registro" in body


@pytest.mark.parametrize("form", ["digits", "formatted", "prefix"])
def test_a_cpf_in_any_format(world: Any, client: Any, form: str) -> None:
    person = world.objects["recife"]["registry.person"]
    q = {"digits": person.cpf, "formatted": person.cpf_display, "prefix": person.cpf_display[:7]}[form]
    client.force_login(world.users["atendente.recife"])
    status, body = _search(client, q)
    assert status == 200 and person.full_name in body and person.cpf_display in body


def test_a_cnpj_with_or_without_punctuation(world: Any, client: Any) -> None:
    company = Company.objects.create(
        jurisdiction_id="recife", cnpj="11222333000181", legal_name="Transportes Beira-Mar"
    )
    client.force_login(world.users["atendente.recife"])
    for q in ("11.222.333/0001-81", "11222333000181"):
        status, body = _search(client, q)
        assert status == 200 and "Transportes Beira-Mar" in body and "11.222.333/0001-81" in body
    assert f"/cadastro/pessoas-juridicas/{company.pk}/" in body


@pytest.mark.parametrize("q", ["ABA1C23", "aba-1c23", "ABA 1C", "aba1"])
def test_a_plate_in_any_format(world: Any, client: Any, q: str) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]
    client.force_login(world.users["fiscal.recife"])
    status, body = _search(client, q)
    assert status == 200 and "Veículos" in body and vehicle.plate_display in body


def test_notice_and_permit_numbers(world: Any, client: Any) -> None:
    notice = world.objects["recife"]["enforcement.infractionnotice"]
    permit = world.objects["recife"]["permits.permit"]
    client.force_login(world.users["gestor.recife"])
    status, body = _search(client, notice.number.lower())
    assert status == 200 and f"Auto {notice.number}" in body and notice.get_absolute_url() in body
    status, body = _search(client, permit.number)
    assert status == 200 and "Permissões" in body and f"/permissoes/{permit.pk}/" in body


def test_staff_see_only_their_agency(world: Any, client: Any) -> None:
    recife = world.objects["recife"]
    client.force_login(world.users["atendente.esteio"])
    for q in (
        recife["registry.person"].cpf,
        recife["registry.vehicle"].plate,
        "Pessoa 0 de Recife",
        recife["permits.permit"].number,
        recife["enforcement.infractionnotice"].number,
    ):
        status, body = _search(client, q)
        assert status == 200 and "Nenhum registro encontrado" in body, q


def test_a_holder_finds_only_their_own_records(world: Any, client: Any) -> None:
    client.force_login(world.users["holder1.recife"])  # holder 1 has no vehicle; holder 0 has
    status, body = _search(client, "Pessoa 0")
    assert status == 200 and "Pessoa 0 de Recife" not in body
    status, body = _search(client, world.objects["recife"]["registry.vehicle"].plate)
    assert "Nenhum registro encontrado" in body
    client.force_login(world.users["holder0.recife"])
    status, body = _search(client, world.objects["recife"]["registry.vehicle"].plate)
    assert world.objects["recife"]["registry.vehicle"].plate_display in body


def test_the_public_is_sent_to_log_in(client: Any) -> None:
    response = client.get("/busca/", {"q": "jose"})
    assert response.status_code == 302 and "/conta/" in response["Location"]


@pytest.mark.parametrize("q", ["\x00", "jo\x00se", "a" * 101, "\x1b[31m"])
def test_bad_input_is_a_portuguese_refusal_not_a_500(world: Any, client: Any, q: str) -> None:
    client.force_login(world.users["atendente.recife"])
    status, body = _search(client, q)
    # A NUL is refused for every page by core.middleware.BadInputMiddleware, before the search runs.
    assert status == 400 and ("A busca" in body or "caractere nulo" in body)


@pytest.mark.parametrize(
    "url", ["/cadastro/pessoas/", "/cadastro/permissionarios/", "/permissoes/", "/fiscalizacao/autos/"]
)
def test_lists_refuse_a_nul_byte_without_a_500(world: Any, client: Any, url: str) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.get(url, {"q": "ab\x00c"})
    assert response.status_code == 400 and "caractere nulo" in response.content.decode()


def test_the_header_carries_the_search_box(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    body = client.get("/").content.decode()
    assert 'action="/busca/"' in body and 'name="q"' in body


def test_notices_filtered_by_status_for_dashboard_counters(world: Any, client: Any) -> None:
    notice = world.objects["recife"]["enforcement.infractionnotice"]
    client.force_login(world.users["gestor.recife"])
    body = client.get("/fiscalizacao/autos/", {"situacao": notice.status}).content.decode()
    assert notice.number in body
    other = "annulled" if notice.status != "annulled" else "archived"
    body = client.get("/fiscalizacao/autos/", {"situacao": other}).content.decode()
    assert notice.number not in body and f'name="situacao" value="{other}"' in body
    assert notice.number in client.get("/fiscalizacao/autos/", {"situacao": "bogus"}).content.decode()


@pytest.mark.postgres
def test_postgresql_answers_the_name_search_with_the_trigram_index(world: Any, jose: Person) -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        assert cursor.fetchone() is not None
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'person_name_search_trgm'")
        row = cursor.fetchone()
        assert row is not None and "gin_trgm_ops" in row[0]
        cursor.execute("SET enable_seqscan = off")
        query = Person.unscoped.filter(name_search__contains="conceicao")
        sql, params = query.query.sql_with_params()
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(r[0] for r in cursor.fetchall())
        cursor.execute("SET enable_seqscan = on")
    assert "person_name_search_trgm" in plan, plan
    assert list(query) == [jose]


def test_dashboard_counters_open_the_filtered_list(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    home = client.get("/").content.decode()
    assert 'href="/permissoes/?situacao=active"' in home
    assert 'href="/permissoes/?situacao=suspended"' in home
    page = client.get("/permissoes/", {"situacao": "suspended"}).content.decode()
    assert world.objects["recife"]["permits.permit"].number not in page  # the world's permit is active
    page = client.get("/permissoes/", {"situacao": "active"}).content.decode()
    assert world.objects["recife"]["permits.permit"].number in page
