"""Points: where the law keeps a record of points, each infraction adds its group's points, and a
total within a window (penalty.points_thresholds) brings a penalty of its own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.law.penalty_amounts import apply_penalty
from lotacao.law.penalty_case import Final
from lotacao.law.penalty_config import Config
from lotacao.law.penalty_result import TYPE_PT, Findings
from lotacao.law.penalty_rules import Window, window_start
from lotacao.law.words import join_pt


def add_points(cfg: Config, group: str, finals: list[Final], day: dt.date, found: Findings) -> dict[str, Any]:
    """The points of this infraction and the totals per threshold window; the thresholds reached."""
    entry = cfg.points_entry
    assert entry is not None
    found.cite(entry.citation)
    windows: list[Window] = []
    for t in cfg.thresholds:
        if t.window not in windows:
            windows.append(t.window)
    table = cfg.points
    if table is None:
        return _points_undefined(cfg, windows, found)
    if cfg.thresholds_entry is not None:
        found.interpret(cfg, "penalty.points_thresholds")
    if entry.by:
        found.say(f"Pontos por grupo fixados pelo órgão gestor, {entry.by}, conforme {entry.citation}.")
    added = table.get(group, 0)
    points = "ponto" if added == 1 else "pontos"
    totals: dict[str, int] = {}
    for w in windows:
        start = window_start(day, w)
        totals[w.key] = added + sum(
            table.get(g, 0) for d, _, g in finals if g is not None and (start is None or d > start)
        )
    parts = [
        f"{totals[w.key]} {'no prontuário' if w.unit == 'unlimited' else f'em {w.label}'}" for w in windows
    ]
    found.say(
        f"Pontos: {added} {points} desta infração (Grupo {group}); total com as infrações anteriores "
        "definitivas: " + ", ".join(parts) + "."
    )
    _apply_thresholds(cfg, group, totals, found)
    return {"added": added, "totals": totals}


def _points_undefined(cfg: Config, windows: list[Window], found: Findings) -> dict[str, Any]:
    """The law keeps points but leaves their value undefined: no total, no threshold can be checked."""
    entry = cfg.points_entry
    assert entry is not None
    found.miss("penalty.points")
    found.say(
        "Pontos: o texto disponível não diz quantos pontos vale cada classe de infração; por isso não "
        "é possível somar o prontuário nem verificar o limite de "
        + join_pt(f"{t.at_least} pontos ({'; '.join(t.cites)})" for t in cfg.thresholds)
        + "."
    )
    if cfg.thresholds_entry is not None:
        found.cite(cfg.thresholds_entry.citation)
    return {"added": None, "totals": {w.key: None for w in windows}}


def _apply_thresholds(cfg: Config, group: str, totals: dict[str, int], found: Findings) -> None:
    """Each threshold whose total is reached: its penalty, and the types it replaces."""
    for t in cfg.thresholds:
        if totals[t.window.key] >= t.at_least:
            found.cite(*t.citations)
            apply_penalty(t.penalty, t.cites, group, cfg, 0, found)
            found.replaced |= t.replaces
            span = "no prontuário" if t.window.unit == "unlimited" else f"em {t.window.label}"
            found.say(
                f"Com {totals[t.window.key]} pontos {span}, atingido o limite de {t.at_least} pontos: "
                f"{TYPE_PT[t.penalty.type]} ({'; '.join(t.cites)})."
            )
