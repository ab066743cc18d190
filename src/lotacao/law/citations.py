"""The one place that writes a message's citations (issue 24): each provision once, grouped by act,
and none the message already states.

Explanations carry their sources in two ways: inline, where the prose needs them ("Prazo de defesa
(art. 41, § 1º): 30 dias"), and as a list beside the message (the engine's `citations`, a reason's
`citation`). Appending the list blindly printed the same provision twice ("(…, art. 46, V).
(…, art. 46, V)") and lists joined from several rules repeated an article ("art. 36, § 2º; art. 39;
art. 36, § 2º"). `cited(message, citations)` is what every screen uses to put the two together;
`merged(citations)` is the list alone.

A citation is "<act>, <provision>; <provision>…" ("Lei Municipal 16.856/2003 (Recife), art. 36,
§ 2º; art. 39, § 1º"), a bare provision ("art. 41") or an act alone ("Portaria nº 1/2025"). Text
that is none of these is kept as it is, once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Where a provision begins ("art. 7º", "arts. 23 e 24", "Anexo I, art. 19", "seção X (…), art. 17").
_PROVISION_START = re.compile(r"^(?:arts?\.\s|Anexo\s|seção\s|§\s|parágrafo\s|inciso\s|Capítulo\s)")
_ACT_START = re.compile(r"^(?:Lei|Decreto|Portaria|Resolução|Constituição|Instrução|Deliberação|Ato)\b")
# What continues a provision after it: a paragraph, an item, a letter, a range ("I a III").
_CONTINUES = re.compile(
    r"^(?:[º°\w-]|, (?:§|[IVXLC]+\b|[a-z]\b|parágrafo|caput|inciso|alínea|na redação)|"
    r" (?:a|e) (?:[IVXLC]+\b|\d|§|[a-z]\b))"
)
_WITHIN = re.compile(r"(?:Anexo [IVXLC]+|seção [IVXLC]+(?: \([^()]*\))?), $")


def split(citation: str) -> list[tuple[str, str]]:
    """(act, provision) pairs of one citation: `("Lei X", "art. 36, § 2º")`; `("", "art. 41")` for a
    bare provision; `("Portaria nº 1", "")` for an act cited whole."""
    out: list[tuple[str, str]] = []
    act = ""
    for part in (p.strip() for p in citation.split(";")):
        if not part:
            continue
        if _PROVISION_START.match(part):
            out.append((act, part))
            continue
        head, provision = _act_and_provision(part)
        act = head
        out.append((head, provision))
    return out


def _act_and_provision(part: str) -> tuple[str, str]:
    """ "Lei X (Recife), art. 36, § 2º" → ("Lei X (Recife)", "art. 36, § 2º"): the act ends at the
    first ", " followed by the start of a provision (commas inside parentheses do not count)."""
    depth = 0
    for i, char in enumerate(part):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0 and _PROVISION_START.match(part[i + 2 :]):
            return part[:i], part[i + 2 :]
    return part, ""


def merged(citations: Iterable[str] | str | None) -> list[str]:
    """Each provision once, the provisions of one act together in the order first cited:
    ["Lei X, art. 36", "Lei X, art. 39; art. 36", "Portaria nº 1"] → ["Lei X, art. 36; art. 39",
    "Portaria nº 1"]."""
    return _grouped(_pairs(citations))


def _pairs(citations: Iterable[str] | str | None) -> list[tuple[str, str]]:
    if not citations:
        return []
    items = [citations] if isinstance(citations, str) else list(citations)
    pairs: list[tuple[str, str]] = []
    for citation in items:
        for pair in split(str(citation)):
            if pair not in pairs:
                pairs.append(pair)
    return pairs


def _grouped(pairs: list[tuple[str, str]]) -> list[str]:
    acts: dict[str, list[str]] = {}
    for act, provision in pairs:
        acts.setdefault(act, [])
        if provision:
            acts[act].append(provision)
    out: list[str] = []
    for act, provisions in acts.items():
        listed = "; ".join(provisions)
        if act and listed:
            out.append(f"{act}, {listed}")
        else:
            out.append(act or listed)
    return [o for o in out if o]


def stated(text: str, act: str, provision: str) -> bool:
    """Whether `text` already cites this provision of this act: in full ("Lei X, art. 36"), in a list
    of the act ("Lei X, art. 1º; art. 36") or inline by the provision alone ("(art. 36)") where the
    text names the act elsewhere. An act cited whole is stated when its name appears."""
    if not provision:
        return bool(act) and act in text
    if act and act not in text:
        return False
    for match in re.finditer(re.escape(provision), text):
        before, after = text[: match.start()], text[match.end() :]
        if before and (before[-1].isalnum() or before[-1] in ".º°"):
            continue  # "arts. 36", "art. 136"
        if _WITHIN.search(before) and not _WITHIN.search(provision):
            continue  # "Anexo I, art. 19" is not the law's own art. 19
        if _CONTINUES.match(after):
            continue  # "art. 36, § 2º" is not art. 36
        return True
    return False


def cited(message: str, citations: Iterable[str] | str | None) -> str:
    """`message` followed by its citations in parentheses: each provision once, grouped by act, and
    none the message already states (then no parentheses at all)."""
    text = (message or "").strip()
    rest = [(act, p) for act, p in _pairs(citations) if not stated(text, act, p)]
    listed = _grouped(rest)
    if not listed:
        return text
    return f"{text} ({'; '.join(listed)})" if text else "; ".join(listed)
