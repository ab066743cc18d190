"""Every operation of /api/openapi.json declares what it answers (issue 24, "A complete OpenAPI").

A walk over the generated document, with no request made: each operation has an ASCII, unique
operationId and ASCII tags; at least one 2xx answer; each 2xx answer (but a 204/304 without a
body) has a media type and a real schema — for JSON an object with its properties (or a list of
such), for a file (the GTFS zip, a PDF) a binary string under its own media type; and every 4xx
is problem details (`application/problem+json`, the shared ProblemDetail schema).

That the bodies actually sent validate against these schemas is checked by the fuzzers
(tests/api/test_fuzz.py, tests/hardening/test_schemathesis.py: `response_schema_conformance`) and
by tests/api/test_generated_client.py, which calls the API through a generated client.
"""

from __future__ import annotations

import typing
from typing import Any

import pytest
from django.test import Client
from pydantic import BaseModel

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
PROBLEM = "application/problem+json"
PROBLEM_REF = "#/components/schemas/ProblemDetail"
BODILESS = {"204", "304"}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    # The document is built from the routers only (no database read): an anonymous request works.
    response = Client().get("/api/openapi.json")
    assert response.status_code == 200
    return dict(response.json())


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        schema = document["components"]["schemas"][name]
    return schema


def _real_json(document: dict[str, Any], schema: dict[str, Any]) -> bool:
    """An object with its properties, or a list of those: what a client can turn into a model."""
    schema = _resolve(document, schema)
    if "anyOf" in schema or "oneOf" in schema:
        options = schema.get("anyOf") or schema.get("oneOf")
        return all(_real_json(document, option) for option in options)
    if schema.get("type") == "array":
        return _real_json(document, schema.get("items") or {})
    return schema.get("type") == "object" and bool(schema.get("properties"))


def _is_json(media: str) -> bool:
    return media == "application/json" or media.endswith("+json")


def success_defects(document: dict[str, Any], operation: dict[str, Any]) -> list[str]:
    successes = {s: r for s, r in operation.get("responses", {}).items() if str(s).startswith("2")}
    if not successes:
        return ["no 2xx response"]
    defects = []
    for status, response in successes.items():
        if str(status) in BODILESS:
            continue
        content = response.get("content") or {}
        if not content:
            defects.append(f"{status}: no media type")
        for media, body in content.items():
            schema = body.get("schema") or {}
            if _is_json(media):
                if not _real_json(document, schema):
                    defects.append(f"{status} {media}: no schema with properties ({schema})")
            elif _resolve(document, schema).get("format") != "binary":
                defects.append(f"{status} {media}: not declared as a binary string ({schema})")
    return defects


def error_defects(operation: dict[str, Any]) -> list[str]:
    defects = []
    for status, response in operation.get("responses", {}).items():
        if not str(status).startswith("4"):
            continue
        content = response.get("content") or {}
        if list(content) != [PROBLEM] or content[PROBLEM].get("schema") != {"$ref": PROBLEM_REF}:
            defects.append(f"{status}: not {PROBLEM} with ProblemDetail ({content})")
    return defects


def name_defects(operation: dict[str, Any], seen: dict[str, str], where: str) -> list[str]:
    defects = []
    operation_id = operation.get("operationId") or ""
    if not operation_id or not operation_id.isascii():
        defects.append(f"operationId {operation_id!r} missing or not ASCII")
    elif operation_id in seen:
        defects.append(f"operationId {operation_id!r} also used by {seen[operation_id]}")
    seen[operation_id] = where
    tags = operation.get("tags") or []
    if not tags or not all(tag.isascii() for tag in tags):
        defects.append(f"tags {tags!r} missing or not ASCII")
    return defects


def audit(document: dict[str, Any]) -> dict[str, list[str]]:
    """`METHOD /path` -> what its declaration lacks (only the operations that lack something)."""
    seen: dict[str, str] = {}
    found: dict[str, list[str]] = {}
    for method, path, operation in _operations(document):
        where = f"{method} {path}"
        defects = (
            success_defects(document, operation)
            + error_defects(operation)
            + name_defects(operation, seen, where)
        )
        if defects:
            found[where] = defects
    return found


def test_every_operation_declares_its_answers(document: dict[str, Any]) -> None:
    operations = _operations(document)
    assert len(operations) >= 60
    found = audit(document)
    without_success = [
        where
        for where, defects in found.items()
        if any(d[:1] == "2" or d.startswith("no 2xx") for d in defects)
    ]
    assert not found, (
        f"{len(without_success)} of {len(operations)} operations without a 2xx schema; "
        f"{len(found)} with a defect:\n" + "\n".join(f"{w}: {'; '.join(d)}" for w, d in found.items())
    )


def test_every_tag_is_described(document: dict[str, Any]) -> None:
    """The tags (ASCII for the clients) are listed with their Portuguese name for the docs."""
    used = {tag for _m, _p, operation in _operations(document) for tag in operation.get("tags", [])}
    described = {tag["name"]: tag.get("description", "") for tag in document.get("tags", [])}
    assert used <= set(described), sorted(used - set(described))
    assert all(described[tag] for tag in used)


def test_the_audit_finds_each_kind_of_defect() -> None:
    """The audit itself can fail: an operation with each defect is named."""
    document = {
        "components": {"schemas": {"Bare": {"type": "object"}}},
        "paths": {
            "/a": {"get": {"operationId": "a", "tags": ["x"], "responses": {"200": {"description": "ok"}}}},
            "/b": {"get": {"operationId": "a", "tags": ["público"], "responses": {}}},
            "/c": {
                "get": {
                    "operationId": "c",
                    "tags": ["x"],
                    "responses": {
                        "200": {
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Bare"}}}
                        },
                        "404": {"content": {"application/json": {"schema": {}}}},
                    },
                }
            },
            "/d": {
                "get": {
                    "operationId": "d",
                    "tags": ["x"],
                    "responses": {"200": {"content": {"application/zip": {"schema": {"type": "string"}}}}},
                }
            },
            "/e": {
                "get": {
                    "operationId": "e",
                    "tags": ["x"],
                    "responses": {
                        "200": {
                            "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}
                        },
                        "422": {"content": {PROBLEM: {"schema": {"$ref": PROBLEM_REF}}}},
                    },
                }
            },
        },
    }
    found = audit(document)
    assert set(found) == {"GET /a", "GET /b", "GET /c", "GET /d"}
    assert found["GET /a"] == ["200: no media type"]
    assert "no 2xx response" in found["GET /b"]
    assert any("also used by GET /a" in d for d in found["GET /b"])
    assert any("not ASCII" in d for d in found["GET /b"])
    assert any(d.startswith("200 application/json") for d in found["GET /c"])
    assert any(d.startswith("404") for d in found["GET /c"])
    assert any("binary" in d for d in found["GET /d"])


def _models(annotation: Any, found: set[type]) -> None:
    """The pydantic models in a field's type, and the models nested in their fields."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in found:
            return
        found.add(annotation)
        for field in annotation.model_fields.values():
            _models(field.annotation, found)
        return
    for argument in typing.get_args(annotation):
        _models(argument, found)


def test_no_two_schemas_share_a_component_name() -> None:
    """django-ninja names a component after its class alone, so two `DecisionIn` of two apps are
    one component: an operation would declare the other app's body or answer."""
    from lotacao.api.bounds import operations
    from lotacao.api.main import api

    found: set[type] = set()
    for each in operations(api):
        for model in each.models:
            _models(model, found)
        for model in each.response_models.values():
            if isinstance(model, type) and issubclass(model, BaseModel):
                _models(model, found)
    by_name: dict[str, set[str]] = {}
    for model in found:
        if model.__module__.startswith("lotacao.") and model.__module__ != "ninja.signature.details":
            by_name.setdefault(model.__name__, set()).add(f"{model.__module__}.{model.__qualname__}")
    shared = {name: sorted(where) for name, where in by_name.items() if len(where) > 1}
    assert not shared, shared
