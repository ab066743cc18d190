"""Load one regulation pack strictly (docs/packs.md).

Loading refuses anything the format does not allow, naming the file and the line: an unknown
key, an entry without citation, dates out of order, a group or code referenced but not defined,
a value of the wrong type. The steps follow the pack's files: `pack.yaml` (the law), then
`infractions.yaml` (its groups and catalogue), then each file of `parameters/`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lotacao.law.errors import PackError
from lotacao.law.pack_checks import as_date, check_duration, check_value
from lotacao.law.pack_model import (
    MEASURES,
    OFFENDERS,
    Entry,
    Group,
    Infraction,
    Interpretation,
    Pack,
    Parameter,
)
from lotacao.law.pack_yaml import LineDict, read_yaml

VALUE_TYPES = frozenset({"money", "integer", "decimal", "boolean", "string", "duration", "list", "mapping"})
STATUSES = ("value", "undefined", "repealed")
# Special `schema` values: the keys (mapping) or items (list) must be the catalogue's groups or codes.
CATALOGUE_SCHEMAS = frozenset({"groups", "infractions"})

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
    "measure_choice",
    "offenders",
    "note",
)


class _Checker:
    """The shape checks of one file; each failure is a PackError naming the file and the line."""

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


# --------------------------------------------------------------------------- the pack


def load_pack(directory: Path | str) -> Pack:
    """Load and validate the pack in `directory` (not cached; see :func:`lotacao.law.packs.get_pack`)."""
    directory = Path(directory)
    pack = _read_law(directory)
    _load_infractions(pack, directory / "infractions.yaml")
    params_dir = directory / "parameters"
    if params_dir.is_dir():
        for file in sorted(params_dir.rglob("*.yaml")):
            rel = file.relative_to(params_dir).with_suffix("")
            name = ".".join(rel.parts)
            pack.parameters[name] = _load_parameter(pack, name, file)
    return pack


def _read_law(directory: Path) -> Pack:
    """`pack.yaml`: the law, its agency, calendar and start; an empty pack to fill."""
    pack_file = directory / "pack.yaml"
    chk = _Checker(pack_file)
    data = chk.mapping(read_yaml(pack_file), 1, "pack.yaml")
    chk.keys(data, PACK_KEYS + PACK_OPTIONAL, PACK_KEYS)
    texts = {k: chk.text(data, k) for k in ("id", "name", "state", "law", "law_title", "agency", "timezone")}
    if texts["id"] != directory.name:
        raise chk.fail(data.line_of("id"), f"id {texts['id']!r} difere do nome da pasta {directory.name!r}")
    start = as_date(data["start"])
    if start is None:
        raise chk.fail(data.line_of("start"), "start deve ser uma data ISO (AAAA-MM-DD)")
    cal = chk.mapping(data["calendar"], data.line_of("calendar"), "calendar")
    chk.keys(cal, ("country", "subdivision"), ("country",))
    calendar = {k: str(v) for k, v in cal.items() if v is not None}
    offices_raw = data.get("offices") or []
    if not isinstance(offices_raw, list) or not all(isinstance(o, str) for o in offices_raw):
        raise chk.fail(data.line_of("offices"), "offices deve ser uma lista de textos")
    notes = chk.text(data, "notes", optional=True)
    return Pack(
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


# --------------------------------------------------------------------------- infractions.yaml


def _load_infractions(pack: Pack, file: Path) -> None:
    """`infractions.yaml`: the groups, then the catalogue rows (each naming a defined group)."""
    if not file.exists():
        return
    chk = _Checker(file)
    data = chk.mapping(read_yaml(file), 1, "infractions.yaml")
    chk.keys(data, ("groups", "infractions", "accepts_group_only", "notes"), ("groups", "infractions"))
    groups = chk.mapping(data["groups"], data.line_of("groups"), "groups")
    for gid, g in groups.items():
        pack.groups[gid] = _read_group(pack, chk, gid, g, groups.line_of(gid))
    items = data["infractions"]
    if items is None:
        items = LineDict()
        items.line, items.lines = data.line_of("infractions"), {}
    items = chk.mapping(items, data.line_of("infractions"), "infractions")
    for code, row in items.items():
        pack.infractions[code] = _read_infraction(pack, chk, code, row, items.line_of(code))
    flag = data.get("accepts_group_only", False)
    if not isinstance(flag, bool):
        raise chk.fail(data.line_of("accepts_group_only"), "accepts_group_only deve ser true ou false")
    pack.accepts_group_only = flag


def _read_group(pack: Pack, chk: _Checker, gid: Any, raw: Any, line: int) -> Group:
    if not isinstance(gid, str):
        raise chk.fail(line, f"o id do grupo deve ser texto entre aspas, não {gid!r}")
    g = chk.mapping(raw, line, f"grupo {gid}")
    chk.keys(g, GROUP_KEYS, ("label", "cite"))
    cite = str(chk.text(g, "cite"))
    points = g.get("points")
    if points is not None and (not isinstance(points, int) or isinstance(points, bool) or points < 0):
        raise chk.fail(g.line_of("points"), "points deve ser um inteiro não negativo")
    return Group(
        id=gid,
        label=str(chk.text(g, "label")),
        cite=cite,
        citation=pack.cite(cite),
        note=chk.text(g, "note", optional=True),
        points=points,
    )


def _read_infraction(pack: Pack, chk: _Checker, code: Any, raw: Any, line: int) -> Infraction:
    if not isinstance(code, str):
        raise chk.fail(line, f"o código da infração deve ser texto, não {code!r}")
    row = chk.mapping(raw, line, f"infração {code}")
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
    choice = row.get("measure_choice", False)
    if not isinstance(choice, bool) or (choice and len(measures) < 2):
        raise chk.fail(
            row.line_of("measure_choice"), "measure_choice deve ser true (com duas medidas ou mais) ou false"
        )
    offenders = row.get("offenders") or []
    if not isinstance(offenders, list) or any(o not in OFFENDERS for o in offenders):
        raise chk.fail(
            row.line_of("offenders"),
            f"infrator desconhecido em {offenders!r} (permitidos: {', '.join(sorted(OFFENDERS))})",
        )
    cite = str(chk.text(row, "cite"))
    return Infraction(
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
        measure_choice=choice,
        offenders=tuple(offenders),
        note=chk.text(row, "note", optional=True),
    )


# --------------------------------------------------------------------------- parameters/*.yaml


def _load_parameter(pack: Pack, name: str, file: Path) -> Parameter:
    """One parameter: what it is (description, type, reading of the law), then its dated values."""
    chk = _Checker(file)
    data = chk.mapping(read_yaml(file), 1, "o parâmetro")
    chk.keys(data, PARAM_KEYS, ("description", "type", "values"))
    description = str(chk.text(data, "description"))
    kind = data["type"]
    if kind not in VALUE_TYPES:
        types = ", ".join(sorted(VALUE_TYPES))
        raise chk.fail(data.line_of("type"), f"tipo desconhecido: {kind!r} (tipos: {types})")
    unit = chk.text(data, "unit", optional=True)
    interpretation = _read_interpretation(chk, data)
    schema = _read_schema(chk, data, kind)
    return Parameter(
        name=name,
        description=description,
        type=str(kind),
        unit=unit,
        interpretation=interpretation,
        schema=schema,
        entries=_read_entries(pack, chk, data, name, kind, schema),
        file=str(file),
    )


def _read_interpretation(chk: _Checker, data: LineDict) -> Interpretation | None:
    if "interpretation" not in data:
        return None
    it = chk.mapping(data["interpretation"], data.line_of("interpretation"), "interpretation")
    chk.keys(it, ("quote", "reading", "alternatives", "summary"), ("quote", "reading"))
    alts = it.get("alternatives") or []
    if not isinstance(alts, list) or not all(isinstance(a, str) and a for a in alts):
        raise chk.fail(it.line_of("alternatives"), "alternatives deve ser uma lista de textos")
    summary = chk.text(it, "summary", optional=True)
    return Interpretation(
        str(chk.text(it, "quote")),
        str(chk.text(it, "reading")),
        tuple(alts),
        " ".join(summary.split()) if summary else None,
    )


def _read_schema(chk: _Checker, data: LineDict, kind: Any) -> tuple[str, ...] | str | None:
    if "schema" not in data:
        return None
    raw = data["schema"]
    if kind not in ("mapping", "list"):
        raise chk.fail(data.line_of("schema"), "schema só vale para os tipos mapping e list")
    if isinstance(raw, str) and raw in CATALOGUE_SCHEMAS:
        return raw
    if isinstance(raw, list) and raw and all(isinstance(k, str) for k in raw):
        return tuple(raw)
    raise chk.fail(
        data.line_of("schema"),
        "schema deve ser uma lista de chaves (textos), 'groups' ou 'infractions'",
    )


def _read_entries(
    pack: Pack, chk: _Checker, data: LineDict, name: str, kind: Any, schema: tuple[str, ...] | str | None
) -> tuple[Entry, ...]:
    """The dated values, in order, the first covering the law's start."""
    values = chk.mapping(data["values"], data.line_of("values"), "values")
    if not values:
        raise chk.fail(data.line_of("values"), "values não pode ser vazio")
    entries: list[Entry] = []
    previous: dt.date | None = None
    for raw_day, raw_entry in values.items():
        line = values.line_of(raw_day)
        day = as_date(raw_day)
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
        entries.append(_read_entry(pack, chk, raw_entry, line, name, day, kind, schema))
    return tuple(entries)


def _read_entry(
    pack: Pack,
    chk: _Checker,
    raw: Any,
    line: int,
    name: str,
    day: dt.date,
    kind: Any,
    schema: tuple[str, ...] | str | None,
) -> Entry:
    """One dated entry: exactly one of value / undefined / repealed, and its citation."""
    entry = chk.mapping(raw, line, f"a entrada de {day.isoformat()}")
    chk.keys(entry, ENTRY_KEYS, ("cite",))
    present = [k for k in STATUSES if k in entry]
    if len(present) != 1:
        raise chk.fail(entry.line, "cada entrada tem exatamente uma das chaves value, undefined ou repealed")
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
    return Entry(
        parameter=name,
        start=day,
        status=status,
        value=value,
        cite=cite,
        citation=pack.cite(cite),
        reason=reason,
        note=chk.text(entry, "note", optional=True),
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
