"""Exports of lists, audited when they carry personal data (issue 20, item 5).

`answer(request, ...)` is what a list view calls with its own filtered queryset: None when the
page itself was asked for, a Portuguese 400 for a format the system does not write, or the file
(lotacao.core.exports). An export of a list with personal data (names, CPF, CNPJ of people and
holders) leaves an `export.list` audit event: who, which list, the filters, the format and how
many rows — on the jurisdiction when the user works in one, else on the user's own record.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models, transaction
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from lotacao.audit.services import record
from lotacao.core import exports
from lotacao.core.exports import Column
from lotacao.core.models import Jurisdiction

ACTION = "export.list"


def answer(
    request: HttpRequest,
    *,
    title: str,
    columns: list[Column],
    objects: models.QuerySet[Any] | Iterable[Any],
    stem: str,
    personal: bool,
) -> HttpResponseBase | None:
    """The list's file if `?formato=` asked for one (None: render the page)."""
    try:
        fmt = exports.requested_format(request)
    except exports.BadFormat as error:
        return exports.refusal(error)
    if fmt is None:
        return None
    if personal:
        count = objects.count() if isinstance(objects, models.QuerySet) else len(list(objects))
        audit_export(request, title=title, fmt=fmt, count=count)
    return exports.response(columns=columns, objects=objects, fmt=fmt, stem=stem, sheet=title)


def audit_export(request: HttpRequest, *, title: str, fmt: str, count: int) -> None:
    access = getattr(request, "access", None)
    codes: list[str] = list(getattr(access, "jurisdictions", []) or [])
    instance: models.Model = request.user  # type: ignore[assignment]
    if len(codes) == 1:
        place = Jurisdiction.unscoped.filter(pk=codes[0]).first()
        if place is not None:
            instance = place
    filters = exports.filters_of(request)
    described = ", ".join(f"{k}={v}" for k, v in filters.items()) or "nenhum"
    with transaction.atomic():
        record(
            actor=request.user,  # type: ignore[arg-type]  # a list is behind LoginRequiredMixin
            action=ACTION,
            instance=instance,
            reason=f"Exportação da lista “{title}” ({fmt.upper()}): {count} linhas; filtros: {described}",
            after={
                "lista": title,
                "caminho": request.path,
                "filtros": filters,
                "formato": fmt,
                "linhas": count,
                "jurisdicoes": codes,
            },
        )
