"""The JSON contract of `lotacao evaluate` (../shared/contracts/README.md): one case in, one result out.

Validates the common fields (Portuguese errors with dotted field paths), loads the jurisdiction's
pack, and hands the case to the module of its kind: `lotacao.law.<kind>.evaluate(pack, case, ctx)`.
The kind returns its own keys and an `explanation`; this module adds `jurisdiction`, `kind`,
`citations` and `missing_parameters` (from what the kind recorded in `ctx`), and a sentence for
each interpretation the result relied on.
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from lotacao.law.context import Context, check_keys, parse_date, pt_date
from lotacao.law.errors import CaseError, PackError
from lotacao.law.packs import Pack, available_packs, get_pack

KINDS = ("penalty", "deadline", "vehicle", "fee", "quota", "fleet")
COMMON_FIELDS = frozenset({"jurisdiction", "kind", "date", "extra_holidays"})

_MODULES: dict[str, ModuleType] = {}
Overrides = Mapping[str, Any]


def _kind_module(kind: str) -> ModuleType:
    module = _MODULES.get(kind)
    if module is None:
        try:
            module = importlib.import_module(f"lotacao.law.{kind}")
        except ModuleNotFoundError as exc:
            if exc.name != f"lotacao.law.{kind}":
                raise
            raise CaseError(
                "kind_unavailable",
                f"O tipo de caso {kind!r} ainda não está disponível neste motor de regras.",
                "kind",
            ) from None
        _MODULES[kind] = module
    return module


def evaluate_case(case: Any, *, overrides: Overrides | None = None) -> dict[str, Any]:
    """Answer one case of the contract. Invalid input gives `{"error": {code, message, field}}`."""
    try:
        return evaluate_or_raise(case, overrides=overrides)
    except CaseError as exc:
        return {"error": exc.as_dict()}
    except PackError as exc:
        return {
            "error": {
                "code": "pack_error",
                "message": f"O pacote da lei está inválido ({exc.file}, linha {exc.line}): {exc.message}",
                "field": "jurisdiction",
            }
        }


def evaluate_or_raise(case: Any, *, overrides: Overrides | None = None) -> dict[str, Any]:
    """Like :func:`evaluate_case`, but raises CaseError instead of returning the error object."""
    if not isinstance(case, Mapping):
        raise CaseError("invalid_case", "Cada caso deve ser um objeto JSON ({...}).", "")
    jurisdiction = case.get("jurisdiction")
    if jurisdiction is None:
        raise CaseError("missing_field", "Campo obrigatório ausente: jurisdiction.", "jurisdiction")
    if not isinstance(jurisdiction, str) or jurisdiction not in available_packs():
        known = ", ".join(available_packs())
        raise CaseError(
            "unknown_jurisdiction",
            f"Jurisdição desconhecida: {jurisdiction!r}. Jurisdições disponíveis: {known}.",
            "jurisdiction",
        )
    kind = case.get("kind")
    if kind is None:
        raise CaseError("missing_field", "Campo obrigatório ausente: kind.", "kind")
    if kind not in KINDS:
        raise CaseError(
            "unknown_kind", f"Tipo de caso desconhecido: {kind!r}. Tipos aceitos: {', '.join(KINDS)}.", "kind"
        )
    module = _kind_module(kind)
    fields = getattr(module, "FIELDS", None)
    if fields is not None:
        check_keys(case, COMMON_FIELDS | fields)
    if case.get("date") is None:
        raise CaseError("missing_field", "Campo obrigatório ausente: date.", "date")
    day = parse_date(case["date"], "date")

    pack: Pack = get_pack(jurisdiction)
    if overrides:
        pack = pack.with_overrides(overrides)
    if day < pack.start:
        raise CaseError(
            "date_before_law",
            f"A data {pt_date(day)} é anterior ao início da vigência da {pack.law} ({pt_date(pack.start)}).",
            "date",
        )
    extra = _extra_holidays(case.get("extra_holidays"))
    ctx = Context(pack, case, day, extra)
    _check_law_status(ctx)

    evaluate: Callable[[Pack, Mapping[str, Any], Context], dict[str, Any]] = module.evaluate
    result = evaluate(pack, case, ctx)
    return finish(pack, kind, result, ctx)


def finish(pack: Pack, kind: str, result: dict[str, Any], ctx: Context) -> dict[str, Any]:
    out: dict[str, Any] = {"jurisdiction": pack.id, "kind": kind}
    out.update(result)
    citations = list(result.get("citations") or [])
    for c in ctx.citations:
        if c not in citations:
            citations.append(c)
    out["citations"] = citations or [pack.cite("(lei completa)")]
    missing = list(result.get("missing_parameters") or [])
    for m in ctx.missing:
        if m not in missing:
            missing.append(m)
    out["missing_parameters"] = missing
    parts = [str(result.get("explanation") or "").strip()]
    parts += ctx.notes
    readings: set[str] = set()
    for name in ctx.interpretations:
        interp = pack.parameters[name].interpretation
        if interp is not None and interp.reading not in readings:
            readings.add(interp.reading)
            parts.append(f"Interpretação adotada ({name}): {interp.reading}")
    if missing:
        parts.append(
            "Valores que o texto da lei deixa indefinidos e que este resultado precisou: "
            + ", ".join(missing)
            + " (o órgão gestor pode informá-los)."
        )
    out["explanation"] = " ".join(p for p in parts if p)
    return out


def _extra_holidays(value: Any) -> tuple[dt.date, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise CaseError(
            "invalid_field", "extra_holidays deve ser uma lista de datas (AAAA-MM-DD).", "extra_holidays"
        )
    return tuple(parse_date(v, f"extra_holidays.{i}") for i, v in enumerate(value))


def _check_law_status(ctx: Context) -> None:
    """A pack may date the law's own status (`law.in_force`): not in force -> error; unknown -> a note."""
    if not ctx.has("law.in_force"):
        return
    entry = ctx.pack.resolve("law.in_force", ctx.date)
    if entry.status == "value" and entry.value is True:
        return
    if entry.status == "undefined":
        ctx.add_citation(entry.citation)
        if "law.in_force" not in ctx.missing:
            ctx.missing.append("law.in_force")
        ctx.notes.append(
            f"Atenção: a vigência da lei em {pt_date(ctx.date)} não está confirmada: {entry.reason}"
        )
        return
    reason = entry.reason or entry.note or "a lei não está em vigor nesta data"
    raise CaseError(
        "law_not_in_force",
        f"A {ctx.pack.law} não está em vigor em {pt_date(ctx.date)}: {reason} ({entry.citation}).",
        "date",
    )
