"""Upload, review and opening of documents: every refusal, the sensitive-access log, the API."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from lotacao.audit.models import AuditEvent
from lotacao.demo.documents import pdf_bytes, png_bytes
from lotacao.documents import queue, services
from lotacao.documents.models import Document, SensitiveAccess
from tests.clock import today


def _pdf(name: str = "certidao.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, pdf_bytes("Certidão"), content_type="application/pdf")


def _upload(world: Any, code: str = "criminal_record_state", **kw: Any) -> Document:
    person = world.objects["recife"]["registry.person"]
    kw.setdefault("valid_until", today() + dt.timedelta(days=90))
    # Received by the manager at the desk, so the clerk may review it (separation of duties).
    return services.upload_document(
        actor=world.users["gestor.recife"],
        person=person,
        code=code,
        file=kw.pop("file", _pdf()),
        reason="balcão",
        **kw,
    )


def test_upload_stores_a_random_name_outside_static_paths(world: Any) -> None:
    doc = _upload(world)
    assert doc.status == "pendente" and doc.sensitive and doc.content_type == "application/pdf"
    path = Path(doc.file.path).resolve()
    media = Path(settings.MEDIA_ROOT).resolve()
    assert path.is_relative_to(media) and path.read_bytes().startswith(b"%PDF")
    assert "certidao" not in path.name and path.suffix == ".pdf" and len(path.stem) == 32
    assert not path.is_relative_to(Path(settings.STATIC_ROOT).resolve())
    for static_dir in getattr(settings, "STATICFILES_DIRS", []):
        assert not path.is_relative_to(Path(static_dir).resolve())
    assert not path.is_relative_to((Path(settings.BASE_DIR) / "src").resolve())
    with pytest.raises(NotImplementedError):
        doc.file.url  # noqa: B018 - no public URL
    assert AuditEvent.objects.filter(action="document.uploaded", object_id=str(doc.pk)).exists()


def test_the_real_media_root_is_outside_the_web_root() -> None:
    from lotacao.config.settings import base

    media, static = Path(base.MEDIA_ROOT).resolve(), Path(base.STATIC_ROOT).resolve()
    assert not media.is_relative_to(static) and not static.is_relative_to(media)
    assert not media.is_relative_to((Path(base.BASE_DIR) / "src").resolve())


def test_a_png_is_accepted_by_content(world: Any) -> None:
    doc = _upload(world, file=SimpleUploadedFile("foto.jpg", png_bytes(), content_type="image/jpeg"))
    assert doc.content_type == "image/png" and doc.file.name.endswith(".png")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"file": SimpleUploadedFile("certidao.pdf", b"MZ\x90\x00 not a pdf" * 20)},
            "não é PDF, PNG nem JPEG",
        ),
        ({"file": SimpleUploadedFile("certidao.pdf", b"<html><script>alert(1)</script>")}, "não é PDF"),
        ({"code": "passport"}, "não consta entre os documentos exigidos"),
        ({"valid_until": None}, "Informe a data de validade"),
        ({"file": SimpleUploadedFile("vazio.pdf", b"")}, "Envie o arquivo"),
        (
            {"issued_on": today() - dt.timedelta(days=5), "valid_until": today() - dt.timedelta(days=10)},
            "anterior à data de emissão",
        ),
    ],
)
def test_refused_uploads_change_nothing(world: Any, kwargs: dict[str, Any], message: str) -> None:
    before = AuditEvent.objects.count()
    with pytest.raises(ValidationError, match=message):
        _upload(world, **kwargs)
    assert not Document.objects.filter(code__in=["criminal_record_state", "passport"]).exists()
    assert AuditEvent.objects.count() == before
    media = Path(settings.MEDIA_ROOT) / "documents" / "recife"
    assert len(list(media.glob("*"))) == 1  # only the world's test document


def test_too_large_is_refused(world: Any, settings: Any) -> None:
    settings.DOCUMENT_MAX_UPLOAD_BYTES = 1024
    big = SimpleUploadedFile("certidao.pdf", pdf_bytes("x") + b"0" * 2000)
    with pytest.raises(ValidationError, match=r"o limite é 0,0 MB|o limite é"):
        _upload(world, file=big)
    assert not Document.objects.filter(code="criminal_record_state").exists()


def test_review_refusal_needs_a_reason_and_is_audited(world: Any) -> None:
    doc = _upload(world)
    clerk = world.users["atendente.recife"]
    with pytest.raises(ValidationError, match="Informe o motivo da recusa"):
        services.review_document(actor=clerk, document=doc, accepted=False, reason="  ")
    doc.refresh_from_db()
    assert doc.status == "pendente"
    services.review_document(actor=clerk, document=doc, accepted=False, reason="Certidão vencida")
    doc.refresh_from_db()
    assert doc.status == "recusado" and doc.refusal_reason == "Certidão vencida" and doc.reviewed_by == clerk
    event = AuditEvent.objects.get(action="document.refused", object_id=str(doc.pk))
    assert event.reason == "Certidão vencida" and event.actor == clerk
    with pytest.raises(ValidationError, match="já foi analisado"):
        services.review_document(actor=clerk, document=doc, accepted=True)


def test_review_through_the_screen(world: Any, client: Any) -> None:
    doc = _upload(world)
    url = reverse("documents:document", args=[doc.pk])
    client.force_login(world.users["atendente.recife"])
    response = client.post(url, {"decision": "recusar", "reason": ""})
    assert "Informe o motivo da recusa" in response.content.decode()
    response = client.post(url, {"decision": "aceitar", "reason": ""})
    assert response.status_code == 302
    doc.refresh_from_db()
    assert doc.status == "aceito"
    client.force_login(world.users["fiscal.recife"])
    doc2 = _upload(world, code="electoral_clearance")
    assert (
        client.post(reverse("documents:document", args=[doc2.pk]), {"decision": "aceitar"}).status_code == 403
    )


def test_sensitive_file_is_denied_to_fiscal_and_comissao_and_nothing_is_logged(
    world: Any, client: Any
) -> None:
    doc = _upload(world)
    for user in ("fiscal.recife", "comissao.recife"):
        client.force_login(world.users[user])
        response = client.get(reverse("documents:file", args=[doc.pk]))
        assert response.status_code == 403
        assert "somente o gestor e o atendente" in response.content.decode()
        page = client.get(reverse("documents:document", args=[doc.pk])).content.decode()
        assert "acesso restrito" in page and reverse("documents:file", args=[doc.pk]) not in page
    assert not SensitiveAccess.objects.exists()


def test_sensitive_file_opened_by_atendente_is_logged(world: Any, client: Any) -> None:
    doc = _upload(world)
    user = world.users["atendente.recife"]
    client.force_login(user)
    response = client.get(reverse("documents:file", args=[doc.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF")
    assert "no-store" in response["Cache-Control"]
    access = SensitiveAccess.objects.get()
    assert access.user == user and access.document == doc and access.channel == "tela"


def test_non_sensitive_file_is_open_to_fiscal_without_log(world: Any, client: Any) -> None:
    doc = _upload(world, code="electoral_clearance")
    client.force_login(world.users["fiscal.recife"])
    assert client.get(reverse("documents:file", args=[doc.pk])).status_code == 200
    assert not SensitiveAccess.objects.exists()


def test_other_jurisdiction_and_holders_get_404(world: Any, client: Any) -> None:
    doc = _upload(world)
    for user in ("gestor.esteio", "atendente.esteio", "holder0.recife"):
        client.force_login(world.users[user])
        assert client.get(reverse("documents:file", args=[doc.pk])).status_code == 404
    assert not SensitiveAccess.objects.exists()


def test_upload_screen_refuses_content_with_a_pdf_name(world: Any, client: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    client.force_login(world.users["atendente.recife"])
    url = reverse("documents:upload_person", args=[person.pk])
    fake = SimpleUploadedFile("laudo.pdf", b"GIF89a fake" * 10, content_type="application/pdf")
    response = client.post(url, {"code": "medical_report", "file": fake, "reason": "balcão"})
    assert response.status_code == 200 and "não é PDF, PNG nem JPEG" in response.content.decode()
    ok = client.post(url, {"code": "medical_report", "file": _pdf("laudo.pdf"), "reason": "balcão"})
    assert ok.status_code == 302
    assert Document.objects.filter(code="medical_report").count() == 1
    client.force_login(world.users["fiscal.recife"])
    assert client.get(url).status_code == 403


def test_api_lists_uploads_reviews_and_logs(world: Any, client: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    client.force_login(world.users["atendente.recife"])
    base = f"/api/documents/persons/{person.pk}"
    bad = client.post(
        base, {"code": "medical_report", "reason": "api", "file": SimpleUploadedFile("a.pdf", b"x" * 300)}
    )
    assert bad.status_code == 422 and "não é PDF" in bad.json()["errors"][0]
    created = client.post(base, {"code": "medical_report", "reason": "api", "file": _pdf()})
    assert created.status_code == 201, created.content
    doc_id = created.json()["id"]
    assert created.json()["sensitive"] is True
    assert [d["id"] for d in client.get(base).json() if d["code"] == "medical_report"] == [doc_id]
    refused = client.post(
        f"/api/documents/{doc_id}/review", {"accepted": False}, content_type="application/json"
    )
    assert refused.status_code == 422 and "motivo da recusa" in refused.json()["errors"][0]
    assert client.get(f"/api/documents/{doc_id}/file").status_code == 200
    assert SensitiveAccess.objects.get().channel == "api"
    client.force_login(world.users["fiscal.recife"])
    assert client.get(f"/api/documents/{doc_id}/file").status_code == 403
    assert (
        client.post(
            f"/api/documents/{doc_id}/review", {"accepted": True}, content_type="application/json"
        ).status_code
        == 403
    )
    assert SensitiveAccess.objects.count() == 1
    client.force_login(world.users["atendente.esteio"])
    assert client.get(f"/api/documents/{doc_id}").status_code == 404
    assert client.get(base).status_code == 404


def test_queue_lists_expiring_pending_and_cnh(world: Any) -> None:
    person = world.objects["recife"]["registry.person"]
    clerk = world.users["atendente.recife"]
    soon = _upload(world, valid_until=today() + dt.timedelta(days=10))
    services.review_document(actor=clerk, document=soon, accepted=True)
    far = _upload(world, code="criminal_record_federal", valid_until=today() + dt.timedelta(days=200))
    services.review_document(actor=clerk, document=far, accepted=True)
    pending = _upload(world, code="medical_report")
    person.cnh_number, person.cnh_category, person.cnh_expiry = (
        "12345678901",
        "D",
        today() - dt.timedelta(days=1),
    )
    person.save()
    specs = list(queue.items(today(), 30))
    kinds = {(s.kind, s.key) for s in specs}
    assert ("document.expiring", str(soon.pk)) in kinds
    assert ("document.expiring", str(far.pk)) not in kinds
    assert ("document.review", str(pending.pk)) in kinds
    assert ("person.cnh", str(person.pk)) in kinds
    cnh = next(s for s in specs if s.kind == "person.cnh")
    assert "venceu" in cnh.title and cnh.url == reverse("people:person", args=[person.pk])
    # a renewed document replaces the expiring one in the queue
    renewed = _upload(world, valid_until=today() + dt.timedelta(days=365))
    services.review_document(actor=clerk, document=renewed, accepted=True)
    assert ("document.expiring", str(soon.pk)) not in {(s.kind, s.key) for s in queue.items(today(), 30)}


def test_queue_runs_a_fixed_number_of_queries(world: Any, django_assert_max_num_queries: Any) -> None:
    for code in ("criminal_record_state", "criminal_record_federal", "medical_report"):
        _upload(world, code=code, valid_until=today() + dt.timedelta(days=3))
    with django_assert_max_num_queries(4):
        assert len(list(queue.items(today(), 30))) >= 3
