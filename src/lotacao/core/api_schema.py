"""What every API operation shares in its OpenAPI declaration (issue 24): the problem-details body
of its errors and the declaration of a file it answers (a GTFS zip, a PDF, an uploaded document).

Each app's `api.py` declares its own success schemas (ninja `Schema` classes) next to its views;
lotacao.api.openapi declares every error status with `ProblemDetail` under
`application/problem+json` (the body lotacao.core.problems sends).
"""

from __future__ import annotations

from typing import Any

from ninja import Schema

from lotacao.core.problems import MEDIA_TYPE


class ProblemDetail(Schema):
    """Detalhes do problema (RFC 9457), em português: `errors` lista cada motivo de uma recusa."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[str] | None = None


PROBLEM_RESPONSE = {"content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/ProblemDetail"}}}}


def file_response(description: str, *media_types: str, status: int = 200) -> dict[str, Any]:
    """An operation's `openapi_extra` for a file answer: a binary body under each media type."""
    binary = {"schema": {"type": "string", "format": "binary"}}
    return {
        "responses": {
            status: {"description": description, "content": {media: dict(binary) for media in media_types}}
        }
    }
