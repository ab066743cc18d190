"""People screens and services: CPF validation, duplicates, edits, companies, line representatives."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from lotacao.audit.models import AuditEvent
from lotacao.core.models import Jurisdiction
from lotacao.core.sample_ids import sample_cnpj, sample_cpf
from lotacao.registry import services
from lotacao.registry.models import Company, LineRepresentative, Person

DAY = dt.date(2025, 6, 16)


def test_create_person_screen_refuses_an_invalid_cpf_in_portuguese(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    before = Person.objects.count()
    response = client.post(
        reverse("people:person_create"),
        {"cpf": "123.456.789-00", "full_name": "Fulano", "reason": "balcão", "jurisdiction": "recife"},
    )
    assert response.status_code == 200
    assert "CPF 123.456.789-00 inválido: dígito verificador não confere." in response.content.decode()
    assert Person.objects.count() == before


def test_create_person_screen_refuses_a_duplicate_cpf(world: Any, client: Any) -> None:
    existing = world.objects["recife"]["registry.person"]
    client.force_login(world.users["atendente.recife"])
    response = client.post(
        reverse("people:person_create"),
        {"cpf": existing.cpf_display, "full_name": "Outro", "reason": "balcão", "jurisdiction": "recife"},
    )
    assert "Já existe uma pessoa com o CPF" in response.content.decode()
    assert Person.objects.filter(cpf=existing.cpf).count() == 1


def test_create_person_with_cnh_and_residence(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    cpf = sample_cpf(300_000_001)
    response = client.post(
        reverse("people:person_create"),
        {
            "cpf": cpf,
            "full_name": " Maria da Silva ",
            "birth_date": "1980-05-02",
            "cnh_number": "12345678901",
            "cnh_category": "D",
            "cnh_expiry": "30/12/2030",
            "residence_since": "2020-01-01",
            "postal_code": "50000-000",
            "reason": "balcão",
            "jurisdiction": "recife",
        },
    )
    assert response.status_code == 302, response.content.decode()
    person = Person.objects.get(cpf=cpf)
    assert person.full_name == "Maria da Silva" and person.cnh_expiry == dt.date(2030, 12, 30)
    assert person.residence_since == dt.date(2020, 1, 1) and person.postal_code == "50000000"
    page = client.get(response["Location"]).content.decode()
    assert "Documentos" in page and "Não apresentado" in page and "Lei Municipal 16.856/2003" in page


def test_incomplete_cnh_is_refused(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    response = client.post(
        reverse("people:person_create"),
        {"cpf": sample_cpf(300_000_002), "full_name": "X", "cnh_number": "12345678901", "reason": "r"},
    )
    assert "Informe número, categoria e validade da CNH" in response.content.decode()


def test_staff_cannot_create_in_another_jurisdiction(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    response = client.post(
        reverse("people:person_create"),
        {"cpf": sample_cpf(300_000_003), "full_name": "X", "reason": "r", "jurisdiction": "esteio"},
    )
    assert response.status_code == 403
    client.force_login(world.users["fiscal.recife"])
    assert client.get(reverse("people:person_create")).status_code == 403


def test_edit_person_is_audited_and_refuses_duplicates(world: Any, client: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    other = Person.objects.filter(jurisdiction_id="recife").exclude(pk=person.pk).first()
    clerk = world.users["atendente.recife"]
    with pytest.raises(ValidationError, match="Já existe uma pessoa com o CPF"):
        services.update_person(actor=clerk, person=person, changes={"cpf": other.cpf}, reason="r")
    with pytest.raises(ValidationError, match="inválido"):
        services.update_person(actor=clerk, person=person, changes={"cpf": "111"}, reason="r")
    person.refresh_from_db()
    assert person.cpf != other.cpf
    client.force_login(clerk)
    url = reverse("people:person_edit", args=[person.pk])
    assert client.get(url).status_code == 200
    data = {"cpf": person.cpf_display, "full_name": "Nome Novo", "reason": "Correção do nome"}
    assert client.post(url, data).status_code == 302
    person.refresh_from_db()
    assert person.full_name == "Nome Novo"
    event = AuditEvent.objects.filter(action="person.updated", object_id=str(person.pk)).get()
    assert event.before["full_name"] == "Pessoa 0 de Recife" and event.reason == "Correção do nome"
    client.force_login(world.users["fiscal.recife"])
    assert client.post(url, data).status_code == 403


def test_create_association_screen(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.post(
        reverse("people:company_create"),
        {"kind": "cooperativa", "cnpj": sample_cnpj(80_000_001), "legal_name": "Coopvan", "reason": "r"},
    )
    assert response.status_code == 302
    company = Company.objects.get(legal_name="Coopvan")
    assert company.kind == "cooperativa" and company.jurisdiction_id == "recife"
    bad = client.post(
        reverse("people:company_create"),
        {"kind": "empresa", "cnpj": "11.111.111/1111-11", "legal_name": "X", "reason": "r"},
    )
    assert "CNPJ 11.111.111/1111-11 inválido" in bad.content.decode()


def _line(world: Any, code: str) -> Any:
    return world.objects[code]["registry.line"]


def test_recife_one_representative_per_line_with_a_12_month_term(world: Any) -> None:
    line = _line(world, "recife")
    org = world.objects["recife"]["registry.company"]
    people = list(Person.objects.filter(jurisdiction_id="recife"))
    rep = services.add_line_representative(
        actor=None,
        line=line,
        person=people[0],
        organization=org,
        position="representative",
        term_start=DAY,
        reason="eleição",
    )
    assert rep.term_end == dt.date(2026, 6, 15)
    with pytest.raises(ValidationError, match=r"já tem 1 representante da linha.*art\. 6º, § 2º"):
        services.add_line_representative(
            actor=None, line=line, person=people[1], position="representative", term_start=DAY, reason="r"
        )
    with pytest.raises(ValidationError, match="as funções de representação são: representante da linha"):
        services.add_line_representative(
            actor=None, line=line, person=people[1], position="coordinator", term_start=DAY, reason="r"
        )
    assert LineRepresentative.objects.count() == 1
    # after the term, a new representative may be recorded
    services.add_line_representative(
        actor=None,
        line=line,
        person=people[1],
        position="representative",
        term_start=dt.date(2026, 6, 16),
        reason="nova eleição",
    )


def test_cabo_coordinator_and_two_auxiliaries(world: Any) -> None:
    cabo = Jurisdiction.objects.create(code="cabo", name="Cabo", official_name="SESP", state="PE")
    line = services.create_line(actor=None, jurisdiction=cabo, code="C-1", name="Centro", reason="r")
    people = [
        services.create_person(
            actor=None, jurisdiction=cabo, cpf=sample_cpf(400_000_000 + n), full_name=f"P{n}", reason="r"
        )
        for n in range(4)
    ]
    services.add_line_representative(
        actor=None, line=line, person=people[0], position="coordinator", term_start=DAY, reason="r"
    )
    for p in people[1:3]:
        rep = services.add_line_representative(
            actor=None, line=line, person=p, position="auxiliary", term_start=DAY, reason="r"
        )
        assert rep.term_end is None  # the law fixes no term
    with pytest.raises(ValidationError, match="já tem 2 auxiliar"):
        services.add_line_representative(
            actor=None, line=line, person=people[3], position="auxiliary", term_start=DAY, reason="r"
        )


def test_undefined_representatives_are_refused_with_the_reason(world: Any) -> None:
    line = _line(world, "esteio")
    person = world.objects["esteio"]["registry.person"]
    with pytest.raises(ValidationError, match="não prevê representantes de linha"):
        services.add_line_representative(
            actor=None, line=line, person=person, position="representative", term_start=DAY, reason="r"
        )


def test_representatives_screen(world: Any, client: Any) -> None:
    line = _line(world, "recife")
    person = world.objects["recife"]["registry.person"]
    client.force_login(world.users["atendente.recife"])
    url = reverse("people:line_representatives", args=[line.pk])
    assert "Representante da linha (até 1)" in client.get(url).content.decode()
    response = client.post(
        url,
        {"cpf": person.cpf, "position": "representative", "term_start": "2025-06-16", "reason": "eleição"},
    )
    assert response.status_code == 302
    assert LineRepresentative.objects.get().person == person
    wrong = client.post(
        url,
        {"cpf": sample_cpf(999_999_999), "position": "representative", "term_start": "2025-06-16",
         "reason": "r"},
    )
    assert "Nenhuma pessoa com o CPF" in wrong.content.decode()
