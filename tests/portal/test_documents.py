"""The holder opens their own documents from the portal's home (a page and the file); another
holder's document, a staff member and an anonymous visitor get nothing (404 / sign-in)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from lotacao.accounts.models import HolderAccount
from lotacao.demo.documents import pdf_bytes
from lotacao.documents import services as documents
from lotacao.documents.models import SensitiveAccess
from lotacao.documents.rules import document_types
from tests import clock

pytestmark = pytest.mark.django_db


def _upload(holder: Any, sensitive: bool = False) -> Any:
    types = document_types(holder.jurisdiction_id, clock.today(), owner="person")
    code = next(c for c, t in types.items() if t.sensitive == sensitive)
    return documents.upload_document(
        actor=None,
        code=code,
        file=SimpleUploadedFile("doc.pdf", pdf_bytes("Documento de teste"), content_type="application/pdf"),
        reason="teste",
        person=holder.person,
        issued_on=clock.days_from_today(-3),
        valid_until=clock.days_from_today(200),
    )


def test_a_holder_opens_their_own_document_and_no_one_elses(world: Any, client: Any) -> None:
    mine_holder = HolderAccount.objects.get(user=world.users["holder0.recife"]).holder
    other_holder = HolderAccount.objects.get(user=world.users["holder1.recife"]).holder
    mine, theirs = _upload(mine_holder), _upload(other_holder)
    client.force_login(world.users["holder0.recife"])
    home = client.get("/portal/").content.decode()
    assert f'href="/portal/documentos/{mine.pk}/"' in home
    assert f"/portal/documentos/{theirs.pk}/" not in home
    page = client.get(f"/portal/documentos/{mine.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert mine.label in text and "Aguardando análise" in text and "Abrir o arquivo (PDF" in text
    assert "application/pdf" not in text
    file = client.get(f"/portal/documentos/{mine.pk}/arquivo/")
    assert file.status_code == 200 and file["Content-Type"] == "application/pdf"
    assert b"".join(file.streaming_content).startswith(b"%PDF")
    assert "no-store" in file["Cache-Control"] and "private" in file["Cache-Control"]
    # another holder's document, of the same agency: as if it did not exist
    assert client.get(f"/portal/documentos/{theirs.pk}/").status_code == 404
    assert client.get(f"/portal/documentos/{theirs.pk}/arquivo/").status_code == 404
    assert client.get("/portal/documentos/999999/").status_code == 404
    # staff use their own document screens; anonymous visitors sign in first
    client.force_login(world.users["atendente.recife"])
    assert client.get(f"/portal/documentos/{mine.pk}/").status_code == 404
    client.logout()
    anonymous = client.get(f"/portal/documentos/{mine.pk}/arquivo/")
    assert anonymous.status_code == 302 and "/conta/entrar/" in anonymous["Location"]


def test_a_holder_opening_their_sensitive_document_is_logged(world: Any, client: Any) -> None:
    holder = HolderAccount.objects.get(user=world.users["holder0.recife"]).holder
    try:
        row = _upload(holder, sensitive=True)
    except StopIteration:
        pytest.skip("a lei de Recife não lista documento sigiloso da pessoa")
    client.force_login(world.users["holder0.recife"])
    assert client.get(f"/portal/documentos/{row.pk}/arquivo/").status_code == 200
    access = SensitiveAccess.unscoped.get(document=row)
    assert access.user == world.users["holder0.recife"] and access.channel == "portal"
