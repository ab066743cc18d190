"""The penalty rule data of a pack, read strictly: windows, rules, fine tables, thresholds.

:class:`RuleReader` reads the values of the `penalty.*` parameters in force on one day into the
frozen types below (see :mod:`lotacao.law.penalty_config`, which assembles them into one
:class:`~lotacao.law.penalty_config.Config` per period). Malformed rule data is a PackError
naming the parameter's file.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from dateutil.relativedelta import relativedelta

from lotacao.law.errors import PackError
from lotacao.law.pack_model import MEASURES, OFFENDERS, Entry, Pack

PENALTY_TYPES = ("warning", "fine", "suspension", "revocation", "course", "intervention")
# Amounts a rule adds besides its penalty (Esteio art. 18, c and parágrafo único).
CHARGES = ("removal_and_storage_costs", "fine_equal_to_costs")
SCOPES = ("same_group", "same_code")
UNLICENSED_CODE = "unlicensed_transport"
ONE = Decimal(1)
ZERO = Decimal(0)


# --------------------------------------------------------------------------- windows


@dataclass(frozen=True, slots=True)
class Window:
    """A period counted back from the case date: d lies in it when D − L < d ≤ D."""

    unit: str  # days | months | years | unlimited
    n: int

    @property
    def key(self) -> str:
        """The key of a points total: days as digits (`"120"`), `"all"` when unlimited."""
        if self.unit == "days":
            return str(self.n)
        if self.unit == "unlimited":
            return "all"
        return f"{self.n}{'m' if self.unit == 'months' else 'y'}"

    @property
    def label(self) -> str:
        if self.unit == "unlimited":
            return "sem limite de tempo"
        if self.unit == "days":
            return f"{self.n} dia{'s' if self.n != 1 else ''}"
        if self.unit == "months":
            return f"{self.n} {'mês' if self.n == 1 else 'meses'}"
        return f"{self.n} ano{'s' if self.n != 1 else ''}"


UNLIMITED = Window("unlimited", 0)
_STARTS: dict[tuple[dt.date, Window], dt.date | None] = {}


def window_start(day: dt.date, window: Window) -> dt.date | None:
    """D − L (excluded from the window); None when the window is unlimited."""
    key = (day, window)
    try:
        return _STARTS[key]
    except KeyError:
        pass
    start: dt.date | None
    if window.unit == "days":
        start = day - dt.timedelta(days=window.n)
    elif window.unit == "months":
        start = day - relativedelta(months=window.n)
    elif window.unit == "years":
        start = day - relativedelta(years=window.n)
    else:
        start = None
    if len(_STARTS) > 200_000:
        _STARTS.clear()
    _STARTS[key] = start
    return start


# --------------------------------------------------------------------------- compiled data


@dataclass(frozen=True, slots=True)
class FineTable:
    key: str
    param: str
    status: str  # value | undefined | repealed
    citation: str
    reason: str | None
    amount: Decimal | None = None
    units: Decimal | None = None
    unit: str | None = None
    base_multiple: Decimal | None = None
    by: str | None = None  # who supplied the value, when an agency override did


@dataclass(frozen=True, slots=True)
class PenaltySpec:
    type: str
    fine: str | None = None  # fine table key; None: the infraction's group
    factor: Decimal = ONE
    per_repeat: Decimal = ZERO
    max: Decimal | None = None
    days: int | None = None
    ban_years: int | None = None
    charged_to: str | None = None


@dataclass(frozen=True, slots=True)
class Earlier:
    at_least: int
    window: Window | None  # None: the recidivism window of the pack (or of the catalogue row)
    scope: str | None  # None: penalty.recidivism_scope
    codes_param: str | None  # a list parameter: only these codes count (and the new one must be one)


@dataclass(frozen=True, slots=True)
class Release:
    """A condition for releasing a measure: {id, label, cite} as in `measure.release`."""

    id: str
    label: str
    cite: str


@dataclass(frozen=True, slots=True)
class Rule:
    groups: frozenset[str] | None
    codes: frozenset[str] | None
    earlier: Earlier | None
    penalty: PenaltySpec | None
    measures: tuple[tuple[str, int | None], ...]
    replaces: frozenset[str]
    cites: tuple[str, ...]
    citations: tuple[str, ...]
    param: str = ""  # the rule list it belongs to (penalty.rules.<profile>, penalty.measures)
    reading: str | None = None  # one sentence: the reading of the law this rule embodies
    charges: tuple[str, ...] = ()  # amounts owed besides the penalty (CHARGES)
    release: tuple[Release, ...] | None = None  # replaces measure.release for this rule's measures


@dataclass(frozen=True, slots=True)
class Threshold:
    window: Window
    at_least: int
    penalty: PenaltySpec
    replaces: frozenset[str]
    cites: tuple[str, ...]
    citations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CodeList:
    param: str
    status: str
    codes: frozenset[str] | None
    citation: str
    reason: str | None
    description: str = ""


# --------------------------------------------------------------------------- reading the pack


class RuleReader:
    """The `penalty.*` parameters of a pack as in force on `day`, each value checked as it is read."""

    def __init__(self, pack: Pack, day: dt.date) -> None:
        self.pack = pack
        self.day = day

    def entry(self, name: str) -> Entry | None:
        if name not in self.pack.parameters:
            return None
        return self.pack.resolve(name, self.day)

    def fail(self, name: str, message: str) -> PackError:
        param = self.pack.parameters.get(name)
        return PackError(param.file if param else name, 0, f"{name}: {message}")

    def value(self, name: str) -> tuple[Entry | None, Any]:
        entry = self.entry(name)
        if entry is None or entry.status != "value":
            return entry, None
        return entry, entry.value

    def window(self, name: str, raw: Any) -> Window:
        if raw == "unlimited":
            return UNLIMITED
        if isinstance(raw, dict) and len(raw) == 1:
            ((unit, n),) = raw.items()
            if (
                unit in ("days", "months", "years")
                and isinstance(n, int)
                and not isinstance(n, bool)
                and n > 0
            ):
                return Window(str(unit), n)
        raise self.fail(name, f"período inválido {raw!r}: use {{days|months|years: N}} ou unlimited")

    def decimal(self, name: str, raw: Any, what: str) -> Decimal:
        try:
            if isinstance(raw, str | int) and not isinstance(raw, bool):
                value = Decimal(raw)
                if value.is_finite() and value >= 0:
                    return value
        except InvalidOperation:
            pass
        raise self.fail(name, f"{what} deve ser um decimal não negativo entre aspas, não {raw!r}")

    def cites(self, name: str, raw: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
        items = [raw] if isinstance(raw, str) else raw
        if (
            not isinstance(items, list)
            or not items
            or not all(isinstance(c, str) and c.strip() for c in items)
        ):
            raise self.fail(name, "cada regra precisa de `cite` (texto ou lista de textos)")
        return tuple(items), tuple(self.pack.cite(c) for c in items)

    def penalty(self, name: str, raw: Any) -> PenaltySpec:
        if not isinstance(raw, dict):
            raise self.fail(name, f"penalty deve ser um mapa, não {raw!r}")
        allowed = {"type", "fine", "factor", "factor_per_repeat", "max", "days", "ban_years", "charged_to"}
        extra = set(raw) - allowed
        if extra:
            raise self.fail(name, f"chave desconhecida em penalty: {sorted(extra)[0]!r}")
        kind = raw.get("type")
        if kind not in PENALTY_TYPES:
            raise self.fail(name, f"tipo de penalidade desconhecido: {kind!r}")
        for key in ("days", "ban_years"):
            v = raw.get(key)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v <= 0):
                raise self.fail(name, f"{key} deve ser um inteiro positivo")
        if kind == "suspension" and raw.get("days") is None:
            raise self.fail(name, "suspensão precisa de days")
        charged = raw.get("charged_to")
        if charged is not None and charged not in OFFENDERS:
            raise self.fail(name, f"charged_to desconhecido: {charged!r}")
        fine = raw.get("fine")
        if fine is not None and not isinstance(fine, str):
            raise self.fail(name, "fine deve ser o nome de uma tabela de multa (penalty.fine.<nome>)")
        return PenaltySpec(
            type=str(kind),
            fine=fine,
            factor=self.decimal(name, raw["factor"], "factor") if "factor" in raw else ONE,
            per_repeat=self.decimal(name, raw["factor_per_repeat"], "factor_per_repeat")
            if "factor_per_repeat" in raw
            else ZERO,
            max=self.decimal(name, raw["max"], "max") if "max" in raw else None,
            days=raw.get("days"),
            ban_years=raw.get("ban_years"),
            charged_to=charged,
        )

    def measures(self, name: str, raw: Any) -> tuple[tuple[str, int | None], ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            raise self.fail(name, "measures deve ser uma lista")
        out: list[tuple[str, int | None]] = []
        for m in raw:
            if isinstance(m, str) and m in MEASURES:
                out.append((m, None))
            elif isinstance(m, dict) and m.get("type") in MEASURES and set(m) <= {"type", "days"}:
                days = m.get("days")
                if days is not None and (not isinstance(days, int) or isinstance(days, bool) or days <= 0):
                    raise self.fail(name, "days de uma medida deve ser um inteiro positivo")
                out.append((str(m["type"]), days))
            else:
                raise self.fail(name, f"medida desconhecida: {m!r}")
        return tuple(out)

    def codes(self, name: str, raw: Any, what: str) -> frozenset[str]:
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise self.fail(name, f"{what} deve ser uma lista de textos")
        return frozenset(raw)

    def rule(self, name: str, raw: Any) -> Rule:
        if not isinstance(raw, dict):
            raise self.fail(name, f"cada regra deve ser um mapa, não {raw!r}")
        extra = set(raw) - {
            "when",
            "penalty",
            "measures",
            "replaces",
            "cite",
            "note",
            "reading",
            "charges",
            "release",
        }
        if extra:
            raise self.fail(name, f"chave desconhecida numa regra: {sorted(extra)[0]!r}")
        when = raw.get("when") or {}
        if not isinstance(when, dict) or set(when) - {"groups", "codes", "earlier"}:
            raise self.fail(name, f"when inválido: {when!r}")
        groups = self.codes(name, when["groups"], "groups") if "groups" in when else None
        if groups is not None:
            unknown = [g for g in groups if g not in self.pack.groups]
            if unknown:
                raise self.fail(name, f"grupo não definido em infractions.yaml: {unknown[0]!r}")
        codes = self.codes(name, when["codes"], "codes") if "codes" in when else None
        if codes is not None:
            unknown = [c for c in codes if c not in self.pack.infractions and c != UNLICENSED_CODE]
            if unknown:
                raise self.fail(name, f"código não definido em infractions.yaml: {unknown[0]!r}")
        earlier = self.earlier(name, when["earlier"]) if "earlier" in when else None
        penalty = self.penalty(name, raw["penalty"]) if "penalty" in raw else None
        measures = self.measures(name, raw.get("measures"))
        charges = self.codes(name, raw.get("charges") or [], "charges")
        if charges - set(CHARGES):
            raise self.fail(name, f"charges: valor desconhecido {sorted(charges)[0]!r} (use {CHARGES})")
        if penalty is None and not measures and not charges:
            raise self.fail(name, "uma regra precisa de penalty, measures ou charges")
        replaces = self.codes(name, raw.get("replaces") or [], "replaces")
        if replaces - set(PENALTY_TYPES):
            raise self.fail(name, f"replaces: tipo desconhecido {sorted(replaces)[0]!r}")
        cites, citations = self.cites(name, raw.get("cite"))
        reading = raw.get("reading")
        if reading is not None and (not isinstance(reading, str) or not reading.strip()):
            raise self.fail(name, "reading deve ser um texto (uma frase)")
        release = self.release(name, raw["release"]) if "release" in raw else None
        if release is not None and not measures:
            raise self.fail(name, "release só vale numa regra com measures")
        return Rule(
            groups,
            codes,
            earlier,
            penalty,
            measures,
            frozenset(replaces),
            cites,
            citations,
            param=name,
            reading=" ".join(reading.split()) if reading else None,
            charges=tuple(c for c in CHARGES if c in charges),
            release=release,
        )

    def release(self, name: str, raw: Any) -> tuple[Release, ...]:
        """A rule's own release conditions: a list of {id, label, cite}."""
        if not isinstance(raw, list):
            raise self.fail(name, "release deve ser uma lista de {id, label, cite}")
        out = []
        for item in raw:
            if (
                not isinstance(item, dict)
                or set(item) != {"id", "label", "cite"}
                or not all(isinstance(v, str) and v.strip() for v in item.values())
            ):
                raise self.fail(name, f"condição de liberação inválida: {item!r}")
            out.append(Release(item["id"], item["label"], item["cite"]))
        return tuple(out)

    def earlier(self, name: str, e: Any) -> Earlier:
        """The `earlier` condition of a rule: at least N earlier infractions (in a window, scope, list)."""
        if not isinstance(e, dict) or set(e) - {"at_least", "window", "scope", "codes_param"}:
            raise self.fail(name, f"earlier inválido: {e!r}")
        at_least = e.get("at_least")
        if not isinstance(at_least, int) or isinstance(at_least, bool) or at_least < 1:
            raise self.fail(name, "earlier.at_least deve ser um inteiro ≥ 1")
        scope = e.get("scope")
        if scope is not None and scope not in SCOPES:
            raise self.fail(name, f"earlier.scope deve ser um de {SCOPES}")
        codes_param = e.get("codes_param")
        if codes_param is not None and codes_param not in self.pack.parameters:
            raise self.fail(name, f"earlier.codes_param: parâmetro inexistente {codes_param!r}")
        return Earlier(
            at_least=at_least,
            window=self.window(name, e["window"]) if "window" in e else None,
            scope=scope,
            codes_param=codes_param,
        )

    def rules(self, name: str) -> tuple[Entry | None, tuple[Rule, ...]]:
        entry, raw = self.value(name)
        if raw is None:
            return entry, ()
        if not isinstance(raw, list):
            raise self.fail(name, "a lista de regras deve ser uma lista")
        return entry, tuple(self.rule(name, r) for r in raw)

    def fine(self, key: str) -> FineTable:
        name = f"penalty.fine.{key}"
        entry = self.entry(name)
        assert entry is not None
        if entry.status != "value":
            return FineTable(key, name, entry.status, entry.citation, entry.reason)
        raw = entry.value
        if not isinstance(raw, dict):
            raise self.fail(name, "a multa deve ser um mapa: amount, units+unit ou base_multiple")
        by = entry.by
        if "amount" in raw and len(raw) == 1:
            return FineTable(
                key,
                name,
                "value",
                entry.citation,
                None,
                amount=self.decimal(name, raw["amount"], "amount"),
                by=by,
            )
        if "base_multiple" in raw and len(raw) == 1:
            return FineTable(
                key,
                name,
                "value",
                entry.citation,
                None,
                base_multiple=self.decimal(name, raw["base_multiple"], "base_multiple"),
                by=by,
            )
        if set(raw) == {"units", "unit"} and isinstance(raw["unit"], str):
            return FineTable(
                key,
                name,
                "value",
                entry.citation,
                None,
                units=self.decimal(name, raw["units"], "units"),
                by=by,
                unit=raw["unit"],
            )
        raise self.fail(name, f"multa inválida {raw!r}: use amount, units+unit ou base_multiple")
