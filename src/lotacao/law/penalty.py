"""The `penalty` kind: the penalty of a new infraction, given the offender's earlier infractions.

The law is data (see :mod:`lotacao.law.penalty_config`); this module only applies it, in the
order of the law's procedure (each step in its own module):

1. read the offender, the infraction and the history (:mod:`~lotacao.law.penalty_case`;
   Portuguese errors, dotted field paths);
2. count recidivism: earlier `final` entries of the same group or code (penalty.recidivism_scope)
   whose date d lies in the window of length L ending on the case date D: D − L < d ≤ D
   (:mod:`~lotacao.law.penalty_recidivism`);
3. raise the group one step per recidivism where the pack has `penalty.escalation`;
4. apply every rule of the offender's profile whose conditions hold, keep the most severe penalty
   of each type, drop the types a fired rule `replaces` (:mod:`~lotacao.law.penalty_amounts`);
   add measures, points and thresholds (:mod:`~lotacao.law.penalty_points`);
5. state the result and its explanation (:mod:`~lotacao.law.penalty_result`).

Only `final` entries count; the result does not depend on the order of the history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lotacao.law.context import Context
from lotacao.law.pack_model import Pack
from lotacao.law.penalty_amounts import add_catalogue_measures, fire_rule
from lotacao.law.penalty_case import Offence, read_offence
from lotacao.law.penalty_config import Config, config_for
from lotacao.law.penalty_points import add_points
from lotacao.law.penalty_recidivism import count_recidivism, escalate, rule_applies
from lotacao.law.penalty_result import OFFENDER_BY, Findings, earlier_pt, pt_date, state_result
from lotacao.law.penalty_rules import UNLICENSED_CODE, Window
from lotacao.law.words import plural

FIELDS = frozenset({"offender", "infraction", "history"})


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    cfg = config_for(pack, ctx.date)
    offence = read_offence(case, cfg, pack, ctx.date)
    found = Findings()
    describe_infraction(pack, cfg, offence, found)
    describe_history(offence, found)
    if offence.code in cfg.inapplicable:
        no_longer_punished(cfg, offence, found)
        return state_result(found, ctx, offence.group, 0, None)
    if offence.code in cfg.doubtful:
        applied_with_doubt(cfg, offence, found)
    repeat, window = count_recidivism(cfg, offence, found)
    group = escalate(pack, cfg, offence.group, repeat, found)
    apply_profile_rules(cfg, offence, group, window, repeat or 0, found)
    add_catalogue_measures(offence.infraction, found)
    points = None
    if cfg.points_entry is not None and offence.group is not None:
        points = add_points(cfg, offence.group, offence.finals, offence.day, found)
    if repeat is not None:
        repeat = max([repeat, *found.counts])
    return state_result(found, ctx, group, repeat, points, cfg)


def describe_infraction(pack: Pack, cfg: Config, offence: Offence, found: Findings) -> None:
    """Which infraction (the law's own item), of which group, when and by whom (and the item of
    the law a contract code stands for)."""
    code, group, inf = offence.code, offence.group, offence.infraction
    group_label = pack.groups[group].label if group is not None else None
    when = pt_date(offence.day)
    by = OFFENDER_BY[offence.offender]
    if code == UNLICENSED_CODE:
        found.say(f"Transporte remunerado de passageiros sem autorização, constatado em {when}.")
    elif inf is not None:
        found.cite(inf.citation)
        given = ", grupo informado no caso" if inf.group is None else ""
        found.say(
            f"Infração do {inf.cite} ({group_label}{given}): “{inf.description.rstrip('.')}”, "
            f"cometida em {when} {by}."
        )
    else:
        assert group is not None
        found.cite(pack.groups[group].citation)
        found.say(f"Infração {code}, da classe “{group_label}”, cometida em {when} {by}.")
    if offence.given != code:
        entry = cfg.aliases_entry
        assert entry is not None and inf is not None
        found.cite(entry.citation)
        what = (
            "O transporte sem autorização"
            if offence.given == UNLICENSED_CODE
            else f"O código {offence.given}"
        )
        found.say(f"{what} corresponde, nesta lei, à infração do {inf.cite}.")
        found.interpret(cfg, "penalty.code_aliases")


def describe_history(offence: Offence, found: Findings) -> None:
    """How many earlier infractions are final; pending and annulled ones do not count."""
    finals, pending, annulled = offence.finals, offence.pending, offence.annulled
    if not (finals or pending or annulled):
        return
    ignored = []
    if pending:
        ignored.append(f"{plural(pending, 'pendente', 'pendentes')} de decisão")
    if annulled:
        ignored.append(plural(annulled, "anulada", "anuladas"))
    text = (
        f"Histórico: {earlier_pt(len(finals))}"
        if finals
        else "Histórico: nenhuma infração anterior definitiva"
    )
    if ignored:
        text += f"; não contam, porque só contam as decisões definitivas, {' e '.join(ignored)}"
    found.say(text + ".")


def no_longer_punished(cfg: Config, offence: Offence, found: Findings) -> None:
    """A code the law no longer punishes (penalty.inapplicable_codes): no penalty, and why."""
    entry = cfg.inapplicable_entry
    assert entry is not None
    found.cite(entry.citation)
    found.interpret(cfg, "penalty.inapplicable_codes")
    found.say(f"Não se aplica penalidade: {cfg.inapplicable[offence.code]}")


def applied_with_doubt(cfg: Config, offence: Offence, found: Findings) -> None:
    """A code the law's text puts in doubt (penalty.doubtful_codes): it applies, and the doubt is said."""
    entry = cfg.doubtful_entry
    assert entry is not None
    found.cite(entry.citation)
    found.interpret(cfg, "penalty.doubtful_codes")
    found.say(f"Atenção, há dúvida sobre esta infração: {cfg.doubtful[offence.code]}")


def apply_profile_rules(
    cfg: Config, offence: Offence, group: str | None, window: Window | None, repeat: int, found: Findings
) -> None:
    """Every rule of the offender's profile whose conditions hold, then the measure rules."""
    profile = cfg.offenders[offence.offender]
    for rule in cfg.rules[profile]:
        if rule_applies(rule, offence, group, cfg, window, found):
            fire_rule(rule, group, cfg, repeat, found)
    for rule in cfg.measure_rules:
        if rule_applies(rule, offence, group, cfg, window, found):
            fire_rule(rule, group, cfg, repeat, found)
