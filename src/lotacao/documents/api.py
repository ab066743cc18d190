"""REST endpoints of documents (mounted at /api/documents): same scope and roles as the screens."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied
from django.http import FileResponse, HttpRequest
from django.shortcuts import get_object_or_404
from ninja import File, Form, Router, Schema, Status
from ninja.errors import HttpError
from ninja.files import UploadedFile

from lotacao.core.api_schema import file_response
from lotacao.documents import permissions, services
from lotacao.documents.models import Document
from lotacao.documents.services import ALLOWED_CONTENT
from lotacao.registry.models import Person

router = Router(tags=["documentos"])


class DocumentOut(Schema):
    id: int
    jurisdiction: str
    person_id: int | None
    company_id: int | None
    vehicle_id: int | None
    code: str
    label: str
    citation: str
    sensitive: bool
    content_type: str
    size: int
    issued_on: dt.date | None
    valid_until: dt.date | None
    status: str
    refusal_reason: str
    uploaded_at: dt.datetime


class ReviewIn(Schema):
    accepted: bool
    reason: str = ""
    valid_until: dt.date | None = None


def _out(d: Document) -> DocumentOut:
    return DocumentOut(
        id=d.pk,
        jurisdiction=d.jurisdiction_id,
        person_id=d.person_id,
        company_id=d.company_id,
        vehicle_id=d.vehicle_id,
        code=d.code,
        label=d.label,
        citation=d.citation,
        sensitive=d.sensitive,
        content_type=d.content_type,
        size=d.size,
        issued_on=d.issued_on,
        valid_until=d.valid_until,
        status=d.status,
        refusal_reason=d.refusal_reason,
        uploaded_at=d.uploaded_at,
    )


def _access(request: HttpRequest) -> object:
    return getattr(request, "access", None)


@router.get("/persons/{person_id}", response=list[DocumentOut])
def list_person_documents(request: HttpRequest, person_id: int) -> list[DocumentOut]:
    person = get_object_or_404(Person.objects.all(), pk=person_id)
    if not permissions.can_view(_access(request), person.jurisdiction_id):
        raise HttpError(403, "Seu perfil não permite ver documentos.")
    return [_out(d) for d in Document.objects.filter(person=person)]


@router.post("/persons/{person_id}", response={201: DocumentOut})
def upload_person_document(
    request: HttpRequest,
    person_id: int,
    code: Form[str],
    reason: Form[str],
    file: File[UploadedFile],
    issued_on: Form[dt.date | None] = None,
    valid_until: Form[dt.date | None] = None,
) -> Status[DocumentOut]:
    person = get_object_or_404(Person.objects.all(), pk=person_id)
    if not permissions.can_upload(_access(request), person.jurisdiction_id):
        raise HttpError(403, "Seu perfil não permite receber documentos.")
    document = services.upload_document(
        actor=request.user,
        person=person,
        code=code,
        file=file,
        issued_on=issued_on,
        valid_until=valid_until,
        reason=reason,
    )
    return Status(201, _out(document))


@router.get("/{document_id}", response=DocumentOut)
def get_document(request: HttpRequest, document_id: int) -> DocumentOut:
    document = get_object_or_404(Document.objects.all(), pk=document_id)
    if not permissions.can_view(_access(request), document.jurisdiction_id):
        raise HttpError(403, "Seu perfil não permite ver documentos.")
    return _out(document)


@router.post("/{document_id}/review", response=DocumentOut)
def review_document(request: HttpRequest, document_id: int, payload: ReviewIn) -> DocumentOut:
    document = get_object_or_404(Document.objects.all(), pk=document_id)
    if not permissions.can_review(_access(request), document.jurisdiction_id):
        raise HttpError(403, "Seu perfil não permite analisar documentos.")
    reviewed = services.review_document(
        actor=request.user,
        document=document,
        accepted=payload.accepted,
        reason=payload.reason,
        valid_until=payload.valid_until,
    )
    return _out(reviewed)


@router.get(
    "/{document_id}/file",
    openapi_extra=file_response("O arquivo do documento, no formato em que foi enviado.", *ALLOWED_CONTENT),
)
def document_file(request: HttpRequest, document_id: int) -> FileResponse:
    document = get_object_or_404(Document.objects.all(), pk=document_id)
    try:
        handle = services.open_document(
            user=request.user, access=_access(request), document=document, channel="api"
        )
    except PermissionDenied as denied:
        raise HttpError(403, str(denied)) from denied
    response = FileResponse(handle, content_type=document.content_type)
    response["Cache-Control"] = "private, no-store"
    return response
