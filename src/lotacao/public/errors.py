"""Real error pages in Portuguese (templates `404.html` and `500.html`), even with DEBUG on.

With DEBUG on, Django answers a 404 with its technical page (which lists every URL pattern) and
an error with the traceback, and never calls `handler404`/`handler500`. The demo runs with DEBUG on
(`make demo`) and is shown to people, so this middleware, the innermost of the list, gives the
same pages the production installation gives: a 404 through `core.middleware.not_found` (a
problem-details body on the API) and a 500 page (the error still goes to the log with its
traceback). `LOTACAO_DEBUG_ERROR_PAGES=1` brings Django's technical pages back for a developer.
Without DEBUG it does nothing: Django calls the handlers itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.defaults import server_error

from lotacao.core.middleware import not_found

log = logging.getLogger("django.request")
MARK = "_lotacao_error_page"


def _active() -> bool:
    return bool(settings.DEBUG) and not getattr(settings, "LOTACAO_DEBUG_ERROR_PAGES", False)


class ErrorPagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            _active()
            and response.status_code == 404
            and not getattr(response, MARK, False)
            and response.get("Content-Type", "").startswith("text/html")
            and b"NONE,NOARCHIVE" in _head(response)  # Django's technical 404 page
        ):
            return self._not_found(request, None)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not _active():
            return None
        if isinstance(exception, Http404):
            return self._not_found(request, exception)
        if getattr(exception, "status_code", None) is not None or type(exception).__module__.startswith(
            "django.core.exceptions"
        ):
            return None  # PermissionDenied, SuspiciousOperation, BadRequest: Django's own answers
        log.error("Erro interno: %s", request.path, exc_info=exception, extra={"status_code": 500})
        response = server_error(request)
        setattr(response, MARK, True)
        return response

    def _not_found(self, request: HttpRequest, exception: Exception | None) -> HttpResponse:
        response = not_found(request, exception)
        setattr(response, MARK, True)
        return response


def _head(response: HttpResponse) -> bytes:
    if response.streaming:
        return b""
    return bytes(response.content[:2000])
