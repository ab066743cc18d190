"""Every answer of the API that a test receives is checked against the operation's OpenAPI (issue 24).

`check(response)` finds the operation of the request (method and path template of
/api/openapi.json) and, for a success: the status must be one the operation declares; a JSON body
must validate against the declared schema with every object closed (a key the schema does not name
is a defect: the declaration would hide it from a generated client); a file must come under one of
the declared media types. Errors are problem details (tests/hardening/test_schemathesis.py).

tests/conftest.py runs it on every response of Django's test client to a path under /api/, so the
suite's existing calls of each operation (with real data, past the 404s a fuzzer mostly gets) are
all conformance checks too.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from typing import Any

import jsonschema_rs

API = "/api/"
# A file to append each checked success to (`GET /api/fines/{fine_id} 200`): which operations the
# suite's calls reach with a success, and so which declarations a real answer has checked.
LOG = os.environ.get("LOTACAO_CONFORMANCE_LOG", "")


@functools.cache
def document() -> dict[str, Any]:
    from lotacao.api.main import api

    return dict(json.loads(json.dumps(api.get_openapi_schema(), default=str)))


def _closed(schema: Any) -> Any:
    if isinstance(schema, dict):
        out = {key: _closed(value) for key, value in schema.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    return schema


@functools.cache
def _components() -> dict[str, Any]:
    return dict(_closed(copy.deepcopy(document().get("components", {}))))


@functools.cache
def _templates() -> list[tuple[re.Pattern[str], str]]:
    """(regex, template), literal paths before those with parameters (`/preview` before `/{id}`)."""
    found = []
    for template in document()["paths"]:
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        found.append((re.compile(f"^{pattern}$"), template))
    return sorted(found, key=lambda pair: (pair[1].count("{"), pair[1]))


def operation(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
    for pattern, template in _templates():
        item = document()["paths"][template]
        if method.lower() in item and pattern.match(path):
            return template, item[method.lower()]
    return None


@functools.cache
def _validator(template: str, method: str, status: str, media: str) -> Any:
    schema = document()["paths"][template][method]["responses"][status]["content"][media]["schema"]
    return jsonschema_rs.validator_for(
        {**_closed(schema), "components": _components()}, validate_formats=True
    )


def defects(method: str, path: str, status: int, content_type: str, body: bytes) -> list[str]:
    """What is wrong with this success answer, by the operation's declaration (empty: nothing)."""
    if not (200 <= status < 300) or not path.startswith(API):
        return []
    found = operation(method, path)
    if found is None:
        return []  # not an operation of the API (the docs page, the schema itself)
    template, declared = found
    responses = declared.get("responses", {})
    if str(status) not in responses:
        return [f"{method} {template}: answered {status}, declares {sorted(responses)}"]
    content = responses[str(status)].get("content") or {}
    media = content_type.split(";")[0].strip()
    if not content:
        return (
            [] if not body or status == 204 else [f"{method} {template}: {status} with a body, declares none"]
        )
    if media not in content:
        return [f"{method} {template}: {status} as {media!r}, declares {sorted(content)}"]
    if LOG:
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(f"{method} {template} {status}\n")
    if media != "application/json":
        return []
    validator = _validator(template, method.lower(), str(status), media)
    data = json.loads(body)
    return [
        f"{method} {template} {status}: {error.message} at {'/'.join(map(str, error.instance_path))}"
        for error in validator.iter_errors(data)
    ][:5]


def check(response: Any) -> None:
    request = getattr(response, "request", None) or {}
    path = request.get("PATH_INFO", "")
    if not path.startswith(API):
        return
    streaming = getattr(response, "streaming", False)  # a file: its media type only
    found = defects(
        request.get("REQUEST_METHOD", "GET"),
        path,
        response.status_code,
        response.get("Content-Type", ""),
        b"" if streaming else response.content,
    )
    assert not found, "The answer does not match the OpenAPI:\n" + "\n".join(found)
