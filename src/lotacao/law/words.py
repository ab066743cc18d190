"""Words for explanations a clerk reads aloud: plurals, lists, and the Portuguese names of the
contract's codes (modalities, categories, offenders). Nothing here knows a law."""

from __future__ import annotations

from collections.abc import Iterable

MODALITY_PT = {
    "eventual": "fretamento eventual",
    "tourism": "fretamento turístico",
    "continuous": "fretamento contínuo",
    "social": "fretamento social",
    "own": "fretamento próprio",
    "tfd": "fretamento para tratamento fora do domicílio",
    "students": "fretamento de estudantes",
}
CATEGORY_PT = {
    "car7": "automóvel de 7 lugares",
    "van": "van",
    "microbus": "micro-ônibus",
    "bus": "ônibus",
}


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """`1 dia`, `2 dias`; `plural_form` where adding an s is wrong (`1 mês`, `2 meses`)."""
    word = singular if n == 1 else (plural_form or singular + "s")
    return f"{n} {word}"


def join_pt(items: Iterable[str], last: str = "e") -> str:
    """`a`, `a e b`, `a, b e c`."""
    listed = [i for i in items if i]
    if len(listed) <= 1:
        return "".join(listed)
    return ", ".join(listed[:-1]) + f" {last} " + listed[-1]


def lower_first(text: str) -> str:
    """A description as part of a sentence: the first letter in lower case, unless it begins an
    acronym or a name in capitals (`UFIMA`, `RST`)."""
    text = text.strip().rstrip(".")
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text


def modality_pt(code: str | None) -> str:
    return MODALITY_PT.get(code or "", code or "modalidade não informada")
