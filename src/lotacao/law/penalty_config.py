"""The `penalty` parameters of a pack, read once per period in which none of them changes.

Everything a law decides about penalties is data in `packs/<id>/parameters/penalty/`:

- `penalty.offenders`            offender id -> rule profile (`holder`, `staff`, `unlicensed` …)
- `penalty.rules.<profile>`      list of rules: `when` (groups / codes / earlier infractions),
                                 `penalty`, `measures`, `replaces`, `cite`
- `penalty.measures`             rules that only add measures, for every profile
- `penalty.fine.<group|key>`     fine table entry: `amount` (BRL), `units`+`unit`, or
                                 `base_multiple` (× `penalty.base_fine`)
- `penalty.base_fine`            the base value of `base_multiple` fines
- `penalty.base_fine_readjustment` dated percentages that correct the base value from each date
                                 (each applies on top of the earlier ones, after the base's own date)
- `penalty.recidivism_scope`     `same_group` | `same_code`
- `penalty.recidivism_window`    a duration, or `catalogue` (the period of the catalogue row)
- `penalty.escalation`           `{order: [...]}`: each recidivism raises the group one step
- `penalty.points`               points per group; `penalty.points_thresholds` penalties by total
- `penalty.code_aliases`         contract code -> catalogue code
- `penalty.inapplicable_codes`   catalogue code -> why the law no longer punishes it
- `penalty.doubtful_codes`       catalogue code -> the doubt about applying it (it still applies)

A parameter the pack does not have means the law has no such rule. Malformed rule data is a
PackError naming the parameter's file, raised when the period is first used.
"""

from __future__ import annotations

import bisect
import datetime as dt
import weakref
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from lotacao.law.pack_model import Entry, Pack
from lotacao.law.penalty_rules import (
    SCOPES,
    CodeList,
    FineTable,
    Rule,
    RuleReader,
    Threshold,
    Window,
)

CENT = Decimal("0.01")

# --------------------------------------------------------------------------- the compiled period


@dataclass(frozen=True, slots=True)
class Readjustment:
    """A correction of the base value from `start` by `percent` (the act that fixed it)."""

    start: dt.date
    percent: Decimal
    citation: str
    by: str | None


@dataclass(slots=True)
class Config:
    """The penalty parameters of one pack in force throughout one period."""

    law: str
    offenders: dict[str, str]
    offenders_entry: Entry
    rules: dict[str, tuple[Rule, ...]]
    rules_entries: dict[str, Entry]
    measure_rules: tuple[Rule, ...]
    measures_entry: Entry | None
    fines: dict[str, FineTable]
    base_fine: Decimal | None  # the base value in force, readjustments applied
    base_fine_entry: Entry | None
    base_fine_original: Decimal | None  # the base value of penalty.base_fine, before readjustments
    readjustments: tuple[Readjustment, ...]  # the corrections applied to it, in order
    readjustment_entry: Entry | None
    scope: str | None
    scope_entry: Entry | None
    window_mode: str  # fixed | catalogue | none | undefined
    window: Window | None
    window_entry: Entry | None
    escalation: tuple[str, ...] | None
    escalation_entry: Entry | None
    points: dict[str, int] | None
    points_entry: Entry | None  # None: the law keeps no points
    thresholds: tuple[Threshold, ...]
    thresholds_entry: Entry | None
    aliases: dict[str, str]
    aliases_entry: Entry | None
    inapplicable: dict[str, str]
    inapplicable_entry: Entry | None
    doubtful: dict[str, str]
    doubtful_entry: Entry | None
    code_lists: dict[str, CodeList]
    interpretations: dict[str, str]  # parameter (among the above) -> the sentence of its reading
    code_groups: dict[str, str | None]  # catalogue code (and alias) -> group
    code_cites: dict[str, str]  # catalogue code (and alias) -> the law's own item ("art. 42, XV, d")
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # penalty_amounts' per-period memo


def compile_config(pack: Pack, day: dt.date) -> Config:
    """The penalty parameters of `pack` in force on `day`, read and checked, in the law's order:
    who is punished and by which rules, the fines, recidivism, points, and the codes."""
    r = RuleReader(pack, day)
    off_entry, offenders, rules, rules_entries = _offender_profiles(r)
    measures_entry, measure_rules = r.rules("penalty.measures")
    fines = _fine_tables(r)
    base_entry, original = _base_fine(r)
    readj_entry, readjustments, base_fine = _readjusted(r, base_entry, original)
    scope_entry, scope = _recidivism_scope(r)
    window_entry, window_mode, window = _recidivism_window(r, scope)
    esc_entry, escalation = _escalation(r)
    points_entry, points = _points_per_group(r)
    thr_entry, thresholds = _points_thresholds(r)
    alias_entry, aliases = _code_aliases(r)
    inap_entry, inapplicable = _inapplicable_codes(r)
    doubt_entry, doubtful = _doubtful_codes(r)
    all_rules = [rule for rs in rules.values() for rule in rs] + list(measure_rules)
    code_lists = _check_rule_references(r, all_rules, fines, base_entry)
    return Config(
        law=pack.law,
        offenders=offenders,
        offenders_entry=off_entry,
        rules=rules,
        rules_entries=rules_entries,
        measure_rules=measure_rules,
        measures_entry=measures_entry,
        fines=fines,
        base_fine=base_fine,
        base_fine_entry=base_entry,
        base_fine_original=original,
        readjustments=readjustments,
        readjustment_entry=readj_entry,
        scope=scope,
        scope_entry=scope_entry,
        window_mode=window_mode,
        window=window,
        window_entry=window_entry,
        escalation=escalation,
        escalation_entry=esc_entry,
        points=points,
        points_entry=points_entry,
        thresholds=thresholds,
        thresholds_entry=thr_entry,
        aliases=aliases,
        aliases_entry=alias_entry,
        inapplicable=inapplicable,
        inapplicable_entry=inap_entry,
        doubtful=doubtful,
        doubtful_entry=doubt_entry,
        code_lists=code_lists,
        interpretations=_interpreted_parameters(pack),
        code_groups=_code_groups(pack, aliases),
        code_cites=_code_cites(pack, aliases),
    )


def _offender_profiles(
    r: RuleReader,
) -> tuple[Entry, dict[str, str], dict[str, tuple[Rule, ...]], dict[str, Entry]]:
    """penalty.offenders: each offender's profile, and the rules of each profile."""
    off_entry, raw = r.value("penalty.offenders")
    if off_entry is None:
        raise r.fail("penalty.offenders", "o pacote não tem o parâmetro penalty.offenders")
    offenders = dict(raw or {})
    rules: dict[str, tuple[Rule, ...]] = {}
    rules_entries: dict[str, Entry] = {}
    for profile in set(offenders.values()):
        name = f"penalty.rules.{profile}"
        if name not in r.pack.parameters:
            raise r.fail("penalty.offenders", f"perfil {profile!r} sem o parâmetro {name}")
        entry, profile_rules = r.rules(name)
        assert entry is not None
        rules[profile] = profile_rules
        rules_entries[profile] = entry
    return off_entry, offenders, rules, rules_entries


def _fine_tables(r: RuleReader) -> dict[str, FineTable]:
    """Every penalty.fine.<key> of the pack."""
    fines: dict[str, FineTable] = {}
    for pname in r.pack.parameters:
        if pname.startswith("penalty.fine."):
            key = pname[len("penalty.fine.") :]
            fines[key] = r.fine(key)
    return fines


def _base_fine(r: RuleReader) -> tuple[Entry | None, Decimal | None]:
    """penalty.base_fine: the base value (Vb) of `base_multiple` fines."""
    entry, raw = r.value("penalty.base_fine")
    return entry, (r.decimal("penalty.base_fine", raw, "penalty.base_fine") if raw is not None else None)


def _readjusted(
    r: RuleReader, base_entry: Entry | None, original: Decimal | None
) -> tuple[Entry | None, tuple[Readjustment, ...], Decimal | None]:
    """penalty.base_fine_readjustment: each dated percentage after the base value's own date and up
    to the day corrects it, one on top of the other, rounded to centavos at each step."""
    name = "penalty.base_fine_readjustment"
    if r.entry(name) is None:
        return None, (), original
    # the law's own entry (its rule of correction), not an agency's readjustment
    entry = [e for e in r.pack.parameters[name].entries if e.by is None and e.start <= r.day][-1]
    if base_entry is None or original is None:
        return entry, (), original
    steps: list[Readjustment] = []
    value = original
    for e in r.pack.parameters[name].entries:
        if e.start <= base_entry.start or e.start > r.day or e.status != "value":
            continue
        percent = r.decimal(name, e.value, name)
        if percent == 0:
            continue
        value = (value * (1 + percent / 100)).quantize(CENT, rounding=ROUND_HALF_UP)
        steps.append(Readjustment(e.start, percent, e.citation, e.by))
    return entry, tuple(steps), value


def _recidivism_scope(r: RuleReader) -> tuple[Entry | None, str | None]:
    """penalty.recidivism_scope: earlier infractions of the same group, or of the same code."""
    entry, scope = r.value("penalty.recidivism_scope")
    if scope is not None and scope not in SCOPES:
        raise r.fail("penalty.recidivism_scope", f"use um de {SCOPES}")
    return entry, scope


def _recidivism_window(r: RuleReader, scope: str | None) -> tuple[Entry | None, str, Window | None]:
    """penalty.recidivism_window: its mode (fixed, catalogue, none, undefined) and fixed window."""
    entry, raw = r.value("penalty.recidivism_window")
    window: Window | None = None
    if entry is None or entry.status == "repealed":
        mode = "none"
    elif entry.status == "undefined":
        mode = "undefined"
    elif raw == "catalogue":
        mode = "catalogue"
    else:
        mode = "fixed"
        window = r.window("penalty.recidivism_window", raw)
    if mode in ("fixed", "catalogue") and scope is None:
        raise r.fail("penalty.recidivism_window", "um período de reincidência exige penalty.recidivism_scope")
    return entry, mode, window


def _escalation(r: RuleReader) -> tuple[Entry | None, tuple[str, ...] | None]:
    """penalty.escalation: the order of the groups each recidivism climbs."""
    entry, raw = r.value("penalty.escalation")
    if raw is None:
        return entry, None
    order = raw.get("order") if isinstance(raw, dict) else None
    if not isinstance(order, list) or any(g not in r.pack.groups for g in order):
        raise r.fail("penalty.escalation", "order deve listar grupos de infractions.yaml")
    return entry, tuple(order)


def _points_per_group(r: RuleReader) -> tuple[Entry | None, dict[str, int] | None]:
    """penalty.points: the points of an infraction of each group."""
    entry, raw = r.value("penalty.points")
    if raw is None:
        return entry, None
    if not isinstance(raw, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw.values()
    ):
        raise r.fail("penalty.points", "os pontos devem ser inteiros não negativos por grupo")
    return entry, {str(k): int(v) for k, v in raw.items()}


def _points_thresholds(r: RuleReader) -> tuple[Entry | None, tuple[Threshold, ...]]:
    """penalty.points_thresholds: the penalty that a total of points in a window brings."""
    name = "penalty.points_thresholds"
    entry, raw = r.value(name)
    thresholds: list[Threshold] = []
    for t in raw or []:
        if not isinstance(t, dict) or set(t) - {"window", "at_least", "penalty", "replaces", "cite"}:
            raise r.fail(name, f"limite inválido: {t!r}")
        at_least = t.get("at_least")
        if not isinstance(at_least, int) or isinstance(at_least, bool) or at_least < 1:
            raise r.fail(name, "at_least deve ser um inteiro positivo")
        replaces = r.codes(name, t.get("replaces") or [], "replaces")
        cites, citations = r.cites(name, t.get("cite"))
        thresholds.append(
            Threshold(
                r.window(name, t.get("window")),
                at_least,
                r.penalty(name, t.get("penalty")),
                replaces,
                cites,
                citations,
            )
        )
    return entry, tuple(thresholds)


def _code_aliases(r: RuleReader) -> tuple[Entry | None, dict[str, str]]:
    """penalty.code_aliases: contract codes that name a code of the catalogue."""
    entry, raw = r.value("penalty.code_aliases")
    aliases = {str(k): str(v) for k, v in (raw or {}).items()}
    for target in aliases.values():
        if target not in r.pack.infractions:
            raise r.fail("penalty.code_aliases", f"código não definido em infractions.yaml: {target!r}")
    return entry, aliases


def _inapplicable_codes(r: RuleReader) -> tuple[Entry | None, dict[str, str]]:
    """penalty.inapplicable_codes: catalogue codes the law no longer punishes, and why."""
    entry, raw = r.value("penalty.inapplicable_codes")
    return entry, {str(k): str(v) for k, v in (raw or {}).items()}


def _doubtful_codes(r: RuleReader) -> tuple[Entry | None, dict[str, str]]:
    """penalty.doubtful_codes: catalogue codes applied with a doubt the result must state."""
    entry, raw = r.value("penalty.doubtful_codes")
    return entry, {str(k): " ".join(str(v).split()) for k, v in (raw or {}).items()}


def _check_rule_references(
    r: RuleReader, rules: list[Rule], fines: dict[str, FineTable], base_entry: Entry | None
) -> dict[str, CodeList]:
    """The code lists the rules count earlier infractions by; each fine rule must have its table."""
    code_lists: dict[str, CodeList] = {}
    for rule in rules:
        cname = rule.earlier.codes_param if rule.earlier is not None else None
        if cname and cname not in code_lists:
            centry = r.entry(cname)
            assert centry is not None
            codes = r.codes(cname, centry.value, cname) if centry.status == "value" else None
            code_lists[cname] = CodeList(
                cname,
                centry.status,
                codes,
                centry.citation,
                centry.reason,
                r.pack.parameters[cname].description,
            )
        spec = rule.penalty
        if spec is not None and spec.type == "fine":
            for key in [spec.fine] if spec.fine else sorted(rule.groups or ()):
                if key not in fines:
                    raise r.fail("penalty.offenders", f"regra de multa sem a tabela penalty.fine.{key}")
                if fines[key].base_multiple is not None and base_entry is None:
                    raise r.fail(f"penalty.fine.{key}", "base_multiple exige o parâmetro penalty.base_fine")
    return code_lists


def _interpreted_parameters(pack: Pack) -> dict[str, str]:
    """The penalty parameters that carry an interpretation of the law's text, with its sentence."""
    out: dict[str, str] = {}
    for name, param in pack.parameters.items():
        if name.startswith("penalty.") and param.interpretation is not None:
            out[name] = param.interpretation.sentence
    return out


def _code_groups(pack: Pack, aliases: dict[str, str]) -> dict[str, str | None]:
    """Catalogue code (and alias) -> group."""
    code_groups: dict[str, str | None] = {code: inf.group for code, inf in pack.infractions.items()}
    for alias, target in aliases.items():
        code_groups[alias] = pack.infractions[target].group
    return code_groups


def _code_cites(pack: Pack, aliases: dict[str, str]) -> dict[str, str]:
    """Catalogue code (and alias) -> the law's own item, as the law prints it."""
    cites = {code: inf.cite for code, inf in pack.infractions.items()}
    for alias, target in aliases.items():
        cites[alias] = pack.infractions[target].cite
    return cites


# --------------------------------------------------------------------------- cache by period


class _PackConfigs:
    __slots__ = ("by_day", "by_period", "starts")

    def __init__(self, pack: Pack) -> None:
        days: set[dt.date] = set()
        for name, param in pack.parameters.items():
            if name.startswith("penalty."):
                days.update(param.starts)
        self.starts: list[dt.date] = sorted(days)
        self.by_period: dict[int, Config] = {}
        self.by_day: dict[dt.date, Config] = {}


_CONFIGS: weakref.WeakKeyDictionary[Pack, _PackConfigs] = weakref.WeakKeyDictionary()


def config_for(pack: Pack, day: dt.date) -> Config:
    """The compiled penalty parameters in force on `day` (compiled once per period of the pack)."""
    cached = _CONFIGS.get(pack)
    if cached is None:
        cached = _CONFIGS[pack] = _PackConfigs(pack)
    cfg = cached.by_day.get(day)
    if cfg is not None:
        return cfg
    period = bisect.bisect_right(cached.starts, day)
    cfg = cached.by_period.get(period)
    if cfg is None:
        cfg = cached.by_period[period] = compile_config(pack, day)
    if len(cached.by_day) < 100_000:
        cached.by_day[day] = cfg
    return cfg
