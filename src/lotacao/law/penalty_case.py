"""Reading a `penalty` case: who offended, which infraction, and the offender's history.

Each problem is a CaseError in Portuguese with the dotted path of the field. Codes are read
through `penalty.code_aliases`; a code's group is the catalogue's, else the one the case gives
(where the law has no catalogue). Only `final` history entries count; the others are tallied.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lotacao.law.errors import CaseError
from lotacao.law.pack_model import OFFENDERS, Infraction, Pack
from lotacao.law.penalty_config import Config
from lotacao.law.penalty_result import OFFENDER_PT, pt_date
from lotacao.law.penalty_rules import UNLICENSED_CODE

HISTORY_STATUSES = ("final", "pending", "annulled")

Final = tuple[dt.date, str, str | None]  # date, code, group


@dataclass(frozen=True, slots=True)
class Offence:
    """The case as the law reads it."""

    day: dt.date
    offender: str
    code: str  # the catalogue code (after penalty.code_aliases)
    given: str  # the code as the case gave it
    group: str | None  # None: transport without authorisation
    infraction: Infraction | None  # the catalogue row; None where the law has no catalogue
    finals: list[Final]  # earlier infractions with a final decision
    pending: int
    annulled: int


def read_offence(case: Mapping[str, Any], cfg: Config, pack: Pack, day: dt.date) -> Offence:
    """The offender, then the infraction, then the history (the first problem found is raised)."""
    offender = _offender(case, cfg, pack)
    code, group, given = _infraction(case, cfg, pack, offender)
    finals, pending, annulled = _history(case, cfg, pack, day)
    return Offence(
        day=day,
        offender=offender,
        code=code,
        given=given,
        group=group,
        infraction=pack.infractions.get(code),
        finals=finals,
        pending=pending,
        annulled=annulled,
    )


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
