"""The Django side's door to the rules engine (lotacao.law, pure Python).

Every application call goes through here so that the values an agency supplied (`AgencyValue`:
what the law leaves undefined, or the agency's own acts) are layered on the law's own, the same
way everywhere: `pack_for(code)` for parameters and catalogues, `evaluate_case(case)` for the
engine's decisions. A process keeps the layered pack for a few seconds (`TTL`); a write in this
process refreshes it at once, other processes within the TTL.

One lookup, one meaning: `entry(code, parameter, on)` is the dated entry in force (its status says
whether the law gives a value, leaves it undefined or repealed it), or None when the law does not
regulate the matter at all; `value(...)` is that entry's value, or None for any of those cases.

An engine error is a validation error: a case the engine cannot answer (a date before the law
took effect, a value of the wrong type) raises `LawError`, a Django `ValidationError` with the
engine's Portuguese message, which the API answers with 422 and a screen shows as a form error.
"""

from __future__ import annotations

import copy
import datetime as dt
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from django.core.exceptions import ValidationError

from lotacao.law import evaluate as engine
from lotacao.law.errors import CaseError
from lotacao.law.packs import Entry, Pack, get_pack
from lotacao.law.results import DeadlineResult, PenaltyResult

T = TypeVar("T")


class LawError(ValidationError, CaseError):  # type: ignore[misc]  # same attributes, same meaning
    """The engine could not answer (`code` and `field` as the engine gave them). Both a Django
    validation error (views and the API refuse with it) and a CaseError (engine code that catches
    its own error still does)."""

    def __init__(self, error: CaseError) -> None:
        ValidationError.__init__(self, error.message, code=error.code)
        self.engine_code = error.code
        self.field = error.field


def _before_the_law(pack: Pack, on: dt.date) -> LawError:
    return LawError(
        CaseError(
            "date_before_law",
            f"A data {on:%d/%m/%Y} é anterior à vigência da lei: a {pack.law} vale desde "
            f"{pack.start:%d/%m/%Y}.",
        )
    )


@contextmanager
def _engine_errors() -> Iterator[None]:
    try:
        yield
    except CaseError as error:
        raise LawError(error) from error


def _guarded(call: Callable[[], T]) -> T:
    with _engine_errors():
        return call()


class DjangoPack(Pack):
    """The pack as the Django side reads it (`pack_for`): a day the law does not reach is a
    `LawError` (a validation error, so a 422 or a form error), never the engine's bare CaseError."""

    def resolve(self, name: str, day: dt.date) -> Entry:
        if day < self.start:
            raise _before_the_law(self, day)
        try:
            return super().resolve(name, day)
        except CaseError as error:
            if error.code != "date_before_law":
                raise LawError(error) from error
            raise LawError(
                CaseError(
                    error.code,
                    f"A data {day:%d/%m/%Y} é anterior à vigência desta regra da {self.law}.",
                    error.field,
                )
            ) from error


def _for_django(pack: Pack) -> Pack:
    """A copy of `pack` whose `resolve` refuses with a LawError (the engine's own stays as is)."""
    guarded = copy.copy(pack)
    guarded.__class__ = DjangoPack
    guarded._cache = {}
    return guarded


TTL = 5.0
_CACHE: dict[str, tuple[float, dict[str, list[dict[str, Any]]], Pack]] = {}


def agency_overrides(code: str) -> dict[str, list[dict[str, Any]]]:
    """The agency's live values for a jurisdiction, in the engine's override shape."""
    from lotacao.core.models import AgencyValue

    rows = (
        AgencyValue.unscoped.filter(jurisdiction_id=code, annulled_at__isnull=True)
        .select_related("created_by")
        .order_by("parameter", "valid_from")
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by = row.created_by.get_username() if row.created_by else "órgão gestor"
        out.setdefault(row.parameter, []).append(
            {"from": row.valid_from.isoformat(), "value": row.value, "cite": row.cite, "by": by}
        )
    return out


def _layered(code: str) -> tuple[dict[str, list[dict[str, Any]]], Pack]:
    hit = _CACHE.get(code)
    now = time.monotonic()
    if hit is not None and now - hit[0] < TTL:
        return hit[1], hit[2]
    overrides = agency_overrides(code)
    pack = _for_django(get_pack(code).with_overrides(overrides) if overrides else get_pack(code))
    _CACHE[code] = (now, overrides, pack)
    return overrides, pack


def forget(code: str) -> None:
    """Drop this process's layered pack (after the agency changed a value)."""
    _CACHE.pop(code, None)


def pack_for(code: str) -> Pack:
    """The jurisdiction's pack with the agency's values layered on it."""
    return _layered(code)[1]


def next_change(code: str, day: dt.date) -> dt.date | None:
    """The first day after `day` on which any entry of the jurisdiction's law (the agency's values
    included) takes effect, or None: until then what the law says on `day` holds."""
    later = [start for param in pack_for(code).parameters.values() for start in param.starts if start > day]
    return min(later) if later else None


def evaluate_case(case: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer to a contract case, with the agency's values of that jurisdiction."""
    code = case.get("jurisdiction")
    overrides = _layered(code)[0] if isinstance(code, str) and code in _known() else None
    return _guarded(lambda: engine.evaluate_case(case, overrides=overrides or None))


def _answered(case: dict[str, Any], kind: str) -> dict[str, Any]:
    result = evaluate_case({**case, "kind": kind})
    error = result.get("error")
    if isinstance(error, dict):
        code, message, field = (str(error.get(k, "")) for k in ("code", "message", "field"))
        raise LawError(CaseError(code, message, field))
    return result


def evaluate_penalty(case: dict[str, Any]) -> PenaltyResult:
    """A penalty case's answer, typed; a case the engine refuses raises LawError."""
    return cast(PenaltyResult, _answered(case, "penalty"))


def evaluate_deadline(case: dict[str, Any]) -> DeadlineResult:
    """A deadline case's answer, typed; a case the engine refuses raises LawError."""
    return cast(DeadlineResult, _answered(case, "deadline"))


def pack_ids() -> list[str]:
    """The ids of the regulation packs this installation has: the jurisdictions it can serve."""
    from lotacao.law.packs import available_packs

    return list(available_packs())


def _known() -> set[str]:
    from lotacao.law.packs import available_packs

    return set(available_packs())


def entry(jurisdiction_code: str, parameter: str, on: dt.date) -> Entry | None:
    """The dated entry in force (value, undefined or repealed), or None when the pack has no such
    parameter (a law that does not regulate the matter)."""
    pack = pack_for(jurisdiction_code)
    if not pack.has(parameter):
        return None
    if on < pack.start:
        raise _before_the_law(pack, on)
    return _guarded(lambda: pack.resolve(parameter, on))


def value(jurisdiction_code: str, parameter: str, on: dt.date) -> Any:
    """The value in force, or None when the pack lacks the parameter or leaves it undefined."""
    found = entry(jurisdiction_code, parameter, on)
    return found.value if found is not None and found.status == "value" else None


def citation(jurisdiction_code: str, parameter: str, on: dt.date) -> str:
    """The citation of the entry in force ("" when the law does not regulate the matter)."""
    found = entry(jurisdiction_code, parameter, on)
    return str(found.citation) if found is not None else ""


def next_business_day_after(jurisdiction_code: str, day: dt.date) -> dt.date:
    """The first business day after `day` in the jurisdiction's calendar: national and state
    holidays of the pack's calendar and the municipal holidays in force (the law's or the
    agency's)."""
    from lotacao.law.calendar import Calendar

    pack = pack_for(jurisdiction_code)
    municipal = value(jurisdiction_code, "calendar.municipal_holidays", day) or []
    calendar = Calendar(pack.calendar.get("country", "BR"), pack.calendar.get("subdivision"), municipal)
    return _guarded(lambda: calendar.first_business_day_after(day))
