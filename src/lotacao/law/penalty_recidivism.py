"""Counting earlier infractions: recidivism, the escalation of the group, and rule conditions.

An earlier `final` infraction counts when it is of the same group or code
(penalty.recidivism_scope) and its date d lies in the window of length L ending on the case
date D: D − L < d ≤ D. The window is the pack's (penalty.recidivism_window), or the period of the
infraction's catalogue row; a rule may count in its own window, scope or list of codes.
"""

from __future__ import annotations

import datetime as dt

from lotacao.law.pack_model import Infraction, Pack
from lotacao.law.penalty_case import Final, Offence
from lotacao.law.penalty_config import Config
from lotacao.law.penalty_result import SCOPE_PT, TYPE_PT, Findings, earlier_pt, pt_date
from lotacao.law.penalty_rules import UNLICENSED_CODE, Earlier, Rule, Window, window_start
from lotacao.law.words import join_pt, lower_first


def count_earlier(
    finals: list[Final],
    day: dt.date,
    window: Window,
    scope: str,
    code: str,
    group: str | None,
    only: frozenset[str] | None = None,
) -> list[Final]:
    """The earlier final infractions of the scope (and, if given, of the codes `only`) in the window."""
    start = window_start(day, window)
    if scope == "same_code":
        hits = [f for f in finals if f[1] == code]
    else:
        if group is None:
            return []
        hits = [f for f in finals if f[2] == group]
    if only is not None:
        hits = [f for f in hits if f[1] in only]
    if start is not None:
        hits = [f for f in hits if f[0] > start]
    return hits


def _list(cfg: Config, hits: list[Final]) -> str:
    """The earlier infractions counted, each by the law's own item and date."""
    return join_pt(f"{code_label(cfg, c)} em {pt_date(d)}" for d, c, _ in sorted(hits))


def code_label(cfg: Config, code: str) -> str:
    """An infraction as the law prints it ("art. 42, XV, d"); the agency's own code where the law
    has no catalogue; unlicensed transport in words."""
    if code == UNLICENSED_CODE:
        return "transporte sem autorização"
    return cfg.code_cites.get(code, code)


def row_window(inf: Infraction | None) -> Window | None:
    """The recidivism period of a catalogue row (None: "não se aplica", or not in days/months/years)."""
    if inf is None or inf.recidivism is None:
        return None
    ((unit, n),) = inf.recidivism.items()
    if unit not in ("days", "months", "years"):
        return None
    return Window(unit, n)


# --------------------------------------------------------------------------- recidivism


def count_recidivism(cfg: Config, offence: Offence, found: Findings) -> tuple[int | None, Window | None]:
    """How many times the offender is a repeat offender (None where the law leaves it undefined),
    and the window the rules count earlier infractions in by default."""
    window = row_window(offence.infraction) if cfg.window_mode == "catalogue" else cfg.window
    if offence.group is None:
        # Transport without authorisation is outside the catalogue: the law's recidivism (window,
        # scope, escalation) is that of its infractions; only a rule's own count applies to it.
        return 0, window
    if cfg.window_mode == "undefined":
        return _recidivism_undefined(cfg, offence, found), window
    if cfg.window_mode not in ("fixed", "catalogue") or cfg.scope is None:
        return 0, window
    if window is None:
        if cfg.window_mode == "catalogue" and offence.infraction is not None:
            found.say(f'A linha {offence.code} do catálogo não prevê reincidência ("Não se aplica").')
        return 0, window
    return _recidivism_in_window(cfg, offence, window, cfg.scope, found), window


def _recidivism_undefined(cfg: Config, offence: Offence, found: Findings) -> int | None:
    """The law leaves recidivism undefined: earlier infractions are not considered (and it says so)."""
    entry = cfg.window_entry
    assert entry is not None
    if not offence.finals:
        return 0
    found.cite(entry.citation)
    found.miss("penalty.recidivism_window")
    found.say(
        f"A reincidência não está definida no texto disponível: {entry.reason} "
        "Por isso as infrações anteriores não foram consideradas."
    )
    return None


def _recidivism_in_window(cfg: Config, offence: Offence, window: Window, scope: str, found: Findings) -> int:
    """The earlier infractions of the scope in the window, listed in the explanation."""
    day = offence.day
    counted = count_earlier(offence.finals, day, window, scope, offence.code, offence.group)
    if counted or offence.finals:
        if counted and cfg.window_mode == "catalogue" and offence.infraction is not None:
            found.cite(offence.infraction.citation)
        found.interpret(cfg, "penalty.recidivism_scope", "penalty.recidivism_window")
        start = window_start(day, window)
        span = (
            f"nos {window.label} anteriores"
            if start is None
            else (
                f"nos {window.label} anteriores (de {pt_date(start + dt.timedelta(days=1))} a {pt_date(day)})"
            )
        )
        if window.unit == "unlimited":
            span = "sem limite de tempo"
        head = f"Reincidência: contam as infrações anteriores definitivas {SCOPE_PT[scope]} {span}"
        if counted:
            found.say(f"{head}: {len(counted)} — {_list(cfg, counted)}.")
        else:
            found.say(f"{head}: nenhuma.")
    return len(counted)


def escalate(pack: Pack, cfg: Config, group: str | None, repeat: int | None, found: Findings) -> str | None:
    """The group the infraction is punished as: one step up penalty.escalation per recidivism."""
    if cfg.escalation is None or group is None or not repeat or group not in cfg.escalation:
        return group
    order = cfg.escalation
    raised = order[min(order.index(group) + repeat, len(order) - 1)]
    if raised != group:
        entry = cfg.escalation_entry
        assert entry is not None
        found.cite(entry.citation)
        found.interpret(cfg, "penalty.escalation")
        found.say(
            f"Pela reincidência, a infração é punida como {pack.groups[raised].label} "
            f"(grupo original: {group})."
        )
    return raised


# --------------------------------------------------------------------------- rule conditions


def rule_applies(
    rule: Rule, offence: Offence, group: str | None, cfg: Config, window: Window | None, found: Findings
) -> bool:
    """Whether the rule's conditions hold: its codes, its groups, its earlier infractions."""
    if rule.codes is not None and offence.code not in rule.codes:
        return False
    if rule.groups is not None and (group is None or group not in rule.groups):
        return False
    if rule.earlier is None:
        return True
    return _enough_earlier(rule, rule.earlier, offence, group, cfg, window, found)


def _enough_earlier(
    rule: Rule,
    e: Earlier,
    offence: Offence,
    group: str | None,
    cfg: Config,
    window: Window | None,
    found: Findings,
) -> bool:
    """At least `e.at_least` earlier infractions in the rule's window and scope (and list of codes)."""
    scope = e.scope or cfg.scope
    w = e.window or window
    if scope is None or w is None:
        return False
    day, code = offence.day, offence.code
    only = None
    if e.codes_param is not None:
        codes = cfg.code_lists[e.codes_param]
        if codes.codes is None:
            _say_undefined_list(rule, e, offence, group, w, scope, cfg, found)
            return False
        if code not in codes.codes:
            return False
        only = codes.codes
    hits = count_earlier(offence.finals, day, w, scope, code, group, only)
    if len(hits) < e.at_least:
        return False
    if e.window is not None or e.scope is not None or only is not None:
        span = "sem limite de tempo" if w.unit == "unlimited" else f"nos {w.label} anteriores"
        found.say(
            f"Para {'; '.join(rule.cites)}: {earlier_pt(len(hits))} {SCOPE_PT[scope]} {span}"
            f" — {_list(cfg, hits)}."
        )
    found.counts.append(len(hits))
    return True


def _say_undefined_list(
    rule: Rule,
    e: Earlier,
    offence: Offence,
    group: str | None,
    w: Window,
    scope: str,
    cfg: Config,
    found: Findings,
) -> None:
    """The law leaves the rule's list of codes undefined: say so when the count alone would fire it."""
    assert e.codes_param is not None
    codes = cfg.code_lists[e.codes_param]
    if len(count_earlier(offence.finals, offence.day, w, scope, offence.code, group)) >= e.at_least:
        found.cite(codes.citation, *rule.citations)
        found.miss(codes.param)
        kind = rule.penalty.type if rule.penalty else "medida"
        what = lower_first(codes.description or "uma lista de infrações")
        found.say(
            f"A regra do {'; '.join(rule.cites)} ({TYPE_PT.get(kind, kind)}) pode se aplicar, "
            f"mas depende de um valor que o texto disponível não define — {what}: {codes.reason}"
        )
