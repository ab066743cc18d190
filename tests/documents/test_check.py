"""document_check: the documents the pack requires for a role, on both sides of validity dates."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.files.base import ContentFile

from lotacao.documents.models import Document
from lotacao.documents.rules import ROLES, document_types, requirements
from lotacao.documents.selectors import document_check
from lotacao.law.packs import available_packs

# Requirements are read through lotacao.core.law, which layers the agency's values (a query).
pytestmark = pytest.mark.django_db

DAY = dt.date(2025, 6, 16)
RECIFE_FARE_COLLECTOR = {
    "criminal_record_state",
    "criminal_record_federal",
    "criminal_record_military",
    "electoral_clearance",
    "military_clearance",
    "medical_report",
    "training_certificate",
}


def _doc(person: Any, code: str, *, status: str = "aceito", valid_until: dt.date | None = None) -> Document:
    doc = Document(
        jurisdiction_id=person.jurisdiction_id,
        person=person,
        code=code,
        label=code,
        content_type="application/pdf",
        size=10,
        sha256="0" * 64,
        status=status,
        valid_until=valid_until,
    )
    doc.file.save("x.pdf", ContentFile(b"%PDF-1.4\n"), save=False)
    doc.save()
    return doc


@pytest.mark.parametrize("pack_id", available_packs())
@pytest.mark.parametrize("role", ROLES)
def test_every_pack_declares_every_role(pack_id: str, role: str) -> None:
    rules = requirements(pack_id, role, DAY)
    assert rules.status in ("value", "undefined"), (pack_id, role)
    if rules.defined:
        assert rules.items
        for item in rules.items:
            assert item.label and item.citation.startswith(("Lei", "Decreto"))
    else:
        assert rules.reason


def test_recife_fare_collector_follows_art_10_sole_paragraph() -> None:
    rules = requirements("recife", "fare_collector", DAY)
    assert {i.code for i in rules.items} == RECIFE_FARE_COLLECTOR  # art. 7º, II–VII: no tax, no CNH
    assert "art. 10, parágrafo único" in rules.citation
    assert {i.code for i in rules.items if i.sensitive} == {
        "criminal_record_state",
        "criminal_record_federal",
        "criminal_record_military",
        "medical_report",
    }


def test_cabo_collectors_present_art_7_without_the_cnh() -> None:
    holder = {i.code for i in requirements("cabo", "holder", DAY).items}
    collector = {i.code for i in requirements("cabo", "fare_collector", DAY).items}
    assert "cnh" in holder and "cnh" not in collector
    assert collector <= holder


def test_the_cnh_is_uploaded_like_any_document_but_not_by_a_company() -> None:
    """Typed data alone does not make the CNH valid (issue 24): its file is received and reviewed."""
    assert "cnh" in document_types("marica", DAY)
    assert "cnh" not in document_types("marica", DAY, owner="company")
    assert "cnh" not in document_types("marica", DAY, with_cnh=False)
    assert "criminal_record" in document_types("marica", DAY)


def test_undefined_list_is_never_complete(world: Any) -> None:
    person = world.objects["esteio"]["registry.person"]
    check = document_check(jurisdiction_code="esteio", role="holder", person=person, on=DAY)
    assert not check.complete
    assert check.missing_parameters == ["documents.holder"]
    assert "art. 46, V" in check.citations[0]


def test_complete_then_expired_on_the_day_after_validity(world: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    check = document_check(jurisdiction_code="recife", role="fare_collector", person=person, on=DAY)
    assert not check.complete and set(check.missing) == RECIFE_FARE_COLLECTOR
    for code in RECIFE_FARE_COLLECTOR:
        _doc(person, code, valid_until=DAY if code == "criminal_record_state" else None)

    check = document_check(jurisdiction_code="recife", role="fare_collector", person=person, on=DAY)
    assert check.complete and not check.missing and not check.expired, check
    assert check.valid_until["criminal_record_state"] == DAY

    later = DAY + dt.timedelta(days=1)
    check = document_check(jurisdiction_code="recife", role="fare_collector", person=person, on=later)
    assert not check.complete and check.expired == ["criminal_record_state"]
    assert any("venceu em 16/06/2025" in line for line in check.explanation)


def test_pending_and_refused_documents(world: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    for code in RECIFE_FARE_COLLECTOR - {"medical_report", "training_certificate"}:
        _doc(person, code)
    _doc(person, "medical_report", status="pendente")
    _doc(person, "training_certificate", status="recusado")
    check = document_check(jurisdiction_code="recife", role="fare_collector", person=person, on=DAY)
    assert check.pending == ["medical_report"]
    assert check.missing == ["training_certificate"]
    assert not check.complete


def test_cnh_from_the_person_record(world: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    rules_codes = {i.code for i in requirements("marica", "auxiliary_driver", DAY).items}
    assert "cnh" in rules_codes
    person.cnh_number, person.cnh_category, person.cnh_expiry = "12345678900", "B", DAY
    check = document_check(jurisdiction_code="marica", role="auxiliary_driver", person=person, on=DAY)
    assert "cnh" in check.missing  # category B: the law asks D or E (art. 15, II)
    person.cnh_category = "D"
    check = document_check(jurisdiction_code="marica", role="auxiliary_driver", person=person, on=DAY)
    assert check.missing.count("cnh") == 1  # typed, but no file: not valid (issue 24)
    assert any("falta o arquivo da CNH" in line for line in check.explanation)
    pending = _doc(person, "cnh", status="pendente")
    check = document_check(jurisdiction_code="marica", role="auxiliary_driver", person=person, on=DAY)
    assert "cnh" in check.pending and "cnh" not in check.missing  # a file, not yet reviewed
    Document.objects.filter(pk=pending.pk).update(status="aceito")
    check = document_check(jurisdiction_code="marica", role="auxiliary_driver", person=person, on=DAY)
    assert "cnh" not in check.missing and "cnh" not in check.expired and "cnh" not in check.pending
    assert check.valid_until["cnh"] == DAY
    check = document_check(
        jurisdiction_code="marica", role="auxiliary_driver", person=person, on=DAY + dt.timedelta(days=1)
    )
    assert check.expired == ["cnh"]
