"""Write services of documents: upload (checked by content and size), review, opening a file."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import filetype
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone

from lotacao.audit import separation
from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.core.uploads import check_content
from lotacao.documents import permissions
from lotacao.documents.models import Document, SensitiveAccess
from lotacao.documents.rules import document_types

ALLOWED_CONTENT = {"application/pdf": "PDF", "image/png": "PNG", "image/jpeg": "JPEG"}
DEFAULT_MAX_BYTES = 10 * 1024 * 1024


def max_upload_bytes() -> int:
    """The size limit of an uploaded document (setting DOCUMENT_MAX_UPLOAD_BYTES; 10 MB by default)."""
    return int(getattr(settings, "DOCUMENT_MAX_UPLOAD_BYTES", DEFAULT_MAX_BYTES))


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}".replace(".", ",") + " MB"


def detect_content_type(file: Any) -> str | None:
    """The content type from the file's first bytes (magic numbers), never from its name."""
    file.seek(0)
    head = file.read(8192)
    file.seek(0)
    kind = filetype.guess(head)
    return kind.mime if kind is not None else None


def _owner(person: Any, company: Any, vehicle: Any) -> tuple[str, Any]:
    candidates = (("person", person), ("company", company), ("vehicle", vehicle))
    given = [(k, v) for k, v in candidates if v is not None]
    if len(given) != 1:
        raise ValidationError("Informe a quem pertence o documento: uma pessoa, uma empresa ou um veículo.")
    return given[0]


@transaction.atomic
def upload_document(
    *,
    actor: Any,
    code: str,
    file: Any,
    reason: str,
    person: Any = None,
    company: Any = None,
    vehicle: Any = None,
    issued_on: dt.date | None = None,
    valid_until: dt.date | None = None,
    on: dt.date | None = None,
) -> Document:
    """Receive a document: a PDF, PNG or JPEG (by content), within the size limit, of a type the
    pack lists; stored under MEDIA_ROOT with a random name; waits for a clerk's review."""
    kind, owner = _owner(person, company, vehicle)
    jurisdiction = owner.jurisdiction
    day = on or timezone.localdate()
    types = document_types(jurisdiction.code, day, owner="vehicle" if kind == "vehicle" else "person")
    requirement = types.get(code)
    if requirement is None:
        raise ValidationError(
            f"O tipo de documento “{code}” não consta entre os documentos exigidos pela lei de "
            f"{jurisdiction.name}."
        )
    if file is None or not getattr(file, "size", 0):
        raise ValidationError("Envie o arquivo do documento (PDF, PNG ou JPEG).")
    limit = max_upload_bytes()
    if file.size > limit:
        raise ValidationError(
            f"O arquivo tem {_megabytes(file.size)}; o limite é {_megabytes(limit)}. "
            "Envie uma versão menor (digitalização em menor resolução)."
        )
    content_type = detect_content_type(file)
    if content_type not in ALLOWED_CONTENT:
        raise ValidationError(
            "O conteúdo do arquivo não é PDF, PNG nem JPEG (a extensão do nome não basta): "
            "envie o documento digitalizado num desses formatos."
        )
    check_content(file, content_type, name=f"“{str(getattr(file, 'name', '') or 'enviado')[-80:]}”")
    if issued_on is not None and issued_on > day:
        raise ValidationError(f"A data de emissão {br_date(issued_on)} é posterior a hoje.")
    if valid_until is None:
        valid_until = requirement.default_valid_until(issued_on)
    if requirement.expires and valid_until is None:
        raise ValidationError(f"Informe a data de validade de: {requirement.label} ({requirement.citation}).")
    if valid_until is not None and issued_on is not None and valid_until < issued_on:
        raise ValidationError("A validade não pode ser anterior à data de emissão.")

    digest = hashlib.sha256()
    for chunk in file.chunks() if hasattr(file, "chunks") else [file.read()]:
        digest.update(chunk)
    file.seek(0)
    document = Document(
        jurisdiction=jurisdiction,
        code=code,
        label=requirement.label,
        citation=requirement.citation[:300],
        sensitive=requirement.sensitive,
        content_type=content_type,
        size=file.size,
        sha256=digest.hexdigest(),
        original_name=str(getattr(file, "name", "") or "")[-200:],
        issued_on=issued_on,
        valid_until=valid_until,
        uploaded_by=actor if getattr(actor, "pk", None) is not None else None,
        **{kind: owner},
    )
    # The name is random (random_upload_name); the original name is only recorded.
    document.file.save("upload", File(file), save=False)
    try:
        return create_audited(actor=actor, instance=document, reason=reason, action="document.uploaded")
    except Exception:
        document.file.delete(save=False)
        raise


def review_document(
    *,
    actor: Any,
    document: Document,
    accepted: bool,
    reason: str = "",
    valid_until: dt.date | None = None,
) -> Document:
    """A clerk's review: accepted, or refused with the reason (required), both audited. Where the
    agency separates the steps (its setting, on by default), the clerk who received the document
    at the desk does not review it — the refusal is audited."""
    current = Document.unscoped.filter(pk=document.pk).values("status", "uploaded_by_id").first()
    if (
        current is not None
        and current["status"] == Document.Status.PENDING
        and (accepted or (reason or "").strip())
    ):
        separation.check(
            act="document.review", actor=actor, first_id=current["uploaded_by_id"], instance=document
        )
    return _review(actor=actor, document=document, accepted=accepted, reason=reason, valid_until=valid_until)


@transaction.atomic
def _review(
    *, actor: Any, document: Document, accepted: bool, reason: str, valid_until: dt.date | None
) -> Document:
    document = Document.unscoped.select_for_update().get(pk=document.pk)
    if document.status != Document.Status.PENDING:
        raise ValidationError(
            f"Este documento já foi analisado ({lower_first(document.get_status_display())})."
        )
    reason = (reason or "").strip()
    if not accepted and not reason:
        raise ValidationError("Informe o motivo da recusa do documento.")
    changes: dict[str, Any] = {
        "status": Document.Status.ACCEPTED if accepted else Document.Status.REFUSED,
        "refusal_reason": "" if accepted else reason,
        "reviewed_by": actor if getattr(actor, "pk", None) is not None else None,
        "reviewed_at": timezone.now(),
    }
    if accepted and valid_until is not None:
        changes["valid_until"] = valid_until
    return update_audited(
        actor=actor,
        instance=document,
        changes=changes,
        reason=reason or "Documento conferido e aceito.",
        action="document.accepted" if accepted else "document.refused",
    )


def open_document(*, user: Any, access: Any, document: Document, channel: str = "tela") -> Any:
    """The stored file, for a user whose role may open it; a sensitive one is logged (who, when).

    The caller has already found `document` through the scoped manager (404 outside the scope).
    """
    if not permissions.can_open(access, document):
        raise PermissionDenied(
            "Documento sigiloso: somente o gestor e o atendente podem abrir certidões criminais e laudos."
            if document.sensitive
            else "Seu perfil não permite abrir documentos."
        )
    if document.sensitive:
        SensitiveAccess.objects.create(
            jurisdiction_id=document.jurisdiction_id, document=document, user=user, channel=channel
        )
    return document.file.open("rb")
