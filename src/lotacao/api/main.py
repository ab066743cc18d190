"""The REST API (django-ninja): /api/, OpenAPI at /api/openapi.json, docs at /api/docs.

Each app exposes a `router` in its `api.py`; they are mounted here. Every router except the
public one requires a token or a session, and reads through the same scoped managers as the
screens, so tenancy and permissions are the same.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled
from ninja.errors import ValidationError as InputError

from lotacao.api.auth import AUTH
from lotacao.api.bounds import bound_operations
from lotacao.api.openapi import LotacaoOpenAPISchema
from lotacao.authorizations import api as authorizations_api
from lotacao.billing import api as billing_api
from lotacao.chartering import api as chartering_api
from lotacao.core.problems import problem, refused
from lotacao.councils import api as councils_api
from lotacao.delegation import api as delegation_api
from lotacao.documents import api as documents_api
from lotacao.duties import api as duties_api
from lotacao.enforcement.due_process import api as api_process
from lotacao.enforcement.notices import api as enforcement_api
from lotacao.enforcement.sanctions import api_fines, api_measures
from lotacao.holder_requests import api as holder_requests_api
from lotacao.inspections import api as inspections_api
from lotacao.law.errors import CaseError
from lotacao.lines import api as lines_api
from lotacao.ombudsman import api as ombudsman_api
from lotacao.permits import api as permits_api
from lotacao.portal import api as portal_api
from lotacao.public import api as public_api
from lotacao.registry import api as registry_api
from lotacao.rosters import api as rosters_api
from lotacao.tenders import api as tenders_api
from lotacao.training import api as training_api


class LotacaoAPI(NinjaAPI):
    """Its OpenAPI declares every error status an operation answers (lotacao.api.openapi)."""

    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None
    ) -> LotacaoOpenAPISchema:
        if path_prefix is None:
            path_prefix = self.get_root_path(path_params or {})
        return LotacaoOpenAPISchema(self, path_prefix)


api = LotacaoAPI(
    title="Lotação",
    version="1",
    description="API do Lotação: cadastros, permissões, veículos e vistorias, e a consulta pública.",
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs",
    auth=AUTH,
)

# (prefix, router): the public router sets auth=None itself. It comes first: its plate check is
# the most asked path of all, and Django tries an API's paths in this order.
ROUTERS = [
    ("/public", public_api.router),
    ("/registry", registry_api.router),
    ("/permits", permits_api.router),
    ("/documents", documents_api.router),
    ("/inspections", inspections_api.router),
    ("/lines", lines_api.router),
    ("/infraction-notices", enforcement_api.router),
    ("", api_measures.router),  # /infraction-notices/{id}/measures, /measures/...
    ("/fines", api_fines.router),
    ("/due-process", api_process.router),
    ("/billing", billing_api.router),
    ("/chartering", chartering_api.router),
    # New apps mount at the root and declare whole paths (/portal/…, /public/complaints…).
    ("", portal_api.router),
    ("", duties_api.router),
    ("", holder_requests_api.router),
    ("", ombudsman_api.router),
    ("/councils", councils_api.router),
    ("/rosters", rosters_api.router),
    ("/tenders", tenders_api.router),
    ("/delegation", delegation_api.router),
    ("", authorizations_api.router),  # /service-authorizations…
    ("/training", training_api.router),
]
for prefix, router in ROUTERS:
    api.add_router(prefix, router)

# Every integer and date parameter of every operation is bounded (64 bits; 1900 to 50 years ahead).
bound_operations(api)


# Every error is a problem-details body in Portuguese (lotacao.core.problems).
@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    return refused(exc.messages)


# An engine error no service turned into a validation error (lotacao.core.law does it for the
# pack and the cases it hands out): still a 422 with the engine's Portuguese message.
@api.exception_handler(CaseError)
def engine_error(request: HttpRequest, exc: CaseError) -> HttpResponse:
    return refused([exc.message])


# What pydantic says of a parameter or a field, in Portuguese (its English `msg` is never shown).
INPUT_MESSAGES = {
    "missing": "é obrigatório",
    "greater_than_equal": "deve ser maior ou igual a {ge}",
    "greater_than": "deve ser maior que {gt}",
    "less_than_equal": "deve ser menor ou igual a {le}",
    "less_than": "deve ser menor que {lt}",
    "int_parsing": "deve ser um número inteiro",
    "int_type": "deve ser um número inteiro",
    "int_from_float": "deve ser um número inteiro",
    "float_parsing": "deve ser um número",
    "decimal_parsing": "deve ser um número",
    "bool_parsing": "deve ser verdadeiro ou falso",
    "string_type": "deve ser um texto",
    "string_too_long": "tem mais de {max_length} caracteres",
    "string_too_short": "deve ter pelo menos {min_length} caracteres",
    "date_parsing": "deve ser uma data no formato AAAA-MM-DD",
    "date_horizon": "deve ser uma data entre {earliest} e {latest}",
    "date_from_datetime_parsing": "deve ser uma data no formato AAAA-MM-DD",
    "datetime_parsing": "deve ser uma data e hora no formato ISO 8601",
    "datetime_from_date_parsing": "deve ser uma data e hora no formato ISO 8601",
    "literal_error": "não é um dos valores aceitos",
    "enum": "não é um dos valores aceitos",
    "list_type": "deve ser uma lista",
    "dict_type": "deve ser um objeto",
    "model_attributes_type": "deve ser um objeto",
    "json_invalid": "não é um JSON válido",
}


def input_message(error: dict[str, object]) -> str:
    """One pydantic error as a Portuguese sentence naming the field (`body.reason`, `query.limit`)."""
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "payload") or "requisição"  # type: ignore[attr-defined]
    template = INPUT_MESSAGES.get(str(error.get("type", "")), "tem um valor inválido")
    context = error.get("ctx") or {}
    try:
        text = template.format(**context)  # type: ignore[arg-type]
    except (KeyError, IndexError, ValueError):
        text = "tem um valor inválido"
    return f"{where}: {text}."


@api.exception_handler(InputError)
def input_error(request: HttpRequest, exc: InputError) -> HttpResponse:
    return refused([input_message(error) for error in exc.errors])


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return problem(exc.status_code, str(exc))


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return problem(404, "Não encontrado (ou fora do alcance do seu perfil).")


@api.exception_handler(Throttled)
def throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    response = problem(429, "Muitas requisições: aguarde alguns instantes e tente de novo.")
    if getattr(exc, "wait", None):
        response["Retry-After"] = str(max(1, int(exc.wait or 1)))
    return response


@api.exception_handler(AuthenticationError)
def auth_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return problem(401, "Autenticação necessária (token ou sessão).")


__all__ = ["HttpError", "api"]
