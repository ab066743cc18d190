"""The manager's screen of the register's import: upload the files, read the preview (the dry
run: what would be created, updated and left unchanged, and every error), confirm. Also the
downloadable templates and the export of what is registered. Only a gestor of the jurisdiction."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.views import View

from lotacao.core.models import Jurisdiction
from lotacao.onboarding.register.exporter import export_register
from lotacao.onboarding.register.files import render as render_file
from lotacao.onboarding.register.files import template, zip_bytes
from lotacao.onboarding.register.importer import DEFAULT_REASON, import_register
from lotacao.onboarding.register.run import Report
from lotacao.onboarding.register.spec import FORMATS, KINDS

MANAGER = ("gestor",)
MAX_BYTES = 50 * 1024 * 1024  # per file
SESSION_KEY = "register_import"
KNOWN_NAMES = {f"{k.name}.{ext}" for k in KINDS for ext in FORMATS}


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def manager_jurisdictions(request: HttpRequest) -> list[tuple[str, str]]:
    """The jurisdictions where the user is a gestor (the operator: all)."""
    acc = _access(request)
    if acc is None:
        return []
    rows = Jurisdiction.objects.filter(active=True).order_by("name")
    return [(j.code, j.name) for j in rows if acc.operator or acc.has_role(j.code, *MANAGER)]


REFUSAL = "Somente o gestor do órgão pode importar ou exportar o cadastro."


class Refused(PermissionDenied):
    pass


def _require_manager(request: HttpRequest, code: str | None = None) -> list[tuple[str, str]]:
    places = manager_jurisdictions(request)
    if not places or (code is not None and code not in {c for c, _ in places}):
        raise Refused(REFUSAL)
    return places


def refused_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "onboarding/register_refused.html",
        {"title": "Acesso negado", "message": REFUSAL},
        status=403,
    )


class _ManagerView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return super().dispatch(request, *args, **kwargs)
        except Refused:
            return refused_page(request)


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class UploadForm(forms.Form):
    jurisdiction = forms.ChoiceField(label="Jurisdição")
    files = MultipleFileField(  # type: ignore[assignment]
        label="Arquivos do cadastro",
        help_text="Um arquivo por tipo, com o nome do modelo: pessoas.csv, veiculos.xlsx…",
    )
    reason = forms.CharField(label="Motivo", initial=DEFAULT_REASON, max_length=300)

    def __init__(self, *args: Any, jurisdictions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["jurisdiction"].choices = jurisdictions  # type: ignore[attr-defined]

    def clean_files(self) -> list[Any]:
        files = self.cleaned_data["files"]
        names = [f.name for f in files]
        unknown = [n for n in names if n.lower() not in KNOWN_NAMES]
        if unknown:
            raise forms.ValidationError(
                f"Arquivo com nome fora dos modelos: {', '.join(unknown)}. Use os nomes dos modelos "
                "(pessoas, empresas, permissionarios, linhas, veiculos, seguros, permissoes, prepostos, "
                "vistorias, autos, debitos) com a extensão csv, xlsx ou ods."
            )
        if len({n.lower() for n in names}) != len(names):
            raise forms.ValidationError("O mesmo arquivo foi enviado duas vezes.")
        big = [f.name for f in files if f.size > MAX_BYTES]
        if big:
            raise forms.ValidationError(f"Arquivo grande demais (máximo de 50 MB): {', '.join(big)}.")
        return list(files)


def _staging_root() -> Path:
    return Path(settings.MEDIA_ROOT) / "onboarding"


def _staged(request: HttpRequest) -> dict[str, Any] | None:
    data = request.session.get(SESSION_KEY)
    if not data:
        return None
    directory = _staging_root() / data["token"]
    return data if directory.is_dir() else None


def _discard(request: HttpRequest) -> None:
    data = request.session.pop(SESSION_KEY, None)
    if data:
        shutil.rmtree(_staging_root() / data["token"], ignore_errors=True)


def _rows(report: Report) -> list[dict[str, Any]]:
    return [
        {
            "label": next(k.label for k in KINDS if k.name == name),
            "created": report.created[name],
            "updated": report.updated[name],
            "unchanged": report.unchanged[name],
        }
        for name in report.created
    ]


class RegisterImport(_ManagerView):
    """GET: the upload form and the templates; POST: stage the files and show the preview."""

    def page(self, request: HttpRequest, form: UploadForm, **extra: Any) -> HttpResponse:
        return render(
            request,
            "onboarding/register_import.html",
            {
                "title": "Importação do cadastro existente",
                "form": form,
                "kinds": KINDS,
                "formats": FORMATS,
                **extra,
            },
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        places = _require_manager(request)
        return self.page(request, UploadForm(jurisdictions=places))

    def post(self, request: HttpRequest) -> HttpResponse:
        places = _require_manager(request)
        form = UploadForm(request.POST, request.FILES, jurisdictions=places)
        if not form.is_valid():
            return self.page(request, form)
        _discard(request)
        token = uuid.uuid4().hex
        directory = _staging_root() / token
        directory.mkdir(parents=True)
        for upload in form.cleaned_data["files"]:
            with (directory / upload.name.lower()).open("wb") as out:
                for block in upload.chunks():
                    out.write(block)
        code = form.cleaned_data["jurisdiction"]
        reason = form.cleaned_data["reason"]
        jurisdiction = Jurisdiction.objects.get(code=code)
        report = import_register(
            jurisdiction=jurisdiction, directory=directory, actor=request.user, reason=reason, dry_run=True
        )
        request.session[SESSION_KEY] = {
            "token": token,
            "jurisdiction": code,
            "reason": reason,
            "files": report.files,
        }
        return render(
            request,
            "onboarding/register_preview.html",
            {
                "title": "Prévia da importação",
                "jurisdiction": jurisdiction,
                "report": report,
                "rows": _rows(report),
                "problems": [str(p) for p in report.errors],
                "files": sorted(report.files.items()),
            },
        )


class RegisterConfirm(_ManagerView):
    """POST: import the files of the preview (the same files: their hashes are compared)."""

    def post(self, request: HttpRequest) -> HttpResponse:
        data = _staged(request)
        if data is None:
            messages.error(request, "Não há importação em prévia: envie os arquivos novamente.")
            return redirect("onboarding:register")
        _require_manager(request, data["jurisdiction"])
        directory = _staging_root() / data["token"]
        jurisdiction = Jurisdiction.objects.get(code=data["jurisdiction"])
        report = import_register(
            jurisdiction=jurisdiction, directory=directory, actor=request.user, reason=data["reason"]
        )
        if report.files != data["files"]:  # pragma: no cover - the staged files are the server's own
            report.saved = False
        _discard(request)
        if report.saved:
            created = sum(report.created.values())
            updated = sum(report.updated.values())
            messages.success(
                request,
                f"Cadastro importado em {jurisdiction.name}: {created} registros criados, "
                f"{updated} alterados.",
            )
        return render(
            request,
            "onboarding/register_preview.html",
            {
                "title": "Resultado da importação",
                "jurisdiction": jurisdiction,
                "report": report,
                "rows": _rows(report),
                "problems": [str(p) for p in report.errors],
                "files": sorted(report.files.items()),
                "done": True,
            },
        )


def register_templates(request: HttpRequest) -> HttpResponse:
    """The blank files (one example row each) as a ZIP (`?formato=csv|xlsx|ods`)."""
    fmt = request.GET.get("formato", "")
    if not request.user.is_authenticated:
        return redirect(f"{settings.LOGIN_URL}?next={request.path}")
    try:
        _require_manager(request)
    except Refused:
        return refused_page(request)
    if fmt not in FORMATS:
        raise Http404("Formato desconhecido.")
    content = zip_bytes({f"{k.name}.{fmt}": render_file(template(k), fmt) for k in KINDS})
    response = HttpResponse(content, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="modelos-cadastro-{fmt}.zip"'
    return response


def register_export(request: HttpRequest) -> HttpResponse:
    """What the jurisdiction has, in the same files, as a ZIP (`?orgao=<id>&formato=csv|xlsx|ods`).
    The parameters are in the query, not the path: the path names no object of the register."""
    code = request.GET.get("orgao", "")
    fmt = request.GET.get("formato", "")
    if not request.user.is_authenticated:
        return redirect(f"{settings.LOGIN_URL}?next={request.path}")
    try:
        _require_manager(request, code)
    except Refused:
        return refused_page(request)
    if fmt not in FORMATS:
        raise Http404("Formato desconhecido.")
    with tempfile.TemporaryDirectory() as tmp:
        export_register(code=code, directory=Path(tmp), fmt=fmt)
        content = zip_bytes({p.name: p.read_bytes() for p in sorted(Path(tmp).iterdir())})
    response = HttpResponse(content, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="cadastro-{code}-{fmt}.zip"'
    return response
