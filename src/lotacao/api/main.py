"""The REST API (django-ninja): /api/, OpenAPI at /api/openapi.json, docs at /api/docs.

Each app exposes a `router` in its `api.py`; they are mounted here. Every router except the
public one requires a token or a session, and reads through the same scoped managers as the
screens, so tenancy and permissions are the same.
"""

from __future__ import annotations

from importlib import import_module

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError

from lotacao.api.auth import AUTH

api = NinjaAPI(
    title="Lotação",
    version="1",
    description="API do Lotação: cadastros, permissões, veículos e vistorias, e a consulta pública.",
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs",
    auth=AUTH,
)

# (prefix, module): each module defines `router`; the public one sets auth=None on its router.
ROUTERS = [
    ("/registry", "lotacao.registry.api"),
    ("/permits", "lotacao.permits.api"),
    ("/documents", "lotacao.documents.api"),
    ("/inspections", "lotacao.inspections.api"),
    ("/infraction-notices", "lotacao.enforcement.api"),
    ("", "lotacao.enforcement.api_measures"),  # /infraction-notices/{id}/measures, /measures/...
    ("/fines", "lotacao.enforcement.api_fines"),
    ("/due-process", "lotacao.enforcement.api_process"),
    ("/public", "lotacao.public.api"),
]
for prefix, module in ROUTERS:
    api.add_router(prefix, import_module(module).router)


@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    return api.create_response(request, {"detail": exc.messages}, status=422)


@api.exception_handler(AuthenticationError)
def auth_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return api.create_response(request, {"detail": "Autenticação necessária (token ou sessão)."}, status=401)


__all__ = ["HttpError", "api"]
