"""Document screens: upload for a person, company or vehicle; a document's page with the review;
the file itself, served only here (never from a static or media URL), after scope and role checks."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.documents import permissions, services
from lotacao.documents.forms import ReviewForm, UploadForm
from lotacao.documents.models import Document
from lotacao.documents.rules import document_types
from lotacao.registry.models import Company, Person, Vehicle


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


class UploadView(LoginRequiredMixin, View):
    model: ClassVar[type[models.Model]]
    owner_kind: ClassVar[str]  # person | company | vehicle
    back_url: ClassVar[str]

    def get_owner(self, pk: int) -> Any:
        owner: Any = get_object_or_404(self.model._default_manager.all(), pk=pk)
        if not permissions.can_upload(_access(self.request), owner.jurisdiction_id):
            raise PermissionDenied("Seu perfil não permite receber documentos.")
        return owner

    def choices(self, owner: Any) -> list[tuple[str, str]]:
        kind = "vehicle" if self.owner_kind == "vehicle" else "person"
        types = document_types(owner.jurisdiction_id, timezone.localdate(), owner=kind)
        return [(code, item.label) for code, item in types.items()]

    def render(self, request: HttpRequest, owner: Any, form: UploadForm) -> HttpResponse:
        return render(
            request,
            "documents/upload.html",
            {
                "title": f"Receber documento — {owner}",
                "owner": owner,
                "form": form,
                "back": self.back_url,
                "max_mb": services.max_upload_bytes() // (1024 * 1024),
                "no_types": not self.choices(owner),
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        owner = self.get_owner(pk)
        choices = self.choices(owner)
        wanted = request.GET.get("tipo", "")
        initial = {"code": wanted} if wanted in dict(choices) else {}
        return self.render(request, owner, UploadForm(choices=choices, initial=initial))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        owner = self.get_owner(pk)
        form = UploadForm(request.POST, request.FILES, choices=self.choices(owner))
        if form.is_valid():
            data = form.cleaned_data
            try:
                document = services.upload_document(
                    actor=request.user,
                    code=data["code"],
                    file=data["file"],
                    issued_on=data["issued_on"],
                    valid_until=data["valid_until"],
                    reason=data["reason"],
                    **{self.owner_kind: owner},
                )
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, f"{document.label}: recebido, aguardando análise.")
                return redirect("documents:document", document.pk)
        return self.render(request, owner, form)


class PersonUpload(UploadView):
    model = Person
    owner_kind = "person"
    back_url = "people:person"


class CompanyUpload(UploadView):
    model = Company
    owner_kind = "company"
    back_url = "people:company"


class VehicleUpload(UploadView):
    model = Vehicle
    owner_kind = "vehicle"
    back_url = "registry:vehicle"


class DocumentDetail(LoginRequiredMixin, View):
    """A document's data and history; gestor and atendente review it here (POST)."""

    model = Document

    def get_document(self, pk: int) -> Document:
        document: Document = get_object_or_404(
            Document.objects.select_related("person", "company", "vehicle", "reviewed_by"), pk=pk
        )
        if not permissions.can_view(_access(self.request), document.jurisdiction_id):
            raise PermissionDenied("Seu perfil não permite ver documentos.")
        return document

    def render(self, request: HttpRequest, document: Document, form: ReviewForm | None) -> HttpResponse:
        access = _access(request)
        can_review = permissions.can_review(access, document.jurisdiction_id)
        return render(
            request,
            "documents/document.html",
            {
                "title": str(document),
                "document": document,
                "can_open": permissions.can_open(access, document),
                "form": form if can_review and document.status == Document.Status.PENDING else None,
                "events": history(document)[:50],
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        document = self.get_document(pk)
        return self.render(request, document, ReviewForm(initial={"valid_until": document.valid_until}))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        document = self.get_document(pk)
        if not permissions.can_review(_access(request), document.jurisdiction_id):
            raise PermissionDenied("Seu perfil não permite analisar documentos.")
        form = ReviewForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.review_document(
                    actor=request.user,
                    document=document,
                    accepted=data["decision"] == "aceitar",
                    reason=data["reason"],
                    valid_until=data["valid_until"],
                )
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, "Análise registrada.")
                return redirect("documents:document", document.pk)
        return self.render(request, document, form)


class DocumentFile(LoginRequiredMixin, View):
    """The stored file. Sensitive documents: gestor and atendente only, and every opening logged."""

    model = Document

    def get(self, request: HttpRequest, pk: int) -> HttpResponse | FileResponse:
        document = get_object_or_404(Document.objects.all(), pk=pk)
        try:
            handle = services.open_document(user=request.user, access=_access(request), document=document)
        except PermissionDenied as denied:
            body = render_to_string("documents/denied.html", {"message": str(denied)}, request=request)
            return HttpResponseForbidden(body)
        extension = document.file.name.rsplit(".", 1)[-1]
        response = FileResponse(
            handle,
            content_type=document.content_type,
            as_attachment=False,
            filename=f"documento-{document.pk}.{extension}",
        )
        response["Cache-Control"] = "private, no-store"
        response["X-Content-Type-Options"] = "nosniff"
        return response
