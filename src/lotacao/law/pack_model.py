"""The model of a regulation pack: one law as data (docs/packs.md).

A :class:`Pack` holds the law's dated parameters, its infraction groups and its catalogue of
infractions; :meth:`Pack.resolve` gives the value of a parameter in force on a day. Packs are
built by :mod:`lotacao.law.pack_loader` and served by :mod:`lotacao.law.packs`.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lotacao.law.errors import CaseError

MEASURES = frozenset(
    {
        "vehicle_retention",
        "vehicle_removal",
        "vehicle_seizure",
        "document_seizure",
        "staff_removal",
        "permit_suspension",
        "credit_offset",
    }
)
OFFENDERS = frozenset(
    {"permit_holder", "auxiliary_driver", "relief_driver", "fare_collector", "company", "unlicensed"}
)

# --------------------------------------------------------------------------- data classes


@dataclass(frozen=True, slots=True)
class Entry:
    """The value of a parameter in force from `start`: status `value`, `undefined` or `repealed`."""

    parameter: str
    start: dt.date
    status: str
    value: Any
    cite: str
    citation: str
    reason: str | None = None
    note: str | None = None
    by: str | None = None  # set when an agency override supplied the value

    @property
    def defined(self) -> bool:
        return self.status == "value"


@dataclass(frozen=True, slots=True)
class Interpretation:
    quote: str
    reading: str
    alternatives: tuple[str, ...] = ()
    summary: str | None = None  # one plain sentence: what a result that relies on it says

    @property
    def sentence(self) -> str:
        """What a result's explanation says of it: the summary (one sentence), else the reading."""
        return self.summary or " ".join(self.reading.split())


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    type: str
    unit: str | None
    interpretation: Interpretation | None
    schema: tuple[str, ...] | str | None
    entries: tuple[Entry, ...]
    file: str
    starts: tuple[dt.date, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "starts", tuple(e.start for e in self.entries))

    def at(self, day: dt.date) -> Entry | None:
        """The entry in force on `day`, or None before the first entry."""
        i = bisect.bisect_right(self.starts, day)
        return self.entries[i - 1] if i else None


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    label: str
    cite: str
    citation: str
    note: str | None = None
    points: int | None = None  # points per infraction of the group, where the law keeps points


@dataclass(frozen=True, slots=True)
class Infraction:
    code: str
    group: str | None
    description: str
    cite: str
    citation: str
    incidence: str | None = None
    recidivism: dict[str, int] | None = None  # a duration; None: "não se aplica" or not given
    recidivism_given: bool = False  # True when the row states its recidivism period (even "não se aplica")
    measures: tuple[str, ...] = ()
    measure_text: str | None = None
    measure_days: int | None = None  # the days of a permit_suspension measure, where the row gives them
    measure_choice: bool = False  # the row's measures are alternatives: the agency applies one
    offenders: tuple[str, ...] = ()
    note: str | None = None


# --------------------------------------------------------------------------- the pack


class Pack:
    """One law as data. Build with :func:`load_pack` / :func:`get_pack`; never mutate."""

    def __init__(
        self,
        *,
        id: str,
        name: str,
        state: str,
        law: str,
        law_title: str,
        agency: str,
        calendar: Mapping[str, str],
        timezone: str,
        start: dt.date,
        offices: tuple[str, ...],
        notes: str | None,
        path: Path,
        parameters: dict[str, Parameter],
        groups: dict[str, Group],
        infractions: dict[str, Infraction],
        accepts_group_only: bool,
    ) -> None:
        self.id = id
        self.name = name
        self.state = state
        self.law = law
        self.law_title = law_title
        self.agency = agency
        self.calendar = dict(calendar)
        self.timezone = timezone
        self.start = start
        self.offices = offices
        self.notes = notes
        self.path = path
        self.parameters = parameters
        self.groups = groups
        self.infractions = infractions
        self.accepts_group_only = accepts_group_only
        self.overrides: dict[str, tuple[Entry, ...]] = {}
        self._cache: dict[tuple[str, dt.date], Entry] = {}

    def __repr__(self) -> str:
        return f"<Pack {self.id}: {self.law}>"

    def cite(self, cite: str) -> str:
        """`art. 36` -> `<law>, art. 36`; a cite naming another act (Lei …, Decreto …) as is."""
        if cite.startswith(("Lei ", "Decreto ", "Portaria ", "Resolução ", "Constituição ")):
            return cite
        return f"{self.law}, {cite}"

    def has(self, name: str) -> bool:
        return name in self.parameters

    def resolve(self, name: str, day: dt.date) -> Entry:
        """The entry of parameter `name` in force on `day` (agency overrides included).

        KeyError for a parameter the pack does not have (a bug of the caller); CaseError
        `date_before_law` for a day before the pack's first value.
        """
        key = (name, day)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        entry = self.parameters[name].at(day)
        if entry is None:
            raise CaseError(
                "date_before_law",
                f"A data {day.isoformat()} é anterior à vigência de {self.law} "
                f"({self.start.isoformat()}) para o parâmetro {name}.",
                "date",
            )
        if len(self._cache) >= 200_000:  # bounded: a long-lived process sees many dates
            self._cache.clear()
        self._cache[key] = entry
        return entry

    def iter_parameters(self) -> Iterator[Parameter]:
        for name in sorted(self.parameters):
            yield self.parameters[name]

    def with_overrides(self, overrides: Mapping[str, Iterable[Mapping[str, Any]]]) -> Pack:
        """A copy of this pack with an agency's values layered on the law's.

        `overrides`: {"<parameter>": [{"from": "2025-01-01", "value": ..., "by": "...",
        "cite": "Portaria ..."}]}. On any date, the entry with the latest start wins — an agency
        value from its `from` date until the law's next dated change; on the same start date the
        agency's value wins. Invalid data raises CaseError (field `overrides.<parameter>.<i>.<key>`).
        See :mod:`lotacao.law.overrides`.
        """
        from lotacao.law.overrides import layer_overrides  # that module builds on this one

        return layer_overrides(self, overrides)

    def with_parameters(self, parameters: dict[str, Parameter]) -> Pack:
        """A copy of this pack with other parameters (same law, groups and catalogue)."""
        return Pack(
            id=self.id,
            name=self.name,
            state=self.state,
            law=self.law,
            law_title=self.law_title,
            agency=self.agency,
            calendar=self.calendar,
            timezone=self.timezone,
            start=self.start,
            offices=self.offices,
            notes=self.notes,
            path=self.path,
            parameters=parameters,
            groups=self.groups,
            infractions=self.infractions,
            accepts_group_only=self.accepts_group_only,
        )
