"""The holder's own documents on the portal: a page per document (what it is, its review, until
when it is valid) and its file. Only documents of the signed-in holder — theirs as a person or
company and their vehicles' (`selectors.holder_documents`) — anything else answers 404, never
403, so an id tells nothing. A sensitive document (criminal-record certificate, medical report)
is the holder's own: they open it, and the opening is logged like staff's (SensitiveAccess)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from lotacao.documents.models import Document, SensitiveAccess
from lotacao.portal.selectors import holder_documents
from lotacao.registry.models import Holder


def _own(request: HttpRequest, pk: int) -> Document:
    access = request.access  # type: ignore[attr-defined]
    if not access.is_holder:
        raise Http404("Documento não encontrado.")
    holder = Holder.objects.get(pk=access.holder_id)
    document = holder_documents(holder).select_related("vehicle").filter(pk=pk).first()
    if document is None:
        raise Http404("Documento não encontrado.")
    return document


@login_required
def document(request: HttpRequest, pk: int) -> HttpResponse:
    row = _own(request, pk)
    context = {"title": row.label, "document": row, "today": timezone.localdate()}
    return render(request, "portal/document.html", context)


@login_required
def document_file(request: HttpRequest, pk: int) -> FileResponse:
    row = _own(request, pk)
    if row.sensitive:
        SensitiveAccess.objects.create(
            jurisdiction_id=row.jurisdiction_id, document=row, user=request.user, channel="portal"
        )
    extension = str(row.file.name).rsplit(".", 1)[-1]
    response = FileResponse(
        row.file.open("rb"), content_type=row.content_type, filename=f"documento-{row.pk}.{extension}"
    )
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response
