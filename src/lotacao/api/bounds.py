"""Every integer and every date an API operation takes is bounded, in one place (issue 25).

`bound_operations(api)` runs once, after the routers are mounted (lotacao.api.main): it walks the
input models of every operation (path, query, header and body parameters, and the schemas nested in
them) and replaces, in each field's type,

- `int` by `Int64` (from -2⁶³ to 2⁶³-1, what SQLite and PostgreSQL hold): a `?holder=` of 35 digits
  is a 422 naming the parameter, never an `OverflowError`;
- `datetime.date` by `Day`: a text `AAAA-MM-DD` only (pydantic's lax mode took `0` or
  `"2025-01-01T00:00:00"` as a date) within the horizon of lotacao.core.horizon (01/01/1900 to
  50 years ahead);
- `datetime.datetime` by `Moment`: an ISO 8601 text (not a number of seconds) within the horizon.

The bounds a field declares itself (`ge=1`, `le=500`) still apply. The OpenAPI shows the bounds
(`minimum`, `maximum`, `format`), so a client — and the fuzz tests — see them. A new operation of
any app gets them without doing anything; the operations' own types stay plain `int` and `dt.date`.
"""

from __future__ import annotations

import datetime as dt
import functools
import operator
import re
import types
import typing
from collections.abc import Iterator
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from lotacao.core.horizon import EARLIEST, INT64_MAX, INT64_MIN, latest, within_horizon

DAY_TEXT = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MOMENT_TEXT = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}.*)?$")


def _typed_day(value: Any) -> Any:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str) and DAY_TEXT.match(value):
        return value
    raise PydanticCustomError("date_parsing", "not a YYYY-MM-DD date")


def _typed_moment(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, str) and MOMENT_TEXT.match(value):
        return value
    raise PydanticCustomError("datetime_parsing", "not an ISO 8601 date-time")


def _in_horizon(value: Any) -> Any:
    if not within_horizon(value):
        raise PydanticCustomError(
            "date_horizon",
            "date out of range",
            {"earliest": f"{EARLIEST:%d/%m/%Y}", "latest": f"{latest():%d/%m/%Y}"},
        )
    return value


Int64 = Annotated[int, Field(ge=INT64_MIN, le=INT64_MAX)]
Day = Annotated[dt.date, BeforeValidator(_typed_day), AfterValidator(_in_horizon)]
Moment = Annotated[dt.datetime, BeforeValidator(_typed_moment), AfterValidator(_in_horizon)]

REPLACEMENTS: dict[Any, Any] = {int: Int64, dt.date: Day, dt.datetime: Moment}
BOUNDED = "__lotacao_bounded__"


def bounded(annotation: Any, seen: set[type]) -> Any:
    """`annotation` with int, date and datetime replaced, nested models bounded in place."""
    if annotation in REPLACEMENTS:
        return REPLACEMENTS[annotation]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        bound_model(annotation, seen)
        return annotation
    origin = typing.get_origin(annotation)
    if origin is None:
        return annotation
    args = typing.get_args(annotation)
    if origin is Annotated:
        return Annotated[(bounded(args[0], seen), *annotation.__metadata__)]
    if origin is typing.Literal:
        return annotation
    new = tuple(bounded(arg, seen) for arg in args)
    if new == args:
        return annotation
    if origin is typing.Union:
        return typing.Union[new]  # noqa: UP007 (built from a tuple)
    if origin is types.UnionType:
        return functools.reduce(operator.or_, new)
    try:
        return origin[new if len(new) > 1 else new[0]]
    except TypeError:  # a collections.abc origin that is not subscriptable this way
        return annotation


def bound_model(model: type[BaseModel], seen: set[type]) -> None:
    """Bound `model`'s fields in place and rebuild its validator (once per model)."""
    if model in seen or getattr(model, BOUNDED, False):
        return
    seen.add(model)
    for field in model.model_fields.values():
        field.annotation = bounded(field.annotation, seen)  # nested models are bounded first
    model.model_rebuild(force=True)  # always: a nested model's validator may have changed
    setattr(model, BOUNDED, True)


def _routers(router: Any) -> Iterator[Any]:
    yield router
    for child in getattr(router, "_routers", []):
        yield from _routers(child[1])


def operations(api: Any) -> Iterator[Any]:
    for _prefix, router in api._routers:
        for each in _routers(router):
            for path_view in each.path_operations.values():
                yield from path_view.operations


def bound_operations(api: Any) -> int:
    """Bound the input models of every operation of `api`; returns how many models it touched."""
    seen: set[type] = set()
    for operation in operations(api):
        for model in operation.models:
            bound_model(model, seen)
    return len(seen)
