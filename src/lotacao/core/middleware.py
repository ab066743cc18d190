"""Request hygiene for every screen and API operation.

- `BadInputMiddleware` refuses, before any view runs, input no field can take: a NUL character
  (``%00``) in the path, the query string, a form field or a JSON body. PostgreSQL cannot store or
  compare text with NUL (it raised a 500 on ``?q=%00``), and no Portuguese text has one. It also
  turns a number too large for the database (an id of 30 digits in a path) into a 400 instead of
  a 500. The answer is a Portuguese 400: a problem-details body on the API, a short page elsewhere.
- `NoStoreMiddleware` sends ``Cache-Control: no-store`` on every page a signed-in person sees and
  on every API answer that is not public, so personal data never rests in a shared or browser
  cache.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DataError
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.html import escape

from lotacao.core.problems import MEDIA_TYPE, problem
from lotacao.law.errors import CaseError

NUL = "\x00"
NUL_MESSAGE = (
    "A requisição contém um caractere nulo (NUL), que nenhum campo aceita. "
    "Corrija o texto digitado e tente de novo."
)
OUT_OF_RANGE_MESSAGE = (
    "Um número informado está fora do intervalo aceito (identificador ou valor grande demais)."
)
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
API_PREFIX = "/api/"
PUBLIC_API_PREFIX = "/api/public/"


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _query_has_nul(query: Any) -> bool:
    return any(NUL in key or any(NUL in v for v in values) for key, values in query.lists())


def request_has_nul(request: HttpRequest) -> bool:
    """Whether the path, the query string, a form field or a JSON body carries a NUL character."""
    if NUL in request.path_info or _query_has_nul(request.GET):
        return True
    content_type = request.content_type or ""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return False
    if content_type in FORM_TYPES:
        return _query_has_nul(request.POST)
    if content_type.endswith("json"):
        body = request.body
        if b"\x00" in body:
            return True
        if b"\\u0000" in body:
            try:
                return _has_nul(json.loads(body))
            except ValueError:
                return False  # not JSON: the view refuses it with its own message
    return False


def _bad_request(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    if request.path_info.startswith(API_PREFIX):
        return problem(status, message)
    title = "Dados recusados" if status == 422 else "Requisição inválida"
    page = (
        '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">'
        f"<title>{title}</title></head><body><h1>{title}</h1>"
        f"<p>{escape(message)}</p><p><a href=\"/\">Voltar ao início</a></p></body></html>"
    )
    return HttpResponse(page, status=status, content_type="text/html; charset=utf-8")


NOT_ALLOWED = "Método não permitido neste endereço da API: use {allowed}."


def _not_allowed(response: HttpResponse) -> HttpResponse:
    """A 405 of the API (django-ninja's and Django's are plain text) as problem details, with the
    same `Allow` header."""
    if response.get("Content-Type", "").startswith(MEDIA_TYPE):
        return response
    allowed = response.get("Allow", "")
    answer = problem(405, NOT_ALLOWED.format(allowed=allowed or "outro método"))
    if allowed:
        answer["Allow"] = allowed
    return answer


class BadInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request_has_nul(request):
            return _bad_request(request, NUL_MESSAGE)
        response = self.get_response(request)
        if response.status_code == 405 and request.path_info.startswith(API_PREFIX):
            return _not_allowed(response)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # A value the database cannot hold (a bigint overflow on PostgreSQL, an int too large for
        # SQLite): the input was wrong, not the server.
        if isinstance(exception, OverflowError | DataError):
            return _bad_request(request, OUT_OF_RANGE_MESSAGE)
        # The last line of defence for a refusal no view turned into a form error: an engine
        # error (a date before the law) or a validation error is a 422 with its message, never a
        # 500. Views should still catch them and show the form again (see lotacao.core.law).
        if isinstance(exception, CaseError):
            return _bad_request(request, exception.message, status=422)
        if isinstance(exception, ValidationError):
            return _bad_request(request, " ".join(exception.messages), status=422)
        return None


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: on the API, a problem-details 404 (a path no operation matches, such as a
    negative id); elsewhere Django's own page."""
    if request.path_info.startswith(API_PREFIX):
        return problem(404, "Não encontrado: nenhuma operação da API responde neste endereço.")
    from django.views.defaults import page_not_found

    return page_not_found(request, exception or Exception())


class NoStoreMiddleware:
    """`Cache-Control: no-store` for signed-in pages and the non-public API."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        path = request.path_info
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        private_api = path.startswith(API_PREFIX) and not path.startswith(PUBLIC_API_PREFIX)
        if signed_in or private_api:
            if "Cache-Control" in response:
                del response["Cache-Control"]
            patch_cache_control(response, no_store=True, private=True)
        return response
