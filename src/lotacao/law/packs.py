"""Load the regulation packs strictly (docs/packs.md) and resolve their dated values.

A pack is one law as data. Loading refuses anything the format does not allow, naming the file
and the line: an unknown key, an entry without citation, dates out of order, a group or code
referenced but not defined, a value of the wrong type.
"""

from __future__ import annotations

import bisect
import datetime as dt
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from lotacao.law.errors import CaseError, PackError

PACKS_DIR = Path(os.environ.get("LOTACAO_PACKS_DIR") or Path(__file__).resolve().parent.parent / "packs")

VALUE_TYPES = frozenset({"money", "integer", "decimal", "boolean", "string", "duration", "list", "mapping"})
DURATION_KEYS = frozenset({"days", "business_days", "months", "years"})
STATUSES = ("value", "undefined", "repealed")
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
# Special `schema` values: the keys (mapping) or items (list) must be the catalogue's groups or codes.
CATALOGUE_SCHEMAS = frozenset({"groups", "infractions"})

# --------------------------------------------------------------------------- YAML with line numbers


class LineDict(dict[Any, Any]):
    """A YAML mapping that remembers its own line and the line of each key (1-based)."""

    line: int
    lines: dict[Any, int]

    def line_of(self, key: Any) -> int:
        return self.lines.get(key, self.line)


_LOADER: Any = None


def _loader_class() -> Any:
    """The YAML loader (imported on first use: a cached pack needs no YAML at all)."""
    global _LOADER
    if _LOADER is None:
        import yaml

        base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

        class _Loader(base):  # type: ignore[misc]
            pass

        _Loader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
        _LOADER = _Loader
    return _LOADER


def _construct_mapping(loader: Any, node: Any) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise PackError(
                str(node.start_mark.name), key_node.start_mark.line + 1, "chave não pode ser lista/mapa"
            ) from None
        if key in result:
            raise PackError(
                str(node.start_mark.name), key_node.start_mark.line + 1, f"chave repetida: {key!r}"
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


def read_yaml(path: Path) -> Any:
    """Parse one YAML file; mappings become :class:`LineDict`. Syntax errors become PackError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PackError(str(path), 0, f"não foi possível ler o arquivo: {exc.strerror}") from None
    import yaml

    try:
        loader = _loader_class()(text)
        loader.name = str(path)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except PackError as exc:
        raise PackError(str(path), exc.line, exc.message) from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 0
        raise PackError(str(path), line, f"YAML inválido: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise PackError(str(path), 0, f"YAML inválido: {exc}") from None


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
        """
        if not overrides:
            return self
        params = dict(self.parameters)
        layered: dict[str, tuple[Entry, ...]] = {}
        for name, items in overrides.items():
            base = f"overrides.{name}"
            if name not in self.parameters:
                raise CaseError("unknown_parameter", f"O pacote {self.id} não tem o parâmetro {name}.", base)
            param = self.parameters[name]
            mine: list[Entry] = []
            for i, item in enumerate(items):
                where = f"{base}.{i}"
                if not isinstance(item, Mapping):
                    raise CaseError("invalid_override", "Cada valor do órgão deve ser um objeto.", where)
                extra = set(item) - {"from", "value", "by", "cite", "note"}
                if extra:
                    raise CaseError("invalid_override", f"Chave não permitida: {sorted(extra)[0]}.", where)
                start = _as_date(item.get("from"))
                if start is None:
                    raise CaseError(
                        "invalid_override", "Informe `from` como data ISO (AAAA-MM-DD).", f"{where}.from"
                    )
                cite = item.get("cite")
                if not isinstance(cite, str) or not cite.strip():
                    raise CaseError(
                        "invalid_override",
                        "Todo valor do órgão precisa citar o ato que o fixou (ex.: Portaria nº …).",
                        f"{where}.cite",
                    )
                if "value" not in item:
                    raise CaseError("invalid_override", "Informe `value`.", f"{where}.value")
                problem = check_value(param.type, item["value"], param.schema, self)
                if problem:
                    raise CaseError("invalid_override", problem, f"{where}.value")
                by = item.get("by")
                mine.append(
                    Entry(
                        parameter=name,
                        start=start,
                        status="value",
                        value=item["value"],
                        cite=cite,
                        citation=cite,
                        note=item.get("note") if isinstance(item.get("note"), str) else None,
                        by=str(by) if by is not None else "órgão gestor",
                    )
                )
            mine.sort(key=lambda e: e.start)
            merged: dict[dt.date, Entry] = {e.start: e for e in param.entries}
            for e in mine:
                merged[e.start] = e  # the agency wins on the same start date
            entries = tuple(merged[d] for d in sorted(merged))
            params[name] = Parameter(
                name=param.name,
                description=param.description,
                type=param.type,
                unit=param.unit,
                interpretation=param.interpretation,
                schema=param.schema,
                entries=entries,
                file=param.file,
            )
            layered[name] = tuple(mine)
        clone = Pack(
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
            parameters=params,
            groups=self.groups,
            infractions=self.infractions,
            accepts_group_only=self.accepts_group_only,
        )
        clone.overrides = layered
        return clone


# --------------------------------------------------------------------------- validation helpers


def _as_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return None
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def is_decimal_string(value: Any) -> bool:
    if not isinstance(value, str) or not value.strip():
        return False
    try:
        return Decimal(value).is_finite()
    except InvalidOperation:
        return False


def check_duration(value: Any) -> str | None:
    if not isinstance(value, dict) or len(value) != 1:
        return "uma duração é um mapa com uma só chave: days, business_days, months ou years"
    ((key, n),) = value.items()
    if key not in DURATION_KEYS:
        return f"unidade de duração desconhecida: {key!r} (use days, business_days, months ou years)"
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        return f"a duração deve ser um inteiro não negativo, não {n!r}"
    return None


def check_value(kind: str, value: Any, schema: tuple[str, ...] | str | None, pack: Pack | None) -> str | None:
    """None when `value` fits the parameter type `kind`; otherwise the problem, in Portuguese."""
    if kind in ("money", "decimal"):
        if not is_decimal_string(value):
            return f'valor {kind} deve ser um decimal entre aspas (ex.: "50.00"), não {value!r}'
    elif kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"valor integer deve ser um inteiro, não {value!r}"
    elif kind == "boolean":
        if not isinstance(value, bool):
            return f"valor boolean deve ser true ou false, não {value!r}"
    elif kind == "string":
        if not isinstance(value, str) or not value:
            return f"valor string deve ser um texto não vazio, não {value!r}"
    elif kind == "duration":
        return check_duration(value)
    elif kind == "list":
        if not isinstance(value, list):
            return f"valor list deve ser uma lista, não {value!r}"
        return _check_keys(value, schema, pack, "item")
    elif kind == "mapping":
        if not isinstance(value, dict):
            return f"valor mapping deve ser um mapa, não {value!r}"
        return _check_keys(list(value), schema, pack, "chave")
    return None


def _check_keys(
    keys: list[Any], schema: tuple[str, ...] | str | None, pack: Pack | None, what: str
) -> str | None:
    if schema is None:
        return None
    if isinstance(schema, str):
        if pack is None:
            return None
        allowed: Iterable[str] = pack.groups if schema == "groups" else pack.infractions
        label = "grupo" if schema == "groups" else "código de infração"
        known = set(allowed)
        for k in keys:
            if str(k) not in known:
                return f"{label} não definido em infractions.yaml: {k!r}"
        return None
    for k in keys:
        if str(k) not in schema:
            return f"{what} não permitido(a) pelo schema: {k!r} (permitidos: {', '.join(schema)})"
    return None


class _Checker:
    def __init__(self, file: Path) -> None:
        self.file = str(file)

    def fail(self, line: int, message: str) -> PackError:
        return PackError(self.file, line, message)

    def mapping(self, data: Any, line: int, what: str) -> LineDict:
        if not isinstance(data, LineDict):
            raise self.fail(line, f"{what} deve ser um mapa (chave: valor)")
        return data

    def keys(self, data: LineDict, allowed: Iterable[str], required: Iterable[str] = ()) -> None:
        allowed = set(allowed)
        for key in data:
            if key not in allowed:
                names = ", ".join(sorted(allowed))
                raise self.fail(data.line_of(key), f"chave desconhecida: {key!r} (permitidas: {names})")
        for key in required:
            if key not in data:
                raise self.fail(data.line, f"falta a chave obrigatória {key!r}")

    def text(self, data: LineDict, key: str, *, optional: bool = False) -> str | None:
        value = data.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(data.line_of(key), f"{key!r} deve ser um texto não vazio")
        return value


# --------------------------------------------------------------------------- loading

PACK_KEYS = ("id", "name", "state", "law", "law_title", "agency", "calendar", "timezone", "start")
PACK_OPTIONAL = ("offices", "notes")
PARAM_KEYS = ("description", "type", "unit", "interpretation", "values", "schema")
ENTRY_KEYS = ("value", "undefined", "repealed", "cite", "note")
GROUP_KEYS = ("label", "cite", "note", "points")
INFRACTION_KEYS = (
    "group",
    "description",
    "cite",
    "incidence",
    "recidivism",
    "measures",
    "measure_text",
    "measure_days",
    "offenders",
    "note",
)


def load_pack(directory: Path | str) -> Pack:
    """Load and validate the pack in `directory` (not cached; see :func:`get_pack`)."""
    directory = Path(directory)
    pack_file = directory / "pack.yaml"
    chk = _Checker(pack_file)
    data = chk.mapping(read_yaml(pack_file), 1, "pack.yaml")
    chk.keys(data, PACK_KEYS + PACK_OPTIONAL, PACK_KEYS)
    texts = {k: chk.text(data, k) for k in ("id", "name", "state", "law", "law_title", "agency", "timezone")}
    if texts["id"] != directory.name:
        raise chk.fail(data.line_of("id"), f"id {texts['id']!r} difere do nome da pasta {directory.name!r}")
    start = _as_date(data["start"])
    if start is None:
        raise chk.fail(data.line_of("start"), "start deve ser uma data ISO (AAAA-MM-DD)")
    cal = chk.mapping(data["calendar"], data.line_of("calendar"), "calendar")
    chk.keys(cal, ("country", "subdivision"), ("country",))
    calendar = {k: str(v) for k, v in cal.items() if v is not None}
    offices_raw = data.get("offices") or []
    if not isinstance(offices_raw, list) or not all(isinstance(o, str) for o in offices_raw):
        raise chk.fail(data.line_of("offices"), "offices deve ser uma lista de textos")
    notes = chk.text(data, "notes", optional=True)

    pack = Pack(
        id=str(texts["id"]),
        name=str(texts["name"]),
        state=str(texts["state"]),
        law=str(texts["law"]),
        law_title=str(texts["law_title"]),
        agency=str(texts["agency"]),
        calendar=calendar,
        timezone=str(texts["timezone"]),
        start=start,
        offices=tuple(offices_raw),
        notes=notes,
        path=directory,
        parameters={},
        groups={},
        infractions={},
        accepts_group_only=False,
    )
    _load_infractions(pack, directory / "infractions.yaml")
    params_dir = directory / "parameters"
    if params_dir.is_dir():
        for file in sorted(params_dir.rglob("*.yaml")):
            rel = file.relative_to(params_dir).with_suffix("")
            name = ".".join(rel.parts)
            pack.parameters[name] = _load_parameter(pack, name, file)
    return pack


def _load_infractions(pack: Pack, file: Path) -> None:
    if not file.exists():
        return
    chk = _Checker(file)
    data = chk.mapping(read_yaml(file), 1, "infractions.yaml")
    chk.keys(data, ("groups", "infractions", "accepts_group_only", "notes"), ("groups", "infractions"))
    groups = chk.mapping(data["groups"], data.line_of("groups"), "groups")
    for gid, g in groups.items():
        line = groups.line_of(gid)
        if not isinstance(gid, str):
            raise chk.fail(line, f"o id do grupo deve ser texto entre aspas, não {gid!r}")
        g = chk.mapping(g, line, f"grupo {gid}")
        chk.keys(g, GROUP_KEYS, ("label", "cite"))
        cite = str(chk.text(g, "cite"))
        points = g.get("points")
        if points is not None and (not isinstance(points, int) or isinstance(points, bool) or points < 0):
            raise chk.fail(g.line_of("points"), "points deve ser um inteiro não negativo")
        pack.groups[gid] = Group(
            id=gid,
            label=str(chk.text(g, "label")),
            cite=cite,
            citation=pack.cite(cite),
            note=chk.text(g, "note", optional=True),
            points=points,
        )
    items = data["infractions"]
    if items is None:
        items = LineDict()
        items.line, items.lines = data.line_of("infractions"), {}
    items = chk.mapping(items, data.line_of("infractions"), "infractions")
    for code, row in items.items():
        line = items.line_of(code)
        if not isinstance(code, str):
            raise chk.fail(line, f"o código da infração deve ser texto, não {code!r}")
        row = chk.mapping(row, line, f"infração {code}")
        chk.keys(row, INFRACTION_KEYS, ("group", "description", "cite"))
        group = row["group"]
        if group is not None and (not isinstance(group, str) or group not in pack.groups):
            raise chk.fail(row.line_of("group"), f"grupo não definido em groups: {group!r}")
        recidivism = row.get("recidivism")
        if recidivism is not None:
            problem = check_duration(recidivism)
            if problem:
                raise chk.fail(row.line_of("recidivism"), problem)
        measures = row.get("measures") or []
        if not isinstance(measures, list) or any(m not in MEASURES for m in measures):
            raise chk.fail(
                row.line_of("measures"),
                f"medida desconhecida em {measures!r} (permitidas: {', '.join(sorted(MEASURES))})",
            )
        measure_days = row.get("measure_days")
        if measure_days is not None and (
            not isinstance(measure_days, int) or isinstance(measure_days, bool) or measure_days <= 0
        ):
            raise chk.fail(row.line_of("measure_days"), "measure_days deve ser um inteiro positivo")
        offenders = row.get("offenders") or []
        if not isinstance(offenders, list) or any(o not in OFFENDERS for o in offenders):
            raise chk.fail(
                row.line_of("offenders"),
                f"infrator desconhecido em {offenders!r} (permitidos: {', '.join(sorted(OFFENDERS))})",
            )
        cite = str(chk.text(row, "cite"))
        pack.infractions[code] = Infraction(
            code=code,
            group=group,
            description=str(chk.text(row, "description")),
            cite=cite,
            citation=pack.cite(cite),
            incidence=chk.text(row, "incidence", optional=True),
            recidivism=dict(recidivism) if recidivism is not None else None,
            recidivism_given="recidivism" in row,
            measures=tuple(measures),
            measure_text=chk.text(row, "measure_text", optional=True),
            measure_days=measure_days,
            offenders=tuple(offenders),
            note=chk.text(row, "note", optional=True),
        )
    flag = data.get("accepts_group_only", False)
    if not isinstance(flag, bool):
        raise chk.fail(data.line_of("accepts_group_only"), "accepts_group_only deve ser true ou false")
    pack.accepts_group_only = flag


def _load_parameter(pack: Pack, name: str, file: Path) -> Parameter:
    chk = _Checker(file)
    data = chk.mapping(read_yaml(file), 1, "o parâmetro")
    chk.keys(data, PARAM_KEYS, ("description", "type", "values"))
    description = str(chk.text(data, "description"))
    kind = data["type"]
    if kind not in VALUE_TYPES:
        types = ", ".join(sorted(VALUE_TYPES))
        raise chk.fail(data.line_of("type"), f"tipo desconhecido: {kind!r} (tipos: {types})")
    unit = chk.text(data, "unit", optional=True)

    interpretation = None
    if "interpretation" in data:
        it = chk.mapping(data["interpretation"], data.line_of("interpretation"), "interpretation")
        chk.keys(it, ("quote", "reading", "alternatives"), ("quote", "reading"))
        alts = it.get("alternatives") or []
        if not isinstance(alts, list) or not all(isinstance(a, str) and a for a in alts):
            raise chk.fail(it.line_of("alternatives"), "alternatives deve ser uma lista de textos")
        interpretation = Interpretation(str(chk.text(it, "quote")), str(chk.text(it, "reading")), tuple(alts))

    schema: tuple[str, ...] | str | None = None
    if "schema" in data:
        raw = data["schema"]
        if kind not in ("mapping", "list"):
            raise chk.fail(data.line_of("schema"), "schema só vale para os tipos mapping e list")
        if isinstance(raw, str) and raw in CATALOGUE_SCHEMAS:
            schema = raw
        elif isinstance(raw, list) and raw and all(isinstance(k, str) for k in raw):
            schema = tuple(raw)
        else:
            raise chk.fail(
                data.line_of("schema"),
                "schema deve ser uma lista de chaves (textos), 'groups' ou 'infractions'",
            )

    values = chk.mapping(data["values"], data.line_of("values"), "values")
    if not values:
        raise chk.fail(data.line_of("values"), "values não pode ser vazio")
    entries: list[Entry] = []
    previous: dt.date | None = None
    for raw_day, raw_entry in values.items():
        line = values.line_of(raw_day)
        day = _as_date(raw_day)
        if day is None:
            raise chk.fail(line, f"a chave de values deve ser uma data ISO (AAAA-MM-DD), não {raw_day!r}")
        if previous is not None and day <= previous:
            raise chk.fail(
                line, f"datas fora de ordem ou repetidas: {day.isoformat()} depois de {previous.isoformat()}"
            )
        if previous is None and day > pack.start:
            raise chk.fail(
                line,
                f"a primeira data ({day.isoformat()}) é posterior ao início da lei "
                f"({pack.start.isoformat()}): "
                'cubra o período anterior com uma entrada `repealed` (ex.: "ainda não vigente")',
            )
        previous = day
        entry = chk.mapping(raw_entry, line, f"a entrada de {day.isoformat()}")
        chk.keys(entry, ENTRY_KEYS, ("cite",))
        present = [k for k in STATUSES if k in entry]
        if len(present) != 1:
            raise chk.fail(
                entry.line, "cada entrada tem exatamente uma das chaves value, undefined ou repealed"
            )
        status = present[0]
        cite = str(chk.text(entry, "cite"))
        reason = None
        value: Any = None
        if status == "value":
            value = entry["value"]
            problem = check_value(kind, value, schema, pack)
            if problem:
                raise chk.fail(entry.line_of("value"), problem)
            value = _plain(value)
        else:
            reason = str(chk.text(entry, status))
        entries.append(
            Entry(
                parameter=name,
                start=day,
                status=status,
                value=value,
                cite=cite,
                citation=pack.cite(cite),
                reason=reason,
                note=chk.text(entry, "note", optional=True),
            )
        )
    return Parameter(
        name=name,
        description=description,
        type=str(kind),
        unit=unit,
        interpretation=interpretation,
        schema=schema,
        entries=tuple(entries),
        file=str(file),
    )


def _plain(value: Any) -> Any:
    """LineDicts become plain dicts (with str keys for dates) so values compare and serialise simply."""
    if isinstance(value, dict):
        return {(k.isoformat() if isinstance(k, dt.date) else k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


# --------------------------------------------------------------------------- registry

_PACKS: dict[str, Pack] = {}


_AVAILABLE: list[str] = []


def available_packs() -> list[str]:
    """The ids of the packs on disk (folders holding a pack.yaml), read once per process."""
    if not _AVAILABLE and PACKS_DIR.is_dir():
        _AVAILABLE.extend(sorted(p.name for p in PACKS_DIR.iterdir() if (p / "pack.yaml").is_file()))
    return list(_AVAILABLE)


def get_pack(pack_id: str) -> Pack:
    """The pack `pack_id`, loaded once per process. KeyError when there is no such pack.

    A validated pack is also kept as a pickle in the user's cache (LOTACAO_CACHE_DIR, else
    ~/.cache/lotacao), keyed by the size and mtime of every file of the pack and of this module,
    so that a command that answers one case does not parse YAML again (fast start).
    """
    pack = _PACKS.get(pack_id)
    if pack is None:
        directory = PACKS_DIR / pack_id
        bad_id = not pack_id or "/" in pack_id or pack_id.startswith(".")
        if bad_id or not (directory / "pack.yaml").is_file():
            raise KeyError(pack_id)
        pack = _PACKS[pack_id] = _load_cached(directory)
    return pack


def _cache_file(directory: Path) -> Path | None:
    import hashlib

    try:
        stamp = [f"{__file__}:{os.stat(__file__).st_mtime_ns}"]
        for root, _dirs, files in os.walk(directory):
            for name in sorted(files):
                if name.endswith(".yaml"):
                    st = os.stat(os.path.join(root, name))
                    stamp.append(f"{root}/{name}:{st.st_size}:{st.st_mtime_ns}")
    except OSError:
        return None
    digest = hashlib.sha256("\n".join(sorted(stamp)).encode()).hexdigest()[:24]
    base = Path(os.environ.get("LOTACAO_CACHE_DIR") or Path.home() / ".cache" / "lotacao")
    return base / f"pack-{directory.name}-{digest}.pickle"


def _load_cached(directory: Path) -> Pack:
    import pickle

    if os.environ.get("LOTACAO_NO_PACK_CACHE"):
        return load_pack(directory)
    cache = _cache_file(directory)
    if cache is not None and cache.is_file():
        try:
            with cache.open("rb") as fh:
                cached = pickle.load(fh)  # noqa: S301 - our own cache, keyed by the pack's files
            if isinstance(cached, Pack) and cached.path == directory:
                return cached
        except Exception:  # noqa: S110 - a stale or broken cache is simply rebuilt
            pass
    pack = load_pack(directory)
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as fh:
                pickle.dump(pack, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, cache)
            for stale in cache.parent.glob(f"pack-{directory.name}-*.pickle"):
                if stale != cache:  # earlier versions of this pack's files
                    stale.unlink(missing_ok=True)
        except OSError:
            pass
    return pack
