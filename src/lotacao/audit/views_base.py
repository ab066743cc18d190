"""Thin generic views for the back office: lists and detail pages over scoped managers.

They never filter by jurisdiction: the tenant managers do (lotacao.core.tenancy). A detail page
of a row outside the user's scope is therefore a 404, like a row that does not exist.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, ClassVar

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.paginator import Paginator
from django.db import models
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.views import View

from lotacao.audit import exports as audited_exports
from lotacao.audit.services import history
from lotacao.core import exports
from lotacao.core.exports import Column


class ScopedListView(LoginRequiredMixin, View):
    model: ClassVar[type[models.Model]]
    title: ClassVar[str]
    columns: ClassVar[list[tuple[str, str]]]  # (label, attribute)
    search_fields: ClassVar[list[str]] = []  # text searches (names)
    # A query made only of digits and punctuation (a CPF, CNPJ) searches these instead, by prefix
    # of the bare digits, which an index answers (see the *_prefix indexes of the registry).
    document_search_fields: ClassVar[list[str]] = []
    search_help: ClassVar[str] = ""
    detail_url_name: ClassVar[str]
    create_url_name: ClassVar[str | None] = None  # a "new" button for staff, where there is a form
    create_label: ClassVar[str] = "Novo cadastro"
    create_roles: ClassVar[tuple[str, ...] | None] = None  # who sees the "new" button (None: all staff)
    page_size: ClassVar[int] = 25
    # Filters a link may carry (a dashboard counter opens the list it counts): query parameter ->
    # field with choices; a value outside the field's choices is ignored.
    filters: ClassVar[dict[str, str]] = {}
    # Exports (?formato=csv|xlsx|ods): the file's name, its columns (default: the page's) and
    # whether it carries personal data (then each export is audited).
    export_stem: ClassVar[str] = "lista"
    export_columns: ClassVar[list[Column] | None] = None
    personal_data: ClassVar[bool] = False

    def get_export_columns(self) -> list[Column]:
        if self.export_columns is not None:
            return self.export_columns
        return [Column(label, attr) for label, attr in self.columns]

    def get_queryset(self) -> models.QuerySet[Any]:
        return self.model._default_manager.all()

    def normalize_query(self, query: str) -> list[str]:
        return [query]

    def filtered(self, request: HttpRequest) -> tuple[models.QuerySet[Any], str, str, dict[str, str]]:
        """The rows the page shows (search and filters applied), the query, an error, the filters."""
        qs = self.get_queryset()
        query = request.GET.get("q", "").strip()
        error = ""
        if unsearchable(query):
            error = "A busca contém caracteres inválidos ou é longa demais: digite até 100 caracteres."
            query, qs = "", qs.none()
        chosen: dict[str, str] = {}
        for param, name in self.filters.items():
            wanted = request.GET.get(param, "")
            choices = dict(getattr(self.model._meta.get_field(name), "choices", None) or [])
            if wanted in choices:
                qs = qs.filter(**{name: wanted})
                chosen[param] = wanted
        digits = re.sub(r"[\s.\-/]", "", query)
        if query and self.document_search_fields and digits.isdigit():
            condition = Q()
            for name in self.document_search_fields:
                condition |= Q(**{name: digits})
            qs = qs.filter(condition)
        elif query and self.search_fields:
            condition = Q()
            for term in self.normalize_query(query):
                for name in self.search_fields:
                    condition |= Q(**{name: term})
            qs = qs.filter(condition)
        return qs, query, error, chosen

    def get(self, request: HttpRequest) -> HttpResponseBase:
        qs, query, error, chosen = self.filtered(request)
        file = audited_exports.answer(
            request,
            title=self.title,
            columns=self.get_export_columns(),
            objects=qs,
            stem=self.export_stem,
            personal=self.personal_data,
        )
        if file is not None:
            return file
        page = Paginator(qs, self.page_size).get_page(request.GET.get("pagina"))
        rows = [(obj, [_attr(obj, attr) for _, attr in self.columns]) for obj in page.object_list]
        access = getattr(request, "access", None)
        show_create = bool(self.create_url_name and access is not None and access.is_staff_member)
        if show_create and access is not None and self.create_roles is not None:
            show_create = bool(access.role_names & set(self.create_roles))
        return render(
            request,
            "web/list.html",
            {
                "title": self.title,
                "headers": [label for label, _ in self.columns],
                "rows": rows,
                "page": page,
                "query": query,
                "error": error,
                "filters": chosen,
                "search_help": self.search_help,
                "detail_url_name": self.detail_url_name,
                "create_url_name": self.create_url_name,
                "create_label": self.create_label,
                "show_create": show_create,
                "export_links": exports.links(request),
            },
        )


class ScopedDetailView(LoginRequiredMixin, View):
    model: ClassVar[type[models.Model]]
    fields: ClassVar[list[tuple[str, str]]]
    template_name: ClassVar[str] = "web/detail.html"

    def get_object(self, pk: int) -> models.Model:
        return get_object_or_404(self.model._default_manager.all(), pk=pk)

    def extra_context(self, obj: Any) -> dict[str, Any]:
        return {}

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self.get_object(pk)
        context = {
            "object": obj,
            "title": str(obj),
            "kind": self.model._meta.verbose_name,
            "fields": [(label, _attr(obj, attr)) for label, attr in self.fields],
            "events": history(obj)[:50],
            **self.extra_context(obj),
        }
        return render(request, self.template_name, context)


def unsearchable(query: str) -> bool:
    """A NUL byte or another control character (PostgreSQL refuses them), or an absurd length."""
    return len(query) > 100 or any(unicodedata.category(c) in {"Cc", "Cs", "Co"} for c in query)


def _attr(obj: Any, path: str) -> Any:
    return exports.read(obj, path)
