"""API errors as problem details (RFC 9457), in Portuguese: `type`, `title`, `status`, `detail`.

A refused write (a Django `ValidationError`, an engine `LawError`) is a 422 whose `detail` joins
the messages and whose `errors` lists each one, so a client can show them one per line.
"""

from __future__ import annotations

from django.http import JsonResponse

MEDIA_TYPE = "application/problem+json"

TITLES = {
    400: "Requisição inválida",
    401: "Autenticação necessária",
    403: "Acesso negado",
    404: "Não encontrado",
    405: "Método não permitido",
    409: "Conflito",
    422: "Dados recusados",
    429: "Muitas requisições",
}


def problem_body(status: int, detail: str, errors: list[str] | None = None) -> dict[str, object]:
    body: dict[str, object] = {
        "type": "about:blank",
        "title": TITLES.get(status, "Erro"),
        "status": status,
        "detail": detail,
    }
    if errors is not None:
        body["errors"] = errors
    return body


def refusal_body(messages: list[str]) -> dict[str, object]:
    """The 422 body for a validation error's messages."""
    return problem_body(422, " ".join(messages), errors=list(messages))


def problem(status: int, detail: str, errors: list[str] | None = None) -> JsonResponse:
    body = problem_body(status, detail, errors)
    return JsonResponse(
        body, status=status, content_type=MEDIA_TYPE, json_dumps_params={"ensure_ascii": False}
    )


def refused(messages: list[str]) -> JsonResponse:
    """A 422 for a validation error's messages."""
    return problem(422, " ".join(messages), errors=list(messages))
