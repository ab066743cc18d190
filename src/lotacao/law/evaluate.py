"""The JSON contract of `lotacao evaluate` (docs/contract/README.md): one case in, one result out.

Validates the common fields (Portuguese errors with dotted field paths), loads the jurisdiction's
pack, and hands the case to the module of its kind: `lotacao.law.<kind>.evaluate(pack, case, ctx)`.
The kind returns its own keys and an `explanation`; this module adds `jurisdiction`, `kind`,
`citations`, `missing_parameters` and `interpretations` (from what the kind recorded in `ctx`),
and says each interpretation and each missing value in words at the end of the explanation.
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
from lotacao.law.words import lower_first

KINDS = ("penalty", "deadline", "vehicle", "fee", "quota", "fleet", "workday")
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
    """The kind's result with the common fields: citations (one per provision, each once), missing
    parameters, the interpretations relied on — ids in the
    structured fields, each said in words in the explanation."""
    out: dict[str, Any] = {"jurisdiction": pack.id, "kind": kind}
    out.update(result)
    citations = list(result.get("citations") or [])
    for c in ctx.citations:
        if c not in citations:
            citations.append(c)
    out["citations"] = unique(split_citations(pack, citations)) or [pack.cite("(lei completa)")]
    missing = list(result.get("missing_parameters") or [])
    for m in ctx.missing:
        if m not in missing:
            missing.append(m)
    out["missing_parameters"] = missing
    interpretations = [{"parameter": name, "text": text} for name, text in ctx.interpretations]
    out["interpretations"] = interpretations
    parts = [str(result.get("explanation") or "").strip()]
    parts += ctx.notes
    for item in interpretations:
        parts.append(f"Interpretação adotada: {item['text']}")
    if interpretations:
        parts.append(
            "O órgão gestor pode adotar outra leitura em Valores da lei."
            if len(interpretations) == 1
            else "O órgão gestor pode adotar outras leituras em Valores da lei."
        )
    if missing:
        parts.append(missing_sentence(pack, missing))
    out["explanation"] = " ".join(p for p in parts if p)
    return out


def missing_sentence(pack: Pack, missing: list[str]) -> str:
    """The values the law leaves open that the result needed, named in words."""
    names = [lower_first(pack.parameters[m].description) if m in pack.parameters else m for m in missing]
    if len(names) == 1:
        return (
            f"A lei não fixa um valor de que este resultado precisa — {names[0]} —, "
            "que o órgão gestor pode informar em Valores da lei."
        )
    return (
        "A lei não fixa valores de que este resultado precisa, que o órgão gestor pode informar em "
        f"Valores da lei: {'; '.join(names)}."
    )


def split_citations(pack: Pack, citations: list[str]) -> list[str]:
    """One citation per provision: "<law>, art. 18, b; Anexo I, art. 7º, IV" is two citations."""
    prefix = f"{pack.law}, "
    out: list[str] = []
    for c in citations:
        if c.startswith(prefix) and "; " in c:
            out += [prefix + part.strip() for part in c[len(prefix) :].split("; ") if part.strip()]
        else:
            out.append(c)
    return out


def unique(citations: list[str]) -> list[str]:
    """Each citation once (a provision cited by two rules is listed once)."""
    return list(dict.fromkeys(citations))


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
            f"Atenção: a vigência da lei em {pt_date(ctx.date)} não está confirmada: "
            f"{lower_first(entry.reason or '')}."
        )
        return
    reason = entry.reason or entry.note or "a lei não está em vigor nesta data"
    raise CaseError(
        "law_not_in_force",
        f"A {ctx.pack.law} não está em vigor em {pt_date(ctx.date)}: {reason} ({entry.citation}).",
        "date",
    )
