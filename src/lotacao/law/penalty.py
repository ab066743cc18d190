"""The `penalty` kind: the penalty of a new infraction, given the offender's earlier infractions.

The law is data (see :mod:`lotacao.law.penalty_config`); this module only applies it:

1. validate the offender, the infraction and the history (Portuguese errors, dotted field paths);
2. count recidivism: earlier `final` entries of the same group or code (penalty.recidivism_scope)
   whose date d lies in the window of length L ending on the case date D: D − L < d ≤ D;
3. raise the group one step per recidivism where the pack has `penalty.escalation`;
4. apply every rule of the offender's profile whose conditions hold, keep the most severe penalty
   of each type, drop the types a fired rule `replaces`; add measures, points and thresholds.

Only `final` entries count; the result does not depend on the order of the history.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from lotacao.law.context import Context
from lotacao.law.errors import CaseError
from lotacao.law.pack_model import OFFENDERS, Pack
from lotacao.law.penalty_config import Config, config_for
from lotacao.law.penalty_rules import (
    UNLICENSED_CODE,
    FineTable,
    PenaltySpec,
    Rule,
    Window,
    window_start,
)
from lotacao.law.units import brl, number_pt, plain

FIELDS = frozenset({"offender", "infraction", "history"})
HISTORY_STATUSES = ("final", "pending", "annulled")
CENT = Decimal("0.01")

OFFENDER_PT = {
    "permit_holder": "permissionário",
    "auxiliary_driver": "condutor auxiliar",
    "relief_driver": "condutor eventual",
    "fare_collector": "cobrador",
    "company": "empresa operadora",
    "unlicensed": "transportador sem autorização",
}
MEASURE_PT = {
    "vehicle_retention": "retenção do veículo",
    "vehicle_removal": "afastamento do veículo",
    "vehicle_seizure": "remoção e apreensão do veículo",
    "document_seizure": "recolhimento dos documentos obrigatórios",
    "staff_removal": "afastamento do pessoal de operação",
    "permit_suspension": "suspensão da permissão",
    "credit_offset": "desconto do valor devido de créditos do infrator",
}
SCOPE_PT = {"same_group": "do mesmo grupo", "same_code": "da mesma infração (mesmo código)"}
TYPE_ORDER = {"warning": 0, "fine": 1, "suspension": 2, "revocation": 3, "course": 4, "intervention": 5}

Final = tuple[dt.date, str, str | None]  # date, code, group


def pt_date(day: dt.date) -> str:
    """16/06/2025 (faster than strftime, which dominates batch explanations)."""
    return f"{day.day:02d}/{day.month:02d}/{day.year}"


# --------------------------------------------------------------------------- validation


def _offender(case: Mapping[str, Any], cfg: Config, pack: Pack) -> str:
    offender = case.get("offender")
    if offender is None:
        raise CaseError("missing_field", "Campo obrigatório ausente: offender (o infrator).", "offender")
    if not isinstance(offender, str) or offender not in OFFENDERS:
        raise CaseError(
            "invalid_field",
            f"Infrator desconhecido: {offender!r}. Valores aceitos: {', '.join(sorted(OFFENDERS))}.",
            "offender",
        )
    if offender not in cfg.offenders:
        accepted = ", ".join(f"{o} ({OFFENDER_PT[o]})" for o in cfg.offenders)
        raise CaseError(
            "offender_not_applicable",
            f"A {pack.law} não prevê penalidade para {OFFENDER_PT[offender]} ({offender}). "
            f"Infratores previstos: {accepted}. {cfg.offenders_entry.note or ''}".strip(),
            "offender",
        )
    return offender


def _infraction(
    case: Mapping[str, Any], cfg: Config, pack: Pack, offender: str
) -> tuple[str, str | None, str]:
    """The catalogue code (after penalty.code_aliases), its group, and the code as given."""
    raw = case.get("infraction")
    if raw is None and offender == "unlicensed":
        raw = {"code": UNLICENSED_CODE}
    if raw is None:
        raise CaseError("missing_field", "Campo obrigatório ausente: infraction.", "infraction")
    if not isinstance(raw, Mapping):
        raise CaseError(
            "invalid_field", 'infraction deve ser um objeto, ex.: {"code": "G2-a"}.', "infraction"
        )
    code = raw.get("code")
    if code is None:
        raise CaseError("missing_field", "Campo obrigatório ausente: infraction.code.", "infraction.code")
    if not isinstance(code, str) or not code:
        raise CaseError("invalid_field", "infraction.code deve ser um texto não vazio.", "infraction.code")
    if offender == "unlicensed" and code != UNLICENSED_CODE:
        raise CaseError(
            "invalid_field",
            f"Para o transporte sem autorização (offender unlicensed) o código é {UNLICENSED_CODE}, "
            f"não {code!r}.",
            "infraction.code",
        )
    if code == UNLICENSED_CODE and offender != "unlicensed":
        raise CaseError(
            "invalid_field",
            f'O código {UNLICENSED_CODE} é o do transporte sem autorização: informe offender "unlicensed".',
            "offender",
        )
    given = code
    code = cfg.aliases.get(code, code)
    group = _group_of(code, raw.get("group"), cfg, pack, "infraction")
    return code, group, given


def _group_of(code: str, given: Any, cfg: Config, pack: Pack, base: str) -> str | None:
    """The group of `code`: the catalogue's, else the one given (where the pack accepts it)."""
    if code in cfg.code_groups:
        group = cfg.code_groups[code]
        if group is not None:
            if given is not None and given != group:
                raise CaseError(
                    "group_mismatch",
                    f"O código {code} é do grupo {group} no catálogo da lei, não {given!r}.",
                    f"{base}.group",
                )
            return group
    elif code != UNLICENSED_CODE and not pack.accepts_group_only:
        examples = ", ".join(list(pack.infractions)[:3])
        raise CaseError(
            "unknown_infraction",
            f"Código de infração desconhecido na {pack.law}: {code!r} (códigos da lei, ex.: {examples}).",
            f"{base}.code",
        )
    if code == UNLICENSED_CODE:
        return None
    if given is None:
        raise CaseError(
            "missing_field",
            f"Informe o grupo da infração {code} ({base}.group): a lei não o fixa no catálogo disponível. "
            f"Grupos: {', '.join(pack.groups)}.",
            f"{base}.group",
        )
    if not isinstance(given, str) or given not in pack.groups:
        raise CaseError(
            "invalid_field",
            f"Grupo desconhecido: {given!r}. Grupos da lei: {', '.join(pack.groups)}.",
            f"{base}.group",
        )
    return given


def _history(case: Mapping[str, Any], cfg: Config, pack: Pack, day: dt.date) -> tuple[list[Final], int, int]:
    """The final entries as (date, code, group), and how many were pending and annulled.

    The loop is the hot path of batch evaluation: well-formed entries take the fast path; any
    anomaly goes to :func:`_entry_error`, which finds the first problem and raises it.
    """
    raw = case.get("history")
    if raw is None:
        return [], 0, 0
    if not isinstance(raw, list):
        raise CaseError("invalid_field", "history deve ser uma lista de infrações anteriores.", "history")
    finals: list[Final] = []
    pending = annulled = 0
    code_groups = cfg.code_groups
    aliases = cfg.aliases
    fromiso = dt.date.fromisoformat
    for i, h in enumerate(raw):
        try:
            ds = h["date"]
            status = h["status"]
            code = h["code"]
            if type(ds) is not str or len(ds) != 10 or type(code) is not str or not code:
                raise ValueError
            if status != "final" and status != "pending" and status != "annulled":
                raise ValueError
            d = fromiso(ds)
        except (KeyError, TypeError, ValueError, IndexError):
            _entry_error(i, h)
            raise  # pragma: no cover - _entry_error always raises
        if d > day:
            raise CaseError(
                "history_after_case",
                f"A infração anterior history.{i} ({pt_date(d)}) é posterior à data do caso "
                f"({pt_date(day)}).",
                f"history.{i}.date",
            )
        if aliases:
            code = aliases.get(code, code)
        group = code_groups.get(code)
        if group is None or "group" in h:
            group = _group_of(code, h.get("group"), cfg, pack, f"history.{i}")
        if status == "final":
            finals.append((d, code, group))
        elif status == "pending":
            pending += 1
        else:
            annulled += 1
    return finals, pending, annulled


def _entry_error(i: int, h: Any) -> None:
    """Raise the first problem of history entry `i` (called only when the fast path failed)."""
    where = f"history.{i}"
    if not isinstance(h, Mapping):
        raise CaseError(
            "invalid_field", 'Cada item de history deve ser um objeto {"date", "code", "status"}.', where
        )
    for key in ("date", "code", "status"):
        if h.get(key) is None:
            raise CaseError("missing_field", f"Campo obrigatório ausente: {where}.{key}.", f"{where}.{key}")
    ds = h["date"]
    if not isinstance(ds, str) or len(ds) != 10:
        raise CaseError(
            "invalid_date", f"Data inválida em {where}.date: {ds!r}. Use AAAA-MM-DD.", f"{where}.date"
        )
    try:
        dt.date.fromisoformat(ds)
    except ValueError:
        raise CaseError(
            "invalid_date", f"Data inválida em {where}.date: {ds!r}. Use AAAA-MM-DD.", f"{where}.date"
        ) from None
    status = h["status"]
    if status not in HISTORY_STATUSES:
        raise CaseError(
            "invalid_field",
            f"Situação inválida em {where}.status: {status!r}. Valores aceitos: final, pending, annulled.",
            f"{where}.status",
        )
    raise CaseError("invalid_field", f"{where}.code deve ser um texto não vazio.", f"{where}.code")


# --------------------------------------------------------------------------- counting


def _count(
    finals: list[Final],
    day: dt.date,
    window: Window,
    scope: str,
    code: str,
    group: str | None,
    only: frozenset[str] | None = None,
) -> list[Final]:
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


def _list(hits: list[Final]) -> str:
    return ", ".join(f"{c} em {pt_date(d)}" for d, c, _ in sorted(hits))


# --------------------------------------------------------------------------- evaluation


class _Result:
    """Penalties being collected: the most severe of each type; types replaced by a fired rule."""

    def __init__(self) -> None:
        self.penalties: dict[str, tuple[dict[str, Any], tuple[Decimal, ...], str]] = {}
        self.replaced: set[str] = set()
        self.measures: dict[str, int | None] = {}
        self.measure_cites: dict[str, str] = {}
        self.citations: dict[str, None] = {}  # an ordered set
        self.missing: list[str] = []
        self.interpretations: list[str] = []
        self.counts: list[int] = []  # earlier infractions counted by each rule that fired on them

    def cite(self, *citations: str) -> None:
        for c in citations:
            self.citations[c] = None

    def miss(self, name: str) -> None:
        if name not in self.missing:
            self.missing.append(name)

    def add(self, kind: str, out: dict[str, Any], severity: tuple[Decimal, ...], text: str) -> None:
        current = self.penalties.get(kind)
        if current is None or severity > current[1]:
            self.penalties[kind] = (out, severity, text)


_Record = tuple[str, dict[str, Any], tuple[Decimal, ...], str, tuple[str, ...], tuple[str, ...]]


def _fine(spec: PenaltySpec, table: FineTable, cfg: Config, repeat: int) -> _Record:
    """kind, output, severity, text, citations, missing parameters of a fine."""
    factor = spec.factor + spec.per_repeat * repeat
    cites = [table.citation]
    charged = (
        f", a cargo do {OFFENDER_PT[spec.charged_to]} a que o infrator está vinculado"
        if spec.charged_to
        else ""
    )
    out: dict[str, Any] = {"type": "fine"}
    if spec.charged_to:
        out["charged_to"] = spec.charged_to
    if table.status != "value":
        out["amount"] = None
        reason = f": {table.reason}" if table.reason else ""
        text = f"multa de valor não definido no texto disponível ({table.param}{reason}){charged}"
        return "fine", out, (Decimal(-1), factor), text, tuple(cites), (table.param,)
    if table.by:
        charged += f" (valor fixado pelo órgão: {table.by}, {table.citation})"
    capped = ""
    if table.base_multiple is not None:
        entry = cfg.base_fine_entry
        assert entry is not None
        cites.append(entry.citation)
        if cfg.base_fine is None:
            out["amount"] = None
            text = f"multa de {number_pt(table.base_multiple)} × Vb, com Vb não definido (penalty.base_fine)"
            return "fine", out, (Decimal(-1), factor), text + charged, tuple(cites), ("penalty.base_fine",)
        value = (table.base_multiple * cfg.base_fine * factor).quantize(CENT, rounding=ROUND_HALF_UP)
        out["amount"] = str(value)
        text = f"multa de {brl(value)} ({number_pt(table.base_multiple)} × Vb de {brl(cfg.base_fine)}"
        text += f", × {number_pt(factor)})" if factor != 1 else ")"
        if entry.by:
            text += f" (Vb fixado pelo órgão: {entry.by}, {entry.citation})"
    elif table.amount is not None:
        value = (table.amount * factor).quantize(CENT, rounding=ROUND_HALF_UP)
        if spec.max is not None and value > spec.max:
            value, capped = spec.max, f", limitada a {brl(spec.max)}"
        out["amount"] = str(value)
        text = f"multa de {brl(value)}"
        if factor != 1:
            text += f" ({brl(table.amount)} × {number_pt(factor)}{capped})"
    else:
        assert table.units is not None and table.unit is not None
        value = table.units * factor
        if spec.max is not None and value > spec.max:
            value, capped = spec.max, f", limitada a {number_pt(spec.max)} {table.unit}"
        out["units"] = plain(value)
        out["unit"] = table.unit
        text = f"multa de {number_pt(value)} {table.unit}"
        if factor != 1:
            text += f" (valor inicial de {number_pt(table.units)} {table.unit} × {number_pt(factor)}{capped})"
    return "fine", out, (value,), text + charged, tuple(cites), ()


def _record(
    spec: PenaltySpec, cites: tuple[str, ...], group: str | None, cfg: Config, repeat: int
) -> _Record:
    where = "; ".join(cites)
    kind = spec.type
    out: dict[str, Any]
    severity: tuple[Decimal, ...] = ()
    if kind == "fine":
        key = spec.fine or group
        assert key is not None
        kind, out, severity, text, citations, missing = _fine(spec, cfg.fines[key], cfg, repeat)
        return kind, out, severity, f"{text} ({where})", citations, missing
    if kind == "suspension":
        assert spec.days is not None
        out, severity, text = {"type": "suspension", "days": spec.days}, (Decimal(spec.days),), ""
        text = f"suspensão por {spec.days} dias"
    elif kind == "revocation":
        out = {"type": "revocation"}
        if spec.ban_years is not None:
            out["ban_years"] = spec.ban_years
            text = f"cassação, com impedimento de {spec.ban_years} anos para voltar ao serviço"
        else:
            text = "cassação (a lei não fixa prazo de impedimento)"
        severity = (Decimal(spec.ban_years or 0),)
    else:
        out, text = {"type": kind}, _TYPE_TEXT[kind]
    return kind, out, severity, f"{text} ({where})", (), ()


_TYPE_TEXT = {
    "warning": "advertência por escrito",
    "course": "curso obrigatório",
    "intervention": "intervenção",
}


def _apply(
    spec: PenaltySpec, cites: tuple[str, ...], group: str | None, cfg: Config, repeat: int, res: _Result
) -> None:
    key = (id(spec), cites, group, repeat)
    rec = cfg.memo.get(key)
    if rec is None:
        rec = cfg.memo[key] = _record(spec, cites, group, cfg, repeat)
    kind, out, severity, text, citations, missing = rec
    for c in citations:
        res.citations[c] = None
    for m in missing:
        res.miss(m)
    res.add(kind, dict(out), severity, text)


def _fire(rule: Rule, group: str | None, cfg: Config, repeat: int, res: _Result) -> None:
    res.cite(*rule.citations)
    if rule.penalty is not None:
        _apply(rule.penalty, rule.cites, group, cfg, repeat, res)
    for m, days in rule.measures:
        if m not in res.measures or (days or 0) > (res.measures[m] or 0):
            res.measures[m] = days
        res.measure_cites.setdefault(m, "; ".join(rule.cites))
    res.replaced |= rule.replaces


def evaluate(pack: Pack, case: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    day = ctx.date
    cfg = config_for(pack, day)
    offender = _offender(case, cfg, pack)
    code, group, given = _infraction(case, cfg, pack, offender)
    finals, pending, annulled = _history(case, cfg, pack, day)
    res = _Result()
    lines: list[str] = []

    # -- the infraction
    inf = pack.infractions.get(code)
    group_label = pack.groups[group].label if group is not None else None
    when = pt_date(day)
    if code == UNLICENSED_CODE:
        lines.append(f"Transporte remunerado de passageiros sem autorização ({code}), constatado em {when}.")
    elif inf is not None:
        res.cite(inf.citation)
        lines.append(
            f'Infração {code} ({group_label}): "{inf.description}", cometida em {when} '
            f"por {OFFENDER_PT[offender]}."
        )
    else:
        assert group is not None
        res.cite(pack.groups[group].citation)
        lines.append(
            f'Infração {code}, da classe "{group_label}", cometida em {when} por {OFFENDER_PT[offender]}.'
        )
    if given != code:
        entry = cfg.aliases_entry
        assert entry is not None
        res.cite(entry.citation)
        lines.append(f"O código informado ({given}) corresponde, nesta lei, a {code} (penalty.code_aliases).")
        _interp(res, cfg, "penalty.code_aliases")
    if finals or pending or annulled:
        ignored = []
        if pending:
            ignored.append(f"{pending} pendente{'s' if pending > 1 else ''} de decisão")
        if annulled:
            ignored.append(f"{annulled} anulada{'s' if annulled > 1 else ''}")
        text = f"Histórico: {len(finals)} infração(ões) anterior(es) com decisão definitiva"
        if ignored:
            text += f"; não contam (só decisões definitivas contam) {' e '.join(ignored)}"
        lines.append(text + ".")

    # -- a code the law no longer punishes
    if code in cfg.inapplicable:
        entry = cfg.inapplicable_entry
        assert entry is not None
        res.cite(entry.citation)
        res.interpretations.append("penalty.inapplicable_codes")
        lines.append(f"Não se aplica penalidade: {cfg.inapplicable[code]}")
        return _finish(res, ctx, lines, group, 0, None, cfg)

    # -- recidivism
    repeat: int | None = 0
    counted: list[Final] = []
    window: Window | None = cfg.window
    scope = cfg.scope
    if cfg.window_mode == "catalogue":
        window = _row_window(inf)
    if cfg.window_mode == "undefined":
        entry = cfg.window_entry
        assert entry is not None
        if finals:
            repeat = None
            res.cite(entry.citation)
            res.miss("penalty.recidivism_window")
            lines.append(
                "A reincidência não está definida no texto disponível (penalty.recidivism_window): "
                f"{entry.reason} As infrações anteriores não foram consideradas."
            )
    elif cfg.window_mode in ("fixed", "catalogue") and scope is not None:
        if window is None:
            if cfg.window_mode == "catalogue" and inf is not None:
                lines.append(f'A linha {code} do catálogo não prevê reincidência ("Não se aplica").')
        else:
            counted = _count(finals, day, window, scope, code, group)
            repeat = len(counted)
            if counted or finals:
                for e in (cfg.scope_entry, cfg.window_entry):
                    if e is not None:
                        res.cite(e.citation)
                if cfg.window_mode == "catalogue" and inf is not None:
                    res.cite(inf.citation)
                _interp(res, cfg, "penalty.recidivism_scope", "penalty.recidivism_window")
                start = window_start(day, window)
                span = (
                    f"nos {window.label} anteriores"
                    if start is None
                    else (
                        f"nos {window.label} anteriores (de {pt_date(start + dt.timedelta(days=1))} a {when})"
                    )
                )
                if window.unit == "unlimited":
                    span = "sem limite de tempo"
                head = f"Reincidência: contam as infrações anteriores definitivas {SCOPE_PT[scope]} {span}"
                if counted:
                    lines.append(f"{head}: {repeat} — {_list(counted)}.")
                else:
                    lines.append(f"{head}: nenhuma.")

    # -- escalation of the group
    eff_group = group
    if cfg.escalation is not None and group is not None and repeat and group in cfg.escalation:
        order = cfg.escalation
        eff_group = order[min(order.index(group) + repeat, len(order) - 1)]
        if eff_group != group:
            entry = cfg.escalation_entry
            assert entry is not None
            res.cite(entry.citation)
            _interp(res, cfg, "penalty.escalation")
            lines.append(
                f"Pela reincidência, a infração é punida como {pack.groups[eff_group].label} "
                f"(grupo original: {group})."
            )

    # -- the rules of the offender's profile, then the measures of every profile
    profile = cfg.offenders[offender]
    _interp(res, cfg, f"penalty.rules.{profile}")
    rule_repeat = repeat or 0
    for rule in cfg.rules[profile]:
        if _matches(rule, code, eff_group, day, finals, cfg, window, inf, res, lines):
            _fire(rule, eff_group, cfg, rule_repeat, res)
    for rule in cfg.measure_rules:
        if _matches(rule, code, eff_group, day, finals, cfg, window, inf, res, lines):
            _fire(rule, eff_group, cfg, rule_repeat, res)
    if inf is not None and inf.measures:
        for m in inf.measures:
            days = inf.measure_days if m == "permit_suspension" else None
            if m not in res.measures or (days or 0) > (res.measures[m] or 0):
                res.measures[m] = days
            res.measure_cites.setdefault(m, inf.cite)
        res.cite(inf.citation)

    # -- points
    points_out: dict[str, Any] | None = None
    if cfg.points_entry is not None and group is not None:
        points_out = _points(cfg, group, finals, day, res, lines)

    final_repeat = repeat if repeat is None else max([repeat, *res.counts])
    return _finish(res, ctx, lines, eff_group, final_repeat, points_out, cfg)


def _row_window(inf: Any) -> Window | None:
    if inf is None or inf.recidivism is None:
        return None
    ((unit, n),) = inf.recidivism.items()
    if unit not in ("days", "months", "years"):
        return None
    return Window(unit, n)


def _interp(res: _Result, cfg: Config, *names: str) -> None:
    for name in names:
        if name in cfg.interpretations and name not in res.interpretations:
            res.interpretations.append(name)


def _matches(
    rule: Rule,
    code: str,
    group: str | None,
    day: dt.date,
    finals: list[Final],
    cfg: Config,
    window: Window | None,
    inf: Any,
    res: _Result,
    lines: list[str],
) -> bool:
    if rule.codes is not None and code not in rule.codes:
        return False
    if rule.groups is not None and (group is None or group not in rule.groups):
        return False
    e = rule.earlier
    if e is None:
        return True
    scope = e.scope or cfg.scope
    w = e.window or window
    if scope is None or w is None:
        return False
    only = None
    if e.codes_param is not None:
        codes = cfg.code_lists[e.codes_param]
        if codes.codes is None:
            # the law leaves the list undefined: say so when the count alone would fire the rule
            if len(_count(finals, day, w, scope, code, group)) >= e.at_least:
                res.cite(codes.citation, *rule.citations)
                res.miss(codes.param)
                kind = rule.penalty.type if rule.penalty else "medida"
                lines.append(
                    f"A regra de {'; '.join(rule.cites)} ({_TYPE_PT.get(kind, kind)}) pode se aplicar, "
                    "mas depende de "
                    f"{codes.param}, que o texto disponível não define: {codes.reason}"
                )
            return False
        if code not in codes.codes:
            return False
        only = codes.codes
    hits = _count(finals, day, w, scope, code, group, only)
    if len(hits) < e.at_least:
        return False
    if e.window is not None or e.scope is not None or only is not None:
        span = "sem limite de tempo" if w.unit == "unlimited" else f"nos {w.label} anteriores"
        lines.append(
            f"Para {'; '.join(rule.cites)}: {len(hits)} infração(ões) anterior(es) definitiva(s) "
            f"{SCOPE_PT[scope]} {span}"
            f" — {_list(hits)}."
        )
    res.counts.append(len(hits))
    return True


_TYPE_PT = {
    "warning": "advertência",
    "fine": "multa",
    "suspension": "suspensão",
    "revocation": "cassação",
    "course": "curso obrigatório",
    "intervention": "intervenção",
}


def _points(
    cfg: Config, group: str, finals: list[Final], day: dt.date, res: _Result, lines: list[str]
) -> dict[str, Any]:
    entry = cfg.points_entry
    assert entry is not None
    res.cite(entry.citation)
    windows: list[Window] = []
    for t in cfg.thresholds:
        if t.window not in windows:
            windows.append(t.window)
    if cfg.thresholds_entry is not None:
        _interp(res, cfg, "penalty.points_thresholds")
    table = cfg.points
    if table is None:
        res.miss("penalty.points")
        lines.append(
            f"Pontos: o valor em pontos de cada classe não está definido no texto disponível "
            f"(penalty.points: {entry.reason}); não é possível somar o prontuário nem verificar "
            + "; ".join(f"{t.at_least} pontos ({'; '.join(t.cites)})" for t in cfg.thresholds)
            + "."
        )
        if cfg.thresholds_entry is not None:
            res.cite(cfg.thresholds_entry.citation)
        return {"added": None, "totals": {w.key: None for w in windows}}
    if entry.by:
        lines.append(f"Pontos por grupo fixados pelo órgão ({entry.by}, {entry.citation}).")
    added = table.get(group, 0)
    totals: dict[str, int] = {}
    for w in windows:
        start = window_start(day, w)
        totals[w.key] = added + sum(
            table.get(g, 0) for d, _, g in finals if g is not None and (start is None or d > start)
        )
    parts = [
        f"{totals[w.key]} {'no prontuário' if w.unit == 'unlimited' else f'em {w.label}'}" for w in windows
    ]
    lines.append(
        f"Pontos: {added} desta infração (grupo {group}); total com as infrações anteriores definitivas: "
        + ", ".join(parts)
        + "."
    )
    for t in cfg.thresholds:
        if totals[t.window.key] >= t.at_least:
            res.cite(*t.citations)
            _apply(t.penalty, t.cites, group, cfg, 0, res)
            res.replaced |= t.replaces
            span = "no prontuário" if t.window.unit == "unlimited" else f"em {t.window.label}"
            lines.append(
                f"Com {totals[t.window.key]} pontos {span}, atingido o limite de {t.at_least} pontos: "
                f"{_TYPE_PT[t.penalty.type]} ({'; '.join(t.cites)})."
            )
    return {"added": added, "totals": totals}


def _finish(
    res: _Result,
    ctx: Context,
    lines: list[str],
    group: str | None,
    repeat: int | None,
    points: dict[str, Any] | None,
    cfg: Config,
) -> dict[str, Any]:
    chosen = [(kind, item) for kind, item in res.penalties.items() if kind not in res.replaced]
    chosen.sort(key=lambda ki: TYPE_ORDER[ki[0]])
    penalties = [item[0] for _, item in chosen]
    if chosen:
        lines.append("Penalidades: " + "; ".join(item[2] for _, item in chosen) + ".")
    else:
        lines.append("Nenhuma penalidade decorre desta infração pelo texto da lei.")
    measures: list[dict[str, Any]] = []
    texts = []
    for m, days in res.measures.items():
        item: dict[str, Any] = {"type": m}
        label = MEASURE_PT[m]
        if days is not None:
            item["days"] = days
            label += f" por {days} dias"
        measures.append(item)
        texts.append(f"{label} ({res.measure_cites[m]})")
    if texts:
        lines.append("Medidas administrativas cabíveis: " + "; ".join(texts) + ".")
    for name in res.interpretations:
        if name not in ctx.interpretations:
            ctx.interpretations.append(name)
    out: dict[str, Any] = {
        "penalties": penalties,
        "measures": measures,
        "group": group,
        "repeat": repeat,
    }
    if points is not None:
        out["points"] = points
    out["citations"] = list(res.citations)
    out["explanation"] = " ".join(lines)
    out["missing_parameters"] = res.missing
    return out
