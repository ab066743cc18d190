"""Separation of duties in the document review (issue 24, defect 13): the clerk who received a CNH
at the desk accepted it himself. Where the agency separates the steps (its jurisdiction's setting,
on by default), another person reviews: the refusal is in Portuguese, changes nothing and is
audited; with the setting off, the same clerk may do both. A holder's own upload is reviewed by
any clerk."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from lotacao.audit.models import AuditEvent
from lotacao.core.models import Jurisdiction
from lotacao.documents import services
from lotacao.documents.models import Document
from tests.clock import days_from_today
from tests.documents.test_upload import pdf_bytes


def _received_by(world: Any, username: str) -> Document:
    return services.upload_document(
        actor=world.users[username],
        person=world.objects["recife"]["registry.person"],
        code="criminal_record_state",
        file=SimpleUploadedFile("certidao.pdf", pdf_bytes("Certidão"), content_type="application/pdf"),
        valid_until=days_from_today(90),
        reason="balcão",
    )


def test_the_clerk_who_received_it_may_not_accept_it(world: Any) -> None:
    assert Jurisdiction.objects.get(code="recife").separate_document_review  # on by default
    doc = _received_by(world, "atendente.recife")
    with pytest.raises(ValidationError, match="Quem recebeu o documento não pode analisá-lo"):
        services.review_document(actor=world.users["atendente.recife"], document=doc, accepted=True)
    doc.refresh_from_db()
    assert doc.status == Document.Status.PENDING and doc.reviewed_by is None
    refusal = AuditEvent.objects.get(action="separation_of_duties.refused", object_id=str(doc.pk))
    assert refusal.actor_label == "atendente.recife"


def test_another_person_reviews_it(world: Any) -> None:
    doc = _received_by(world, "atendente.recife")
    services.review_document(actor=world.users["gestor.recife"], document=doc, accepted=True)
    doc.refresh_from_db()
    assert doc.status == Document.Status.ACCEPTED and doc.reviewed_by == world.users["gestor.recife"]


def test_with_the_setting_off_the_same_clerk_reviews(world: Any) -> None:
    Jurisdiction.objects.filter(code="recife").update(separate_document_review=False)
    doc = _received_by(world, "atendente.recife")
    services.review_document(actor=world.users["atendente.recife"], document=doc, accepted=True)
    doc.refresh_from_db()
    assert doc.status == Document.Status.ACCEPTED
    assert not AuditEvent.objects.filter(action="separation_of_duties.refused").exists()


def test_the_screen_refuses_in_portuguese(world: Any, client: Any) -> None:
    doc = _received_by(world, "atendente.recife")
    client.force_login(world.users["atendente.recife"])
    response = client.post(f"/documentos/{doc.pk}/", {"decision": "aceitar", "reason": ""})
    doc.refresh_from_db()
    assert doc.status == Document.Status.PENDING
    assert "Quem recebeu o documento não pode analisá-lo" in response.content.decode()
