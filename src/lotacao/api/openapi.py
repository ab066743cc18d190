"""The OpenAPI declares every status an operation answers, with the problem-details body.

django-ninja writes only the success statuses of each `response=` mapping; the errors every
operation can answer come from shared machinery (lotacao.core.middleware, the exception handlers
of lotacao.api.main, authentication, throttling, `get_object_or_404`), so they are declared here,
from what each operation is, instead of by hand in 61 mappings (where ninja would also start
choosing a view's success status differently: with one entry it answers that entry's status):

| status | declared on |
|---|---|
| 400 | every operation (a NUL character, a number the database cannot hold, a body that is not JSON) |
| 401, 403 | operations that require a token or a session |
| 404 | every operation (a row named in the path or body is not there or out of scope; an unknown path) |
| 409 | operations that read the `Idempotency-Key` header (the first request is still running) |
| 422 | every operation (pydantic's input errors and the law's refusals) |
| 429 | operations with a throttle |

An operation may declare more in its `response=` mapping (those stay as written).
"""

from __future__ import annotations

from typing import Any

from ninja import Schema
from ninja.openapi.schema import OpenAPISchema
from ninja.operation import Operation

from lotacao.core.problems import MEDIA_TYPE, TITLES

PROBLEM_REF = "#/components/schemas/Problem"


class Problem(Schema):
    """Detalhes do problema (RFC 9457), em português."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[str] | None = None


DESCRIPTIONS = {
    400: "Requisição inválida (caractere nulo, número fora do intervalo ou corpo ilegível).",
    401: "Autenticação necessária (token ou sessão).",
    403: "O perfil não permite esta operação nesta jurisdição.",
    404: "Não encontrado (ou fora do alcance de quem pergunta).",
    409: "A primeira requisição com esta chave de idempotência ainda está em andamento.",
    422: "Dados recusados: cada motivo em `errors`.",
    429: "Muitas requisições: aguarde o tempo de Retry-After.",
}


def error_statuses(operation: Operation) -> set[int]:
    statuses = {400, 404, 422}
    if operation.auth_callbacks:
        statuses |= {401, 403}
    if any(
        getattr(param, "alias", None) == "Idempotency-Key"
        for model in operation.models
        for param in model.model_fields.values()
    ):
        statuses.add(409)
    if operation.throttle_objects:
        statuses.add(429)
    return statuses


class LotacaoOpenAPISchema(OpenAPISchema):
    def get_components(self) -> dict[str, Any]:
        components: dict[str, Any] = super().get_components()
        schema = Problem.model_json_schema()
        schema.pop("title", None)
        components.setdefault("schemas", {})["Problem"] = schema
        return components

    def responses(self, operation: Operation) -> dict[int, Any]:
        result: dict[int, Any] = super().responses(operation)
        for status, declared in result.items():
            # An error an operation declares itself (`response={422: ProblemOut}`) is sent as a
            # problem (core.problems), so its body is declared under the problem's media type.
            content = declared.get("content") if isinstance(declared, dict) else None
            if int(status) >= 400 and content and "application/json" in content:
                declared["content"] = {MEDIA_TYPE: content.pop("application/json")}
        for status in sorted(error_statuses(operation)):
            result.setdefault(
                status,
                {
                    "description": DESCRIPTIONS.get(status, TITLES.get(status, "Erro")),
                    "content": {MEDIA_TYPE: {"schema": {"$ref": PROBLEM_REF}}},
                },
            )
        return result
