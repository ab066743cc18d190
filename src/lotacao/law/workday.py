"""kind `workday`: one driver's day of driving against the law's limits of the working day.

Case fields: `driver` (holder | auxiliary_driver | relief_driver), `periods` (the day's driving
periods, `[{start: "HH:MM", end: "HH:MM"}]`, in one day), optional `days_driven_in_week` (days
driven in the seven days ending on the case's date, this one included) and `holder_drove` (for
the vehicle's day: whether the holder drove it in at least one period).

Parameters (each optional; a pack without any `workday.*` has no limits: `not_applicable`):
- `workday.max_daily_minutes`: driving in the day at most this (Recife art. 9º; Esteio Anexo II,
  III-16; Maricá art. 40, XXXVIII — the agency's value);
- `workday.max_continuous_minutes`: driving without a break of at least `workday.break_minutes.min`;
- `workday.break_minutes` {min, max}: a pause shorter than `min` is no break; a break longer than
  `max` is a violation;
- `workday.weekly_rest_days`: days of rest in each seven;
- `workday.drivers`: whom the limits bind (Recife: the holder only);
- `workday.holder_must_drive`: the holder drives the vehicle on each day of service;
- `workday.infractions` {code: rule}: the catalogue entries each violated rule suggests.

Violation rule ids: `max_daily`, `max_continuous`, `max_break`, `weekly_rest`, `holder_absent`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from lotacao.law.context import Context, get, get_choice, get_int
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import Pack
from lotacao.law.words import lower_first, plural

FIELDS = frozenset({"driver", "periods", "days_driven_in_week", "holder_drove"})
DRIVERS = ("holder", "auxiliary_driver", "relief_driver")
DRIVER_PT = {
    "holder": "o permissionário",
    "auxiliary_driver": "o condutor auxiliar",
    "relief_driver": "o condutor eventual",
}
RULES = (
    "workday.max_daily_minutes",
    "workday.max_continuous_minutes",
    "workday.break_minutes",
    "workday.weekly_rest_days",
    "workday.holder_must_drive",
)
_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$|^24:00$")


def hours_pt(minutes: int) -> str:
    """`6 horas`, `8 horas e 30 minutos`, `45 minutos`."""
    h, m = divmod(int(minutes), 60)
    if not h:
        return plural(m, "minuto")
    if not m:
        return plural(h, "hora")
    return f"{plural(h, 'hora')} e {plural(m, 'minuto')}"


def clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _minutes(value: Any, field: str) -> int:
    if not isinstance(value, str) or not _TIME.match(value):
        raise CaseError("invalid_time", f"Horário inválido em {field}: use HH:MM (por exemplo 06:30).", field)
    h, m = value.split(":")
    return int(h) * 60 + int(m)


def read_periods(case: Mapping[str, Any]) -> list[tuple[int, int]]:
    raw = get(case, "periods")
    if not isinstance(raw, list) or not raw:
        raise CaseError(
            "invalid_periods", "Informe ao menos um período de condução (início e fim).", "periods"
        )
    periods = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or set(item) != {"start", "end"}:
            raise CaseError("invalid_periods", "Cada período tem início e fim (start, end).", f"periods.{i}")
        start, end = _minutes(item["start"], f"periods.{i}.start"), _minutes(item["end"], f"periods.{i}.end")
        if end <= start:
            raise CaseError(
                "invalid_periods",
                f"O período {i + 1} termina antes de começar ou no mesmo horário.",
                f"periods.{i}",
            )
        periods.append((start, end))
    periods.sort()
    for (_, end), (start, _) in pairwise(periods):
        if start < end:
            raise CaseError("invalid_periods", "Os períodos de condução se sobrepõem.", "periods")
    return periods


def _value(ctx: Context, name: str, found: list[str], *, cite: bool = True) -> Any:
    """The parameter's value on the case's date (None when absent, undefined or repealed); an
    undefined one is recorded as missing by ctx and named in `found`."""
    if not ctx.has(name):
        return None
    entry = ctx.entry(name, cite=cite)
    if entry.status == "undefined":
        found.append(name)
    return entry.value if entry.status == "value" else None


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    if not any(ctx.has(r) for r in RULES):
        raise CaseError(
            "not_applicable", f"A {pack.law} não fixa limites para a jornada dos condutores.", "kind"
        )
    driver = str(get_choice(case, "driver", DRIVERS))
    periods = read_periods(case)
    week = get_int(case, "days_driven_in_week", required=False)
    if week is not None and not 1 <= week <= 7:
        raise CaseError("invalid_days", "Os dias conduzidos na semana vão de 1 a 7.", "days_driven_in_week")
    holder_drove = case.get("holder_drove")
    if holder_drove is not None and not isinstance(holder_drove, bool):
        raise CaseError("invalid_field", "holder_drove deve ser verdadeiro ou falso.", "holder_drove")

    undefined: list[str] = []
    violations: list[dict[str, str]] = []
    text: list[str] = []
    driving = sum(end - start for start, end in periods)
    gaps = [(end, start) for (_, end), (start, _) in pairwise(periods)]
    text.append(f"Condução de {hours_pt(driving)} no dia, em {plural(len(periods), 'período')}.")

    bound = driver in (_value(ctx, "workday.drivers", undefined) or DRIVERS)
    breaks = _value(ctx, "workday.break_minutes", undefined) if bound else None
    minimum_break = int(breaks["min"]) if breaks else 1
    longest = _longest_run(periods, minimum_break)
    if not bound:
        drivers = ctx.entry("workday.drivers")
        text.append(f"Os limites de jornada da lei não se aplicam a {DRIVER_PT[driver]} ({drivers.cite}).")
    else:
        _daily(ctx, driving, violations, text, undefined)
        _continuous(ctx, longest, minimum_break, violations, text, undefined)
        if breaks:
            _break(ctx, gaps, breaks, violations, text)
        if week is not None:
            _weekly_rest(ctx, week, violations, text, undefined)
    if holder_drove is False and _value(ctx, "workday.holder_must_drive", undefined):
        entry = ctx.entry("workday.holder_must_drive")
        message = "O permissionário não conduziu o veículo em nenhum período do dia."
        violations.append({"rule": "holder_absent", "message": message, "citation": entry.citation})
        text.append(f"{message} A lei obriga o permissionário a conduzir o próprio veículo ({entry.cite}).")

    infractions = _suggested(pack, ctx, violations, undefined)
    if infractions:
        text.append(
            "Infração sugerida: "
            + "; ".join(f"{ctx.short(i['citation'])} ({lower_first(i['description'])})" for i in infractions)
            + "."
        )
    elif violations:
        text.append("O catálogo de infrações da lei não tem conduta própria para este excesso.")
    if violations:
        verdict = "Jornada acima dos limites da lei."
    elif undefined and bound:
        verdict = "Jornada não conferida por inteiro: falta valor que a lei deixa ao órgão."
    else:
        verdict = "Jornada dentro dos limites da lei."
    return {
        "within_limits": False if violations else None if undefined and bound else True,
        "driving_minutes": driving,
        "longest_continuous_minutes": longest,
        "breaks": [{"start": clock(a), "end": clock(b), "minutes": b - a} for a, b in gaps],
        "violations": violations,
        "infractions": infractions,
        "explanation": " ".join([verdict, *text]),
    }


def _longest_run(periods: list[tuple[int, int]], minimum_break: int) -> int:
    """The longest driving without a pause of at least the minimum break (shorter pauses do not
    interrupt it)."""
    longest = run = 0
    last_end: int | None = None
    for start, end in periods:
        if last_end is not None and start - last_end >= minimum_break:
            run = 0
        run += end - start
        longest = max(longest, run)
        last_end = end
    return longest


def _daily(
    ctx: Context, driving: int, violations: list[dict[str, str]], text: list[str], undefined: list[str]
) -> None:
    limit = _value(ctx, "workday.max_daily_minutes", undefined)
    if limit is None:
        return
    entry = ctx.entry("workday.max_daily_minutes")
    if driving > int(limit):
        message = f"Condução de {hours_pt(driving)}, acima do máximo diário de {hours_pt(int(limit))}."
        violations.append({"rule": "max_daily", "message": message, "citation": entry.citation})
        text.append(f"{message[:-1]} ({entry.cite}).")
    else:
        text.append(f"Dentro do máximo diário de {hours_pt(int(limit))} ({entry.cite}).")


def _continuous(
    ctx: Context,
    longest: int,
    minimum_break: int,
    violations: list[dict[str, str]],
    text: list[str],
    undefined: list[str],
) -> None:
    limit = _value(ctx, "workday.max_continuous_minutes", undefined)
    if limit is None:
        return
    entry = ctx.entry("workday.max_continuous_minutes")
    if longest > int(limit):
        message = (
            f"Condução de {hours_pt(longest)} sem intervalo de pelo menos {hours_pt(minimum_break)}, "
            f"acima do máximo de {hours_pt(int(limit))} corridas."
        )
        violations.append({"rule": "max_continuous", "message": message, "citation": entry.citation})
        text.append(f"{message[:-1]} ({entry.cite}).")


def _break(
    ctx: Context,
    gaps: list[tuple[int, int]],
    breaks: Mapping[str, Any],
    violations: list[dict[str, str]],
    text: list[str],
) -> None:
    entry = ctx.entry("workday.break_minutes")
    longest = int(breaks["max"])
    for start, end in gaps:
        if end - start > longest:
            message = (
                f"Intervalo de {hours_pt(end - start)} (das {clock(start)} às {clock(end)}), acima do "
                f"máximo de {hours_pt(longest)}."
            )
            violations.append({"rule": "max_break", "message": message, "citation": entry.citation})
            text.append(f"{message[:-1]} ({entry.cite}).")


def _weekly_rest(
    ctx: Context, week: int, violations: list[dict[str, str]], text: list[str], undefined: list[str]
) -> None:
    rest = _value(ctx, "workday.weekly_rest_days", undefined)
    if rest is None:
        return
    entry = ctx.entry("workday.weekly_rest_days")
    if week > 7 - int(rest):
        message = (
            f"{plural(week, 'dia')} de condução em sete, sem o repouso semanal de {plural(int(rest), 'dia')}."
        )
        violations.append({"rule": "weekly_rest", "message": message, "citation": entry.citation})
        text.append(f"{message[:-1]} ({entry.cite}).")


def _suggested(
    pack: Pack, ctx: Context, violations: list[dict[str, str]], undefined: list[str]
) -> list[dict[str, str]]:
    mapping = _value(ctx, "workday.infractions", undefined, cite=False) if violations else None
    if not mapping:
        return []
    rules = {v["rule"] for v in violations}
    out = []
    for code, rule in mapping.items():
        infraction = pack.infractions.get(code)
        if rule in rules and infraction is not None:
            out.append(
                {
                    "code": code,
                    "rule": rule,
                    "description": infraction.description,
                    "citation": infraction.citation,
                }
            )
    return out
